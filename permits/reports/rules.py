"""The reports' rules: who reads which report, which years may be asked for, and how ages and waits are counted.

Pure functions over plain values (no clock, no database): the views read the day once and pass it down. None of this
is Chapter 303 itself; each rule names where it comes from (the office's practice, or the statute the figure
serves).
"""

from __future__ import annotations

from datetime import date, timedelta

from permits.errors import Violation
from permits.roles import Role

# The first year the office kept its records here: no report reaches further back.
FIRST_YEAR = 2020

REPORT_SLUGS = ("fees", "permits", "time-to-issue", "inspections", "open-cases", "tax-roll")

# The Clerk-Treasurer (who keeps the books) and the Village Board and its President (who set the
# fees and hold the hearings) read every report; the DPW reads the inspections report (its own work).
BOARD_AND_CLERK = frozenset({Role.CLERK, Role.BOARD, Role.PRESIDENT})
READERS: dict[str, frozenset[str]] = {
    "fees": BOARD_AND_CLERK,
    "permits": BOARD_AND_CLERK,
    "time-to-issue": BOARD_AND_CLERK,
    "inspections": BOARD_AND_CLERK | {Role.DPW_DIRECTOR, Role.DPW_INSPECTOR},
    "open-cases": BOARD_AND_CLERK,
    "tax-roll": BOARD_AND_CLERK,
}

# Open cases and charges are counted by age in these bands of calendar days (inclusive; the last has no end).
AGE_BANDS: tuple[tuple[int, int | None], ...] = ((0, 30), (31, 60), (61, 90), (91, None))

# The wait from application to issue is shown in these bands of calendar days (inclusive; the last has no end).
WAIT_BANDS: tuple[tuple[int, int | None], ...] = ((0, 7), (8, 14), (15, 30), (31, 60), (61, None))


def may_read_report(roles: set[str] | frozenset[str], slug: str, *, superuser: bool = False) -> bool:
    """The clerk, the Board and the President read every report; the DPW Director and its inspectors
    the inspections report only; applicants and the other staff none."""
    if slug not in READERS:
        return False
    return superuser or bool(set(roles) & READERS[slug])


def readable_reports(roles: set[str] | frozenset[str], *, superuser: bool = False) -> list[str]:
    """The reports a holder of `roles` may read, in the order the reports page lists them."""
    return [slug for slug in REPORT_SLUGS if may_read_report(roles, slug, superuser=superuser)]


def report_years(today: date) -> list[int]:
    """The years a report may be asked for: from FIRST_YEAR through this year, newest first (no future year: it has
    nothing to count yet)."""
    return list(range(today.year, FIRST_YEAR - 1, -1))


def year_violations(year: int | None, today: date) -> list[Violation]:
    """The year filter: a whole number from FIRST_YEAR through the current year."""
    if year is None:
        return [Violation("year", "year_missing", "", "Year: choose the year the report covers.")]
    if year < FIRST_YEAR or year > today.year:
        return [
            Violation(
                "year",
                "year_out_of_range",
                "",
                f"Year: the reports cover {FIRST_YEAR} through {today.year}; {year} is outside them.",
            )
        ]
    return []


def band_label(band: tuple[int, int | None]) -> str:
    low, high = band
    return f"{low}+ days" if high is None else f"{low}–{high} days"


def band_of(days: int, bands: tuple[tuple[int, int | None], ...]) -> str:
    """The label of the band that holds `days` (a negative count, a record dated after today, falls in the first)."""
    days = max(days, 0)
    for low, high in bands:
        if high is None or days <= high:
            if days >= low:
                return band_label((low, high))
    return band_label(bands[-1])


def age_in_days(opened_on: date, today: date) -> int:
    """A case's or charge's age: calendar days from the day it was opened (reported, served, billed) to today; a
    record opened today is 0 days old."""
    return (today - opened_on).days


def band_cutoffs(today: date, bands: tuple[tuple[int, int | None], ...] = AGE_BANDS) -> list[tuple[str, date | None]]:
    """Each age band as (label, earliest day opened that still falls in it), youngest band first: a record opened on
    or after the cutoff (and before the previous band's) is in the band. The oldest band has no cutoff (None).

    The database query buckets by these days, so a case exactly 30 days old is in "0–30 days" and one 31 days old
    in "31–60 days", as `band_of(age_in_days(...))` says."""
    out: list[tuple[str, date | None]] = []
    for low, high in bands:
        out.append((band_label((low, high)), None if high is None else today - timedelta(days=high)))
    return out


def days_to_issue(submitted_on: date, issued_on: date) -> int:
    """The wait from application to issue: calendar days from the day the application was submitted (Village time) to
    the day the permit was issued; submitted and issued the same day is 0 days."""
    return (issued_on - submitted_on).days


def median_of_counts(counts: dict[int, int]) -> float | None:
    """The middle value of a histogram {value: how many} (the mean of the two middle ones for an even total); None
    when it is empty. The database counts the waits per day, so the median is exact without fetching each permit."""
    total = sum(counts.values())
    if total == 0:
        return None
    ordered = sorted(counts.items())

    def nth(n: int) -> int:  # the n-th smallest value, from 0
        seen = 0
        for value, count in ordered:
            seen += count
            if n < seen:
                return value
        return ordered[-1][0]

    if total % 2:
        return float(nth(total // 2))
    return (nth(total // 2 - 1) + nth(total // 2)) / 2
