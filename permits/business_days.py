"""Two calendars, kept apart because the law keeps them apart.

- Working days of Wis. Stat. § 182.0175 (Diggers Hotline): weekends and the legal holidays of Wis. Stat. § 995.20
  (permits.legal_holidays) are not working days. Pure: the statute, not the Village, decides them.
- Business days of Chapter 303 (§ 303-5F one business day's notice, § 303-5H apply by the next business day): the
  days the Village office is open. Weekends and the days on the office-closure calendar the Clerk-Treasurer keeps
  (permits.office_calendar, seeded from § 995.20) are not business days. A year with no calendar rows at all
  counts the § 995.20 holidays, so a year nobody seeded is never treated as having no holidays.
"""

from __future__ import annotations

from datetime import date, timedelta

from permits.legal_holidays import is_legal_holiday


def shift(day: date, days: int) -> date:
    """`day` plus `days` (negative: minus), held at date.min or date.max instead of overflowing. The forms refuse
    implausible dates (permits.input_limits); this keeps every pure rule total on the year 1 and the year 9999."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.max if days > 0 else date.min


# --- Wis. Stat. § 182.0175: working days ----------------------------------------------------------------------


def is_working_day(day: date) -> bool:
    """Wis. Stat. § 182.0175: a weekday that is not a legal holiday under Wis. Stat. § 995.20."""
    return day.weekday() < 5 and not is_legal_holiday(day)


def add_working_days(day: date, count: int) -> date:
    """`count` working days after `day` (the day itself is not counted); date.max when the calendar ends first."""
    for _ in range(count):
        day = shift(day, 1)
        while not is_working_day(day) and day < date.max:
            day = shift(day, 1)
    return day


# --- Chapter 303: the Village office's business days -------------------------------------------------------------


def is_business_day(day: date) -> bool:
    """§ 303-5F, § 303-5H: a weekday the Village office is open (the office-closure calendar)."""
    from permits.office_calendar import is_office_closed

    return day.weekday() < 5 and not is_office_closed(day)


def next_business_day(day: date) -> date:
    """The first business day after `day` (§ 303-5H: "no later than the next business day"); date.max when the
    calendar ends first."""
    day = shift(day, 1)
    while not is_business_day(day) and day < date.max:
        day = shift(day, 1)
    return day


def previous_business_day(day: date) -> date:
    """The last business day before `day` (§ 303-5F: "at least one business day before"); date.min at the start."""
    day = shift(day, -1)
    while not is_business_day(day) and day > date.min:
        day = shift(day, -1)
    return day


def add_business_days(day: date, count: int) -> date:
    """`count` business days after `day`."""
    for _ in range(count):
        day = next_business_day(day)
    return day


def business_days_between(start: date, end: date) -> int:
    """Business days after `start` up to and including `end`."""
    count, day = 0, start
    while day < end:
        day = shift(day, 1)
        if is_business_day(day):
            count += 1
    return count
