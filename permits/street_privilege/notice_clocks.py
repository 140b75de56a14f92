"""The § 303-7F 24 hours run from the Board's notice as given to the owner (permits.notices.start_clocks)."""

from __future__ import annotations

from permits.notices import MAIL_RECEIPT_DAYS, Given, NoticeClock
from permits.street_privilege.models import SidewalkObstruction


def obstruction_notice_given(obstruction_id: int, given: Given) -> None:
    """§ 303-7F: "within 24 hours after such notice from the Village Board": the hours run from the notice in the
    owner's hands (emailed: at once; a letter: from the end of its presumed day of receipt), not from the motion."""
    SidewalkObstruction.objects.filter(pk=obstruction_id, noticed_at__isnull=True).update(noticed_at=given.at)


CLOCKS = (NoticeClock("street_privilege_obstruction_notice", obstruction_notice_given, MAIL_RECEIPT_DAYS),)
