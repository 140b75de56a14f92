"""Wis. Stat. § 990.001(4): how every deadline is counted (permits.time), at its boundaries."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from permits import time as law_time

CHICAGO = ZoneInfo("America/Chicago")


def at(y, m, d, hh=0, mm=0):
    return datetime(y, m, d, hh, mm, tzinfo=CHICAGO)


@pytest.mark.parametrize(
    ("start", "days", "expected"),
    [
        (date(2026, 12, 3), 1, date(2026, 12, 4)),  # Thursday: the first day is excluded, Friday is the last
        (date(2026, 12, 3), 2, date(2026, 12, 5)),  # a Saturday is a secular day: it stays
        (date(2026, 12, 3), 3, date(2026, 12, 7)),  # ends on Sunday the 6th: the next secular day, Monday
        (date(2026, 12, 3), 4, date(2026, 12, 7)),  # ends on Monday itself
        (date(2026, 12, 2), 30, date(2027, 1, 2)),  # ends on New Year's Day (a Friday): Saturday the 2nd
        (date(2026, 8, 7), 30, date(2026, 9, 8)),  # ends on Sunday Sept 6, then Labor Day: Tuesday Sept 8
        (date(2026, 12, 24), 1, date(2026, 12, 26)),  # Christmas Day (a Friday): the Saturday after
    ],
)
def test_990_001_4_days_exclude_the_first_include_the_last_and_skip_sundays_and_holidays(start, days, expected):
    assert law_time.last_day(start, days) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start", "days", "expected"),
    [
        (date(2026, 12, 3), 1, date(2026, 12, 4)),  # due Friday: the office is open
        (date(2026, 12, 3), 2, date(2026, 12, 7)),  # due Saturday, the office is closed: Monday
        (date(2026, 12, 3), 3, date(2026, 12, 7)),  # due Sunday: Monday
        (date(2026, 12, 23), 2, date(2026, 12, 28)),  # due on Christmas Day (Friday): Monday the 28th
    ],
)
def test_990_001_4_a_filing_due_when_the_office_is_closed_may_be_made_the_next_open_day(start, days, expected):
    assert law_time.last_day_at_office(start, days) == expected


@pytest.mark.django_db
def test_990_001_4_a_day_the_clerk_closes_the_office_moves_a_filing_but_not_a_secular_deadline():
    from permits.models import OfficeClosure

    OfficeClosure.objects.update_or_create(day=date(2026, 12, 4), defaults={"closed": True, "name": "Staff training"})
    assert law_time.last_day(date(2026, 12, 3), 1) == date(2026, 12, 4)
    assert law_time.last_day_at_office(date(2026, 12, 3), 1) == date(2026, 12, 7)


@pytest.mark.parametrize(
    ("given", "hours", "expected"),
    [
        (at(2026, 12, 4, 10), 24, at(2026, 12, 5, 10)),  # Friday 10:00: Saturday 10:00
        (at(2026, 12, 5, 10), 24, at(2026, 12, 7, 10)),  # Saturday 10:00: Sunday excluded, Monday 10:00
        (at(2026, 12, 5, 9, 59), 14, at(2026, 12, 5, 23, 59)),  # ends within the Saturday
        (at(2026, 12, 5, 10), 14, at(2026, 12, 6, 0)),  # exactly at the Saturday's midnight
        (at(2026, 12, 5, 10), 15, at(2026, 12, 7, 1)),  # one hour more: Sunday is skipped whole
        (at(2026, 12, 6, 15), 24, at(2026, 12, 8, 0)),  # given on a Sunday: counting starts Monday 00:00
        (at(2026, 9, 5, 10), 24, at(2026, 9, 8, 10)),  # Saturday before Labor Day: Tuesday 10:00
        (at(2026, 10, 31, 10), 24, at(2026, 11, 2, 10)),  # daylight saving ends on the excluded Sunday
    ],
)
def test_990_001_4_a_hours_exclude_the_whole_of_sunday_and_legal_holidays(given, hours, expected):
    assert law_time.hours_later(given, hours) == expected


def test_990_001_4_a_clock_hours_where_the_attorney_so_reads_the_snow_rules():
    assert law_time.hours_later(at(2026, 12, 5, 10), 24, clock_hours=True) == at(2026, 12, 6, 10)
    # across the fall-back Sunday a clock day is 25 hours of the wall: 10:00 CDT + 24 h is 09:00 CST
    assert law_time.hours_later(at(2026, 10, 31, 10), 24, clock_hours=True) == at(2026, 11, 1, 9)


def test_hours_are_counted_in_the_villages_zone_whatever_zone_the_moment_is_in():
    utc_saturday = datetime(2026, 12, 5, 16, 0, tzinfo=ZoneInfo("UTC"))  # Saturday 10:00 in Theresa
    assert law_time.hours_later(utc_saturday, 24) == at(2026, 12, 7, 10)


def test_hours_later_refuses_a_naive_moment():
    with pytest.raises(ValueError, match="aware"):
        law_time.hours_later(datetime(2026, 12, 5, 10), 24)  # noqa: DTZ001


@pytest.mark.parametrize(
    ("day", "days", "expected"),
    [
        (date(2026, 12, 31), 30, date(2026, 12, 1)),
        (date(2026, 12, 7), 1, date(2026, 12, 6)),  # a Sunday is not moved: moving it later shortens the notice
    ],
)
def test_at_least_n_days_before_counts_back_excluding_the_day_itself(day, days, expected):
    assert law_time.days_before(day, days) == expected


def test_the_snow_hours_switch_is_a_setting(settings):
    settings.SNOW_HOURS_ARE_CLOCK_HOURS = False
    assert law_time.snow_hours_are_clock_hours() is False
    settings.SNOW_HOURS_ARE_CLOCK_HOURS = True
    assert law_time.snow_hours_are_clock_hours() is True


@pytest.mark.parametrize(
    ("given", "hours", "expected"),
    [
        (at(2026, 12, 7, 10), 10, at(2026, 12, 7, 0)),  # Monday 10:00, 10 hours back: Monday's midnight
        (at(2026, 12, 7, 10), 11, at(2026, 12, 5, 23)),  # one more: Sunday skipped whole, Saturday 23:00
        (at(2026, 12, 7, 10), 24, at(2026, 12, 5, 10)),
        (at(2026, 9, 8, 10), 24, at(2026, 9, 5, 10)),  # the Tuesday after Labor Day
    ],
)
def test_hours_earlier_is_the_inverse_of_hours_later(given, hours, expected):
    assert law_time.hours_earlier(given, hours) == expected
    assert law_time.hours_later(expected, hours) == given
