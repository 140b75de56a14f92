"""The office-closure calendar behind Chapter 303's business days (§ 303-5F, § 303-5H): reads and the clerk's verbs.

Closed days are read once per year and kept, shared by every process, until any write changes the data
(permits.list_cache.kept: a closure saved in one web process counts at once in the others and in the workers).
A year with no rows at all falls back to the legal holidays of Wis. Stat. § 995.20 (permits.legal_holidays).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from permits import list_cache
from permits.access import require_role
from permits.errors import RulesBroken, Violation
from permits.legal_holidays import legal_holidays
from permits.roles import Role

CALENDAR_KEEPERS = (Role.CLERK,)  # the Clerk-Treasurer keeps the Village office's hours
SEED_YEARS_AHEAD = 5  # the yearly job keeps this year and the next five seeded


def closed_days(year: int) -> frozenset[date]:
    """The weekdays and weekend days the office is closed in `year` (kept until the data changes)."""

    def read() -> frozenset[date]:
        from permits.models import OfficeClosure

        rows = list(OfficeClosure.objects.filter(day__year=year).values_list("day", "closed"))
        return frozenset(d for d, closed in rows if closed) if rows else frozenset(legal_holidays(year))

    # A job asks it for thousands of days: within a second, this process's last reading (its own writes clear it).
    return list_cache.kept(f"office-closures:{year}", read, ttl=24 * 3600, local_seconds=1)


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
