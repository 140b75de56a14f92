"""Wisconsin's legal holidays, exactly as Wis. Stat. § 995.20 lists them (pure: no database, no clock).

§ 995.20 reads (as amended through 2011 Wis. Act 75): "January 1, the 3rd Monday in January (which shall be the day
of celebration for January 15), the 3rd Monday in February (which shall be the day of celebration for February 12
and 22), the last Monday in May (which shall be the day of celebration for May 30), June 19, which shall be the day
of observation for Juneteenth Day, July 4, the 1st Monday in September which shall be known as Labor day, the 2nd
Monday in October, November 11, the 4th Thursday in November (which shall be the day of celebration for
Thanksgiving), December 25, the day of holding the [partisan] primary election, and the day of holding the general
election in November are legal holidays. On Good Friday the period from 11 a.m. to 3 p.m. shall uniformly be
observed for the purpose of worship. ... Whenever any of said days falls on Sunday, the succeeding Monday shall be
the legal holiday."

Read here:
- a holiday on a Sunday moves to the Monday after; a holiday on a Saturday stays on the Saturday (the statute moves
  none to a Friday), so it costs no working day;
- the 2nd Monday in October is a legal holiday (the `holidays` package's US/WI list leaves it out and moves Saturday
  holidays to Friday: it is not this statute, and is not used for counting);
- the partisan primary (the 2nd Tuesday in August, Wis. Stat. § 5.02(12s)) and the general election (the Tuesday
  after the 1st Monday in November, § 5.02(5)) fall in even-numbered years only;
- Good Friday's 11 a.m. to 3 p.m. observance is not a holiday: the day is a working day.
Diggers Hotline's "working days" (Wis. Stat. § 182.0175) skip weekends and these days (permits.business_days).
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

MONDAY, TUESDAY, THURSDAY, SUNDAY = 0, 1, 3, 6


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> date:
    last = date(year, month + 1, 1) - timedelta(days=1) if month < 12 else date(year, 12, 31)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _sunday_to_monday(day: date) -> date:
    """§ 995.20: "Whenever any of said days falls on Sunday, the succeeding Monday shall be the legal holiday"."""
    return day + timedelta(days=1) if day.weekday() == SUNDAY and day < date.max else day


@lru_cache(maxsize=128)
def legal_holidays(year: int) -> dict[date, str]:
    """The legal holidays of `year` under Wis. Stat. § 995.20: date -> name, in date order."""
    named = [
        (date(year, 1, 1), "New Year's Day"),
        (_nth_weekday(year, 1, MONDAY, 3), "Martin Luther King, Jr. Day (3rd Monday in January)"),
        (_nth_weekday(year, 2, MONDAY, 3), "Washington-Lincoln Day (3rd Monday in February)"),
        (_last_weekday(year, 5, MONDAY), "Memorial Day (last Monday in May)"),
        (date(year, 6, 19), "Juneteenth Day"),
        (date(year, 7, 4), "Independence Day"),
        (_nth_weekday(year, 9, MONDAY, 1), "Labor Day (1st Monday in September)"),
        (_nth_weekday(year, 10, MONDAY, 2), "2nd Monday in October"),
        (date(year, 11, 11), "Veterans Day"),
        (_nth_weekday(year, 11, THURSDAY, 4), "Thanksgiving Day (4th Thursday in November)"),
        (date(year, 12, 25), "Christmas Day"),
    ]
    if year % 2 == 0:
        named.append((_nth_weekday(year, 8, TUESDAY, 2), "Partisan primary election day"))
        named.append((_nth_weekday(year, 11, MONDAY, 1) + timedelta(days=1), "General election day"))
    found: dict[date, str] = {}
    for day, name in named:
        moved = _sunday_to_monday(day)
        label = name if moved == day else f"{name} (observed: it falls on a Sunday)"
        found.setdefault(moved, label)
    return dict(sorted(found.items()))


def is_legal_holiday(day: date) -> bool:
    # A Sunday holiday moves one day, never across a year's end (December 25 moves at most to December 26).
    return day in legal_holidays(day.year)
