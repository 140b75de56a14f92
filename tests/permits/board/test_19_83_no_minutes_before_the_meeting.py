"""Wis. Stat. § 19.83(1): the Board acts only at a meeting it has held: no attendance or vote is recorded for a
meeting whose day has not come (a Dec 8 vote recorded on Dec 3 once adopted a sidewalk order)."""

from datetime import date

import pytest

from permits.board import services as board
from permits.errors import RulesBroken

pytestmark = pytest.mark.django_db
MEETING = date(2026, 12, 8)


@pytest.fixture
def meeting(clerk):
    return board.schedule_meeting(held_on=MEETING, by=clerk)


def test_19_83_attendance_the_day_before_the_meeting_is_refused(meeting, clerk):
    with pytest.raises(RulesBroken) as broken:
        board.record_attendance(meeting=meeting, present=[], by=clerk, today=date(2026, 12, 7))
    assert broken.value.violations[0].code == "meeting_not_held"
    assert "Wis. Stat. § 19.83(1)" in str(broken.value)


def test_19_83_attendance_on_the_meeting_day_is_recorded(meeting, clerk):
    board.record_attendance(meeting=meeting, present=[], by=clerk, today=MEETING)
    meeting.refresh_from_db()
    assert meeting.attendance_recorded_at is not None


def test_19_83_the_rule_itself_at_its_boundary(meeting):
    assert board.meeting_not_held_errors(meeting, date(2026, 12, 7))
    assert board.meeting_not_held_errors(meeting, MEETING) == []
    assert board.meeting_not_held_errors(meeting, date(2026, 12, 9)) == []
