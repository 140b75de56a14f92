"""The enforcement notices' deadlines run from the notice as given (permits.notices.start_clocks starts them)."""

from __future__ import annotations

from permits.notices import MAIL_RECEIPT_DAYS, Given, NoticeClock


def enforcement_notice_given(case_id: int, given: Given) -> None:
    """§ 303-6D, § 303-6E (and § 303-9C, § 303-14C): a notice served by the Village's own letter or email is served
    when given: the email when sent, the letter from the end of its presumed day of receipt. Its deadline is counted
    from then. A copy of a notice handed over or posted starts nothing (its case was served at the recorded time)."""
    from obstructions.models import Case
    from obstructions.services import SERVED_BY_THE_VILLAGES_NOTICE, notice_deadline

    case = Case.objects.filter(
        pk=case_id, status=Case.Status.NOTICED, served_at__isnull=True, served_how__in=SERVED_BY_THE_VILLAGES_NOTICE
    ).first()
    if case is None:
        return
    deadline = notice_deadline(case, given.at, case.notice_days)
    Case.objects.filter(pk=case.pk, served_at__isnull=True).update(served_at=given.at, deadline_at=deadline)


CLOCKS = (NoticeClock("enforcement_notice", enforcement_notice_given, MAIL_RECEIPT_DAYS),)
