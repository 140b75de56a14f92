"""Boundary tests of sidewalks/snow/rules.py (§ 303-8 snow and ice, § 303-2 rubbish), named after their sections."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sidewalks.snow import rules

CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 10, 6, 0, tzinfo=CHICAGO)


# --- § 303-8 snow and ice ---------------------------------------------------------------------------------------


def test_303_8a_owner_has_24_hours_from_when_snow_stops():
    assert rules.owner_clearing_deadline(STOPPED) == datetime(2026, 1, 11, 6, 0, tzinfo=CHICAGO)


def test_303_8a_corner_and_crosswalk_lots_clear_those_walks_too():
    assert len(rules.walks_owner_must_clear(False, False)) == 1
    walks = rules.walks_owner_must_clear(True, True)
    assert len(walks) == 3
    assert any("corner" in w for w in walks) and any("crosswalk" in w for w in walks)


def test_303_8b_23_hours_59_refused():
    at = STOPPED + timedelta(hours=23, minutes=59)
    assert not rules.village_may_clear(STOPPED, at)
    [violation] = rules.village_clearing_errors(STOPPED, at)
    assert violation.citation == "§ 303-8B" and "§ 303-8B" in violation.message


def test_303_8b_24_hours_00_allowed():
    assert rules.village_may_clear(STOPPED, STOPPED + timedelta(hours=24))
    assert rules.village_clearing_errors(STOPPED, STOPPED + timedelta(hours=24)) == []


def test_303_8b_no_snowfall_recorded_refused():
    [violation] = rules.village_clearing_errors(None, STOPPED)
    assert violation.citation == "§ 303-8B" and "§ 303-8B" in violation.message


def test_303_8c_no_offense_within_24_hours():
    assert rules.hours_of_violation(STOPPED, STOPPED + timedelta(hours=24)) == 0


def test_303_8c_part_of_an_hour_is_an_offense():
    assert rules.hours_of_violation(STOPPED, STOPPED + timedelta(hours=24, seconds=1)) == 1
    assert rules.hours_of_violation(STOPPED, STOPPED + timedelta(hours=25)) == 1
    assert rules.hours_of_violation(STOPPED, STOPPED + timedelta(hours=25, minutes=1)) == 2


# --- § 303-2 rubbish --------------------------------------------------------------------------------------------


def test_303_2_village_may_not_remove_at_the_deadline():
    deadline = STOPPED + timedelta(hours=24)
    assert not rules.village_may_remove_rubbish(deadline, deadline)
    assert rules.village_may_remove_rubbish(deadline, deadline + timedelta(minutes=1))


def test_303_2_deadline_must_follow_the_notice():
    assert rules.rubbish_notice_errors(STOPPED, STOPPED)
    assert rules.rubbish_notice_errors(STOPPED, STOPPED + timedelta(minutes=1)) == []
