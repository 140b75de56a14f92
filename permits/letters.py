"""Printed letters: the written notices the Village gives by mail to recipients without an email address.

A notice is given only when it was emailed or mailed (§ 303-8B, and every notice the Village must give). A letter is
created by permits.services.send_notice / notify_owner; the Clerk-Treasurer prints it (one PDF per owner, or the
batch of every letter not yet mailed), mails it and records the mailing date. Until then it is "not yet given" and no
deadline runs from it; when the mailing is recorded, permits.notices.start_clocks starts the clock of the record the
notice is about (a snow case's written notice, a bill's due date, the 24 hours to remove an obstruction).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from permits.access import require_role
from permits.errors import Violation, raise_if_broken
from permits.models import Notice
from permits.notices import start_clocks
from permits.pdf import render_pdf
from permits.roles import Role

MAILING_ACTION = "record the mailing of letters (the Clerk-Treasurer does)"


def letters_to_mail() -> QuerySet[Notice]:
    """Every letter not yet mailed, oldest first (the clerk mails them in that order)."""
    return Notice.objects.filter(channel=Notice.Channel.MAIL, mailed_on__isnull=True).order_by("created_at", "pk")


def mailed_letters() -> QuerySet[Notice]:
    return Notice.objects.filter(channel=Notice.Channel.MAIL, mailed_on__isnull=False).order_by("-mailed_on", "-pk")


def render_letters_pdf(notices) -> bytes:
    """One letter per page, addressed for a window envelope; the batch is every letter given in one PDF."""
    letters = [(notice, unwrapped(notice.body)) for notice in notices]
    return render_pdf("pdf/letters.html", {"letters": letters, "printed_on": timezone.localdate()})


def unwrapped(body: str) -> str:
    """The notice's text as a letter's paragraphs. Its emailed text is wrapped by hand at about 110 characters; on the
    printed page those breaks cut sentences in the middle of a line. A line is joined to the one before unless that
    one is blank, a heading (ends with a colon), a list item or a link, or it is blank, a list item or a link: those
    breaks are meant."""

    def own_line(line: str) -> bool:
        return not line.strip() or line[:1].isspace() or line.lstrip().startswith(("-", "*", "•", "http"))

    lines: list[str] = []
    for line in body.strip("\n").splitlines():
        previous = lines[-1] if lines else ""
        if lines and not own_line(previous) and not previous.rstrip().endswith(":") and not own_line(line):
            lines[-1] = f"{previous.rstrip()} {line.strip()}"
        else:
            lines.append(line.rstrip())
    return "\n".join(lines)


def mailing_errors(notices: list[Notice], mailed_on: date | None, today: date) -> list[Violation]:
    """A mailing date is a day that happened: not in the future, not before the letter was written."""
    errors = []
    if not notices:
        errors.append(Violation("letters", "required", "", "Choose the letters that were mailed."))
    if mailed_on is None:
        errors.append(Violation("mailed_on", "required", "", "Give the day the letters were mailed."))
    elif mailed_on > today:
        message = "The mailing date cannot be in the future: record it once the letters are mailed."
        errors.append(Violation("mailed_on", "in_future", "", message))
    else:
        early = [n for n in notices if timezone.localdate(n.created_at) > mailed_on]
        if early:
            message = (
                f"{len(early)} of the letters were written after {mailed_on:%B %-d, %Y}: they cannot have been "
                "mailed that day."
            )
            errors.append(Violation("mailed_on", "before_written", "", message))
    return errors


def record_mailing(*, notices, mailed_on: date | None, by, today: date | None = None) -> int:
    """The Clerk-Treasurer records the day the chosen letters were mailed: each is then GIVEN as of that day and its
    record's deadline starts to run. A letter already recorded as mailed is left as it was (no second date). Returns
    how many letters were recorded."""
    require_role(by, Role.CLERK, action=MAILING_ACTION)
    today = today or timezone.localdate()
    chosen = [n for n in notices if n.channel == Notice.Channel.MAIL]
    raise_if_broken(mailing_errors(chosen, mailed_on, today))
    done = 0
    with transaction.atomic():
        for notice in chosen:
            # Conditional update: two clerks recording the same letter record it once.
            if (
                Notice.objects.filter(pk=notice.pk, mailed_on__isnull=True).update(mailed_on=mailed_on, mailed_by=by)
                != 1
            ):
                continue
            notice.mailed_on, notice.mailed_by = mailed_on, by
            if notice.permit_id is not None:
                from permits.services import record_event

                record_event(
                    notice.permit,
                    by=by,
                    kind="notice",
                    reason=f"Letter mailed on {mailed_on:%B %-d, %Y} to {notice.recipient_name}: {notice.subject}",
                )
            start_clocks([notice])
            done += 1
    return done


def notices_about(record) -> QuerySet[Notice]:
    from django.contrib.contenttypes.models import ContentType

    return Notice.objects.filter(record_type=ContentType.objects.get_for_model(record), record_id=record.pk)
