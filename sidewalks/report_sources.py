"""What the sidewalks app brings to the office reports (permits.reports.queries): its open cases and orders, and the
sidewalk permits' inspections."""

from __future__ import annotations

from datetime import date, datetime

from django.db.models import Q, QuerySet

from permits.reports.queries import InspectionSource, grouped_by_age, grouped_by_month
from sidewalks.models import RubbishCase, SidewalkInspection, SidewalkOrder, SnowCase


def open_snow_cases(today: date) -> QuerySet:
    """§ 303-8: walks reported uncleared that nobody has cleared or dismissed yet, by days since the report."""
    return grouped_by_age(
        SnowCase.objects.filter(status=SnowCase.Status.OPEN),
        "Snow and ice cases (§ 303-8)",
        "reported_at",
        today,
        instant=True,
    )


def open_rubbish_cases(today: date) -> QuerySet:
    """§ 303-2: rubbish or dirt noticed and not yet removed, by days since the notice was served."""
    return grouped_by_age(
        RubbishCase.objects.filter(status=RubbishCase.Status.NOTICED),
        "Rubbish and dirt cases (§ 303-2)",
        "served_at",
        today,
        instant=True,
    )


def open_sidewalk_orders(today: date) -> QuerySet:
    """§ 303-3: Board sidewalk orders not yet done, charged or withdrawn, by days since the order was proposed, with
    their estimated cost."""
    closed = [SidewalkOrder.Status.OWNER_DONE, SidewalkOrder.Status.CHARGED, SidewalkOrder.Status.WITHDRAWN]
    return grouped_by_age(
        SidewalkOrder.objects.exclude(status__in=closed),
        "Sidewalk orders (§ 303-3)",
        "created_at",
        today,
        instant=True,
        amount="estimated_cost",
    )


def sidewalk_inspections(start: datetime, end: datetime) -> QuerySet:
    """Sidewalk inspections by stage (§ 303-3)."""
    return grouped_by_month(
        SidewalkInspection.objects.filter(inspected_at__gte=start, inspected_at__lt=end),
        "sidewalk",
        what="stage",
        at="inspected_at",
        passed=Q(result="passed"),
        failed=Q(result="failed"),
    )


OPEN_CASES = (open_snow_cases, open_rubbish_cases, open_sidewalk_orders)
INSPECTIONS = (InspectionSource("sidewalk", sidewalk_inspections, lambda: dict(SidewalkInspection.Stage.choices)),)
