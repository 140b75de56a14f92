"""Boundary tests of sidewalks/snow/rules.py (§ 303-8 snow and ice, § 303-2 rubbish), named after their sections."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from sidewalks.snow import rules

CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)


# --- § 303-8 snow and ice ---------------------------------------------------------------------------------------


def test_303_8a_owner_has_24_hours_from_when_snow_stops():
    assert rules.owner_clearing_deadline(STOPPED) == datetime(2026, 1, 14, 6, 0, tzinfo=CHICAGO)


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


SATURDAY = datetime(2026, 1, 10, 6, 0, tzinfo=CHICAGO)


def test_303_8a_snow_that_stops_on_a_saturday_gives_the_owner_until_monday():
    # Wis. Stat. § 990.001(4)(a): the whole of Sunday is excluded from a period of hours
    assert rules.owner_clearing_deadline(SATURDAY) == datetime(2026, 1, 12, 6, 0, tzinfo=CHICAGO)


@pytest.mark.parametrize(
    ("at", "may_clear"),
    [
        (datetime(2026, 1, 11, 6, 0, tzinfo=CHICAGO), False),  # Sunday, 24 clock hours later: not counted
        (datetime(2026, 1, 12, 5, 59, tzinfo=CHICAGO), False),  # Monday, one minute short
        (datetime(2026, 1, 12, 6, 0, tzinfo=CHICAGO), True),  # Monday at 6:00: the 24 counted hours have run
    ],
)
def test_303_8b_the_village_waits_24_counted_hours_over_a_sunday(at, may_clear):
    assert rules.village_may_clear(SATURDAY, at) is may_clear


def test_303_8b_the_refusal_says_when_the_village_may_clear():
    [violation] = rules.village_clearing_errors(SATURDAY, datetime(2026, 1, 11, 6, 0, tzinfo=CHICAGO))
    assert "it may clear from January 12, 2026 6:00 AM (§ 303-8B)" in violation.message


def test_303_8_the_attorneys_clock_hours_reading_is_one_setting(settings):
    settings.SNOW_HOURS_ARE_CLOCK_HOURS = True
    assert rules.owner_clearing_deadline(SATURDAY) == datetime(2026, 1, 11, 6, 0, tzinfo=CHICAGO)
    assert rules.village_may_clear(SATURDAY, datetime(2026, 1, 11, 6, 0, tzinfo=CHICAGO))


def test_303_2_a_rubbish_notice_served_saturday_defaults_to_monday():
    assert rules.rubbish_default_deadline(SATURDAY) == datetime(2026, 1, 12, 6, 0, tzinfo=CHICAGO)
