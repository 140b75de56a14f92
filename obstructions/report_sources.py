"""What the enforcement cases bring to the office reports (permits.reports.queries)."""

from __future__ import annotations

from datetime import date

from django.db.models import QuerySet

from obstructions.models import Case
from permits.reports.queries import grouped_by_age


def open_enforcement_cases(today: date) -> QuerySet:
    """§ 303-6, 9, 12, 13, 14: enforcement cases not yet closed (open or noticed), by days since opened."""
    return grouped_by_age(
        Case.objects.filter(status__in=["open", "noticed"]),
        "Enforcement cases (§ 303-6, 9, 12, 13, 14)",
        "opened_at",
        today,
        instant=True,
    )


OPEN_CASES = (open_enforcement_cases,)
