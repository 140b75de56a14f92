"""Business days for Chapter 303 and Wis. Stat. § 182.0175: weekends and legal holidays are not business days.

Legal holidays are the federal holidays Wisconsin observes (the `holidays` package, US, subdivision WI).
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

import holidays


def shift(day: date, days: int) -> date:
    """`day` plus `days` (negative: minus), held at date.min or date.max instead of overflowing. The forms refuse
    implausible dates (permits.input_limits); this keeps every pure rule total on the year 1 and the year 9999."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.max if days > 0 else date.min


@lru_cache(maxsize=64)
def _holidays(year: int):
    return holidays.country_holidays("US", subdiv="WI", years=year)


def is_business_day(day: date) -> bool:
    return day.weekday() < 5 and day not in _holidays(day.year)


def next_business_day(day: date) -> date:
    """The first business day after `day` (§ 303-5H: "no later than the next business day"); date.max when the
    calendar ends first."""
    day = shift(day, 1)
    while not is_business_day(day) and day < date.max:
        day = shift(day, 1)
    return day


def add_business_days(day: date, count: int) -> date:
    """`count` business days after `day` (§ 182.0175: locate at least 3 working days before excavating)."""
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
