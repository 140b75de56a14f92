"""What the ledger brings to the Village Board (permits.board.matters): the public hearings on sidewalk-repair and
street-tarring charges that Wis. Stat. § 66.0627(3)(b) requires before they are billed. A noticed hearing
(ChargeHearing, recorded with its class 1 notice and mailing) waits until the meeting that holds it; the Board's
motion there is kept on the hearing (ChargeHearing.motion). The billing itself still follows the held, timely
noticed hearing (permits.ledger.services.bill_charges_after_hearings)."""

from __future__ import annotations

from permits.board.clauses import Clause
from permits.board.matters import Matter
from permits.errors import RulesBroken, Violation

CITE = "Wis. Stat. § 66.0627(3)(b)"


def _waiting():
    """Hearings noticed for today or later that no Board motion has held yet (older ones are history)."""
    from django.db.models import Count, Sum
    from django.utils import timezone

    from permits.ledger.models import ChargeHearing

    return (
        ChargeHearing.objects.filter(motion__isnull=True, hearing_on__gte=timezone.localdate())
        .annotate(charge_count=Count("charges"), charge_total=Sum("charges__amount"))
        .order_by("hearing_on", "pk")
    )


def _facts(hearing) -> list[tuple[str, str]]:
    from permits.ledger import rules

    count = getattr(hearing, "charge_count", None)
    total = getattr(hearing, "charge_total", None)
    if count is None:
        charges = list(hearing.charges.all())
        count, total = len(charges), sum((c.amount for c in charges), 0)
    problems = rules.hearing_notice_errors(hearing.hearing_on, hearing.published_on, hearing.mailed_on)
    return [
        ("Hearing", f"{hearing.hearing_on:%B %-d, %Y}" + (f", {hearing.place}" if hearing.place else "")),
        ("Class 1 notice published", f"{hearing.published_on:%B %-d, %Y}"),
        ("Notice mailed", f"{hearing.mailed_on:%B %-d, %Y}"),
        ("Notice", "; ".join(problems) if problems else f"Timely ({CITE})"),
        ("Charges heard", f"{count} totalling ${total or 0:,.2f}"),
    ]


def _decide(*, subject, motion, by) -> None:
    """The hearing is held at the meeting of its date: the motion is kept on it."""
    from permits.ledger.models import ChargeHearing

    if subject.hearing_on != motion.held_on:
        raise RulesBroken(
            [
                Violation(
                    None,
                    "hearing_date",
                    CITE,
                    f"The hearing was noticed for {subject.hearing_on:%B %-d, %Y}, not the meeting of "
                    f"{motion.held_on:%B %-d, %Y} ({CITE})",
                )
            ]
        )
    ChargeHearing.objects.filter(pk=subject.pk, motion__isnull=True).update(motion=motion)


MATTERS = (
    Matter(
        clause=Clause.SPECIAL_CHARGE_HEARING,
        title="Hearings on special charges (Wis. Stat. § 66.0627(3)(b))",
        model="permits.ChargeHearing",
        waiting=_waiting,
        facts=_facts,
        decide=_decide,
    ),
)
