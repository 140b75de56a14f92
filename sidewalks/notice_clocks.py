"""The clocks of § 303-3 and § 303-8 that run from a written notice (permits.notices.start_clocks starts them)."""

from __future__ import annotations

from permits.notices import Given, NoticeClock
from sidewalks.models import SnowCase


def snow_notice_given(case_id: int, given: Given) -> None:
    """§ 303-8B: the owner has been given written notice: from this moment the crew may clear (once the 24 hours
    after the snow stopped have run). The first notice given counts."""
    SnowCase.objects.filter(pk=case_id, owner_notified_at__isnull=True).update(owner_notified_at=given.at)


CLOCKS = (NoticeClock("snow_case_notice", snow_notice_given),)
