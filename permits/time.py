"""How the law counts time, in one module: Wis. Stat. § 990.001(4), the § 995.20 legal holidays and the Village
office's calendar. Every deadline of Chapter 303 and of the statutes it names is counted here, never by hand.

Wis. Stat. § 990.001(4) reads:
  (a) "The time within which an act is to be done or proceeding had or taken shall be computed by excluding the first
      day and including the last; and when any such time is expressed in hours the whole of Sunday and of any legal
      holiday, from midnight to midnight, shall be excluded."
  (b) "If the last day within which an act is to be done or proceeding had or taken is a Sunday or legal holiday, the
      act may be done or the proceeding had or taken on the next secular day."
  (d) "If the last day within which an act is to be done or proceeding had or taken falls on a day when the office
      in which the act is to be done is closed, the act may be done on the next day the office is open."

Read here:
- A period of days runs from the day after the day it starts on; its last day is the Nth (`last_day`). A last day on
  a Sunday or a § 995.20 legal holiday moves to the next day that is neither (a Saturday is a secular day).
- A period of hours skips every Sunday and legal holiday whole, midnight to midnight, in the Village's time zone
  (`hours_later`): a notice given Saturday at 10:00 with 24 hours to act ends Monday at 10:00, and Tuesday at 10:00
  when that Monday is Labor Day. Daylight saving time changes on a Sunday, so counted hours never cross one.
- A filing or a payment made at the Clerk-Treasurer's office whose last day falls on a day the office is closed
  (a weekend, or a day on the office-closure calendar) may be made on the next day it is open (`last_day_at_office`).
- A notice or decision that must come "at least N days before" a day is due by the Nth day before it, the day itself
  excluded (`days_before`); no Sunday rule moves it, since moving it later would shorten the period it protects.

Where the Village attorney may read it otherwise: the snow and rubbish rules (§ 303-8, § 303-2) give the owner 24
hours because a walk left unsafe is a danger, and the attorney may decide those hours are clock hours (Sundays and
holidays included). That is the one setting `SNOW_HOURS_ARE_CLOCK_HOURS` (off: the statute's reading), read by
`snow_hours_are_clock_hours()`, and shown on the public rules page.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time

from django.utils import timezone

from permits.business_days import is_business_day, shift
from permits.legal_holidays import is_legal_holiday
from permits.readings import Reading

SUNDAY = 6


def is_secular_day(day: date) -> bool:
    """Wis. Stat. § 990.001(4)(b): a day that is neither a Sunday nor a legal holiday of Wis. Stat. § 995.20."""
    return day.weekday() != SUNDAY and not is_legal_holiday(day)


def next_secular_day(day: date) -> date:
    """`day` itself when it is secular, else the first secular day after it (§ 990.001(4)(b))."""
    while not is_secular_day(day) and day < date.max:
        day = shift(day, 1)
    return day


def last_day(start: date, days: int) -> date:
    """Wis. Stat. § 990.001(4)(a), (b): the last day of `days` days counted from `start` (the first day excluded, the
    last included), moved to the next secular day when it is a Sunday or a legal holiday."""
    return next_secular_day(shift(start, days))


def first_day_after(start: date, days: int) -> date:
    """The first day after the period of `last_day(start, days)`: the day the act it allowed is late."""
    return shift(last_day(start, days), 1)


def last_day_at_office(start: date, days: int) -> date:
    """Wis. Stat. § 990.001(4)(a), (b), (d): the last day to file or pay at the Clerk-Treasurer's office; a last
    day on which the office is closed moves to the next day it is open."""
    day = last_day(start, days)
    while not is_business_day(day) and day < date.max:
        day = shift(day, 1)
    return day


def days_before(day: date, days: int) -> date:
    """The latest day that is at least `days` days before `day` (`day` excluded, the Nth day before included)."""
    return shift(day, -days)


def _midnight_after(moment: datetime) -> datetime:
    """The local midnight that ends `moment`'s calendar day."""
    return datetime.combine(shift(moment.date(), 1), clock_time.min, tzinfo=moment.tzinfo)


def hours_later(moment: datetime, hours: float, *, clock_hours: bool = False) -> datetime:
    """Wis. Stat. § 990.001(4)(a): the moment `hours` hours after `moment`, "the whole of Sunday and of any legal
    holiday, from midnight to midnight" excluded, counted in the Village's time zone. `clock_hours` counts every hour
    instead (the snow rules, where the Village attorney so decides: see the module's docstring). Aware in, aware out
    (in the Village's zone)."""
    if moment.tzinfo is None:
        raise ValueError("hours_later needs an aware datetime")
    zone = timezone.get_default_timezone()  # the Village's zone (settings.TIME_ZONE)
    if clock_hours:
        return (moment.astimezone(UTC) + timedelta(hours=hours)).astimezone(zone)
    cursor = moment.astimezone(zone)
    remaining = timedelta(hours=hours)
    while True:
        if cursor.date() >= date.max:
            return cursor
        if not is_secular_day(cursor.date()):
            cursor = _midnight_after(cursor)
            continue
        # Differences of aware datetimes in one zone are wall-clock differences: take them in UTC.
        day_end = _midnight_after(cursor)
        available = day_end.astimezone(UTC) - cursor.astimezone(UTC)
        if remaining <= available:
            return (cursor.astimezone(UTC) + remaining).astimezone(zone)
        remaining -= available
        cursor = day_end


def hours_earlier(moment: datetime, hours: float, *, clock_hours: bool = False) -> datetime:
    """The moment `hours` hours before `moment`, counted as `hours_later` counts them (its inverse: for a moment
    on a secular day, hours_later(hours_earlier(m, h), h) == m). For the demo and the tests, which need a time that
    is at least so many counted hours ago."""
    if moment.tzinfo is None:
        raise ValueError("hours_earlier needs an aware datetime")
    zone = timezone.get_default_timezone()  # the Village's zone (settings.TIME_ZONE)
    if clock_hours:
        return (moment.astimezone(UTC) - timedelta(hours=hours)).astimezone(zone)
    cursor = moment.astimezone(zone)
    remaining = timedelta(hours=hours)
    while True:
        # Going back, a cursor at midnight is the end of the day before it.
        day = (cursor - timedelta(microseconds=1)).date()
        if day <= date.min:
            return cursor
        day_start = datetime.combine(day, clock_time.min, tzinfo=zone)
        if not is_secular_day(day):
            cursor = day_start
            continue
        available = cursor.astimezone(UTC) - day_start.astimezone(UTC)
        if remaining <= available:
            return (cursor.astimezone(UTC) - remaining).astimezone(zone)
        remaining -= available
        cursor = day_start


def snow_hours_are_clock_hours() -> bool:
    """The Village attorney's reading of the hours in § 303-8 and § 303-2 (settings.SNOW_HOURS_ARE_CLOCK_HOURS)."""
    from django.conf import settings

    return settings.SNOW_HOURS_ARE_CLOCK_HOURS


def _snow_hours_in_force() -> str:
    if snow_hours_are_clock_hours():
        return "Set now: clock hours (the Village attorney's reading); Sundays and legal holidays count."
    return "Set now: the statute's reading; Sundays and legal holidays are not counted."


TOPIC = "How the Village counts time"
READINGS = (
    Reading(
        "Wis. Stat. § 990.001(4)(a), (b)",
        TOPIC,
        "A period of days excludes the day it starts on and includes its last day: 30 days from June 1 end on July 1. "
        "A last day that falls on a Sunday or a legal holiday (Wis. Stat. § 995.20) moves to the next day that is "
        "neither; a Saturday counts as an ordinary day.",
    ),
    Reading(
        "Wis. Stat. § 990.001(4)(a)",
        TOPIC,
        "A period of hours skips every Sunday and legal holiday whole, midnight to midnight: a notice given on "
        "Saturday at 10:00 a.m. with 24 hours to act runs to Monday at 10:00 a.m. (Tuesday when that Monday is "
        "Labor Day). This applies to the 24 hours to remove an obstruction (§ 303-6D, § 303-6E) and after the "
        "Board's notice (§ 303-7F).",
    ),
    Reading(
        "Wis. Stat. § 990.001(4)(d)",
        TOPIC,
        "A filing or a payment made at the Clerk-Treasurer's office whose last day falls on a day the office is "
        "closed (a weekend, or a day on the office calendar) may be made on the next day the office is open.",
    ),
    Reading(
        "§ 303-8A, § 303-8B, § 303-2",
        TOPIC,
        "The 24 hours an owner has to clear snow and ice, or to remove rubbish, are counted like every other period "
        "of hours: Sundays and legal holidays are not counted. The hours of a continuing offense after the 24 hours "
        "(§ 303-8C) are clock hours.",
        otherwise="Because a walk left unsafe is a danger, the Village attorney may read these 24 hours as clock "
        "hours; the Village then sets SNOW_HOURS_ARE_CLOCK_HOURS, and no code changes.",
        in_force=_snow_hours_in_force,
    ),
    Reading(
        "At least N days before",
        TOPIC,
        "A notice or decision that must come at least so many days before a day (a hearing, the start of work) is "
        "due by that many days before it, the day itself not counted. No Sunday rule moves it: moving it later "
        "would shorten the notice it protects.",
    ),
)
