"""What street opening permits bring to the office reports (permits.reports.queries): their field inspections."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

from permits.reports.queries import InspectionSource, grouped_by_month
from permits.street_opening.field.models import Inspection


def street_opening_inspections(start: datetime, end: datetime) -> QuerySet:
    """Street opening inspections by kind (§ 303-5)."""
    return grouped_by_month(
        Inspection.objects.filter(at__gte=start, at__lt=end),
        "street_opening",
        what="kind",
        at="at",
        passed=Q(result="pass"),
        failed=Q(result="fail"),
    )


INSPECTIONS = (InspectionSource("street_opening", street_opening_inspections, lambda: dict(Inspection.Kind.choices)),)
