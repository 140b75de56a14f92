"""The office-closure calendar behind Chapter 303's business days (§ 303-5F, § 303-5H): reads and the clerk's verbs.

A job asks for thousands of days: each process keeps a year's reading for `MEMORY_SECONDS`. A closure saved or deleted
in this process (the clerk's verbs, the admin) is seen at once (`forget`, on the model's signals and at the commit);
one written in another process, or without save() (bulk_create, update), is seen within the second.
A year with no rows at all falls back to the legal holidays of Wis. Stat. § 995.20 (permits.legal_holidays).
"""

from __future__ import annotations

import time
from datetime import date

from django.db import transaction

from permits.access import require_role
from permits.errors import RulesBroken, Violation
from permits.legal_holidays import legal_holidays
from permits.roles import Role

CALENDAR_KEEPERS = (Role.CLERK,)  # the Clerk-Treasurer keeps the Village office's hours
SEED_YEARS_AHEAD = 5  # the yearly job keeps this year and the next five seeded
MEMORY_SECONDS = 1

_clock = time.monotonic
_recent: dict[int, tuple[float, frozenset[date]]] = {}  # year -> (when read, closed days)


def closed_days(year: int) -> frozenset[date]:
    """The weekdays and weekend days the office is closed in `year` (this process's reading of the last second)."""
    from permits.models import OfficeClosure

    now = _clock()
    recent = _recent.get(year)
    if recent is not None and now - recent[0] < MEMORY_SECONDS:
        return recent[1]
    rows = list(OfficeClosure.objects.filter(day__year=year).values_list("day", "closed"))
    days = frozenset(d for d, closed in rows if closed) if rows else frozenset(legal_holidays(year))
    _recent[year] = (now, days)
    return days


def forget(**kwargs) -> None:
    """Drop this process's readings (a receiver of OfficeClosure's post_save and post_delete, connected in
    permits.apps, and called by the restore command): now, and again when the write's transaction commits, so that a
    reading taken inside the transaction is not kept past it."""
    _recent.clear()
    transaction.on_commit(_recent.clear)


def is_office_closed(day: date) -> bool:
    return day in closed_days(day.year)


def seed_statutory_closures(*, years) -> tuple[int, int]:
    """Add the § 995.20 legal holidays of `years` not yet on the calendar (a day the clerk already recorded, closed
    or open, is left as the clerk set it). Idempotent. Returns (holidays considered, rows added)."""
    from permits.models import OfficeClosure

    considered = added = 0
    for year in years:
        for day, name in legal_holidays(year).items():
            considered += 1
            _row, created = OfficeClosure.objects.get_or_create(
                day=day, defaults={"name": name, "source": OfficeClosure.Source.STATUTE}
            )
            added += created
    return considered, added


def seed_coming_years(*, today: date) -> tuple[int, int]:
    """The yearly job: this year and the next SEED_YEARS_AHEAD years carry the statute's holidays."""
    return seed_statutory_closures(years=range(today.year, today.year + SEED_YEARS_AHEAD + 1))


def _validate(day, name) -> list[Violation]:
    errors = []
    if day is None:
        errors.append(Violation("day", "required", "§ 303-5H", "Give the day the office is closed (§ 303-5H)"))
    if not (name or "").strip():
        errors.append(Violation("name", "required", "§ 303-5H", "Say why the office is closed, e.g. the holiday"))
    return errors


def record_closure(*, by, day: date, name: str, closed: bool = True):
    """The clerk marks `day` closed (or, `closed=False`, open after all) with its reason; one row per day."""
    from permits.models import OfficeClosure

    require_role(by, *CALENDAR_KEEPERS, action="keep the office-closure calendar (§ 303-5F, § 303-5H)")
    errors = _validate(day, name)
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        row, created = OfficeClosure.objects.select_for_update().get_or_create(
            day=day, defaults={"name": name.strip(), "closed": closed, "recorded_by": by}
        )
        if not created:
            row.name, row.closed, row.recorded_by = name.strip(), closed, by
            row.save()
        if not OfficeClosure.objects.filter(day__year=day.year).exclude(pk=row.pk).exists() and created:
            # The first row of a year replaces the statute fallback: carry the statute's holidays alongside it.
            seed_statutory_closures(years=[day.year])
    return row
