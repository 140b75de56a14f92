"""What waits on the Village for sidewalks (§ 303-3) and rubbish (§ 303-2), for each role's start page
(permits.workspace.sources)."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from permits.models import Status
from permits.roles import Role
from permits.workspace.sources import WorkRow, WorkSource, numbered_row
from sidewalks.services import INSPECTING_ROLES


def _sidewalk_inspections_due(user, today: date):
    """§ 303-3D: issued sidewalk work whose planned pour is today or past, soonest first."""
    from sidewalks.models import SidewalkPermit

    return (
        SidewalkPermit.objects.filter(permit__status__in=[Status.ISSUED, Status.ACTIVE], pour_date__lte=today)
        .select_related("permit", "parcel")
        .order_by("pour_date", "permit__number")
    )


def _sidewalk_row(sidewalk) -> WorkRow:
    return numbered_row(sidewalk.permit, sidewalk.parcel.site_address, sidewalk.pour_date, "Inspect")


def _open_snow_cases(user, today: date):
    """§ 303-8A: reported walks not yet cleared or dismissed, oldest report first."""
    from sidewalks.models import SnowCase

    return SnowCase.objects.filter(status=SnowCase.Status.OPEN).order_by("reported_at", "pk")


def _snow_row(case) -> WorkRow:
    return numbered_row(case, case.reported_address, case.reported_at)


def _rubbish_past_deadline(user, today: date):
    """§ 303-2: the notice's deadline passed and the rubbish is not recorded as removed."""
    from sidewalks.models import RubbishCase

    return (
        RubbishCase.objects.filter(status=RubbishCase.Status.NOTICED, deadline_at__lt=timezone.now())
        .select_related("parcel")
        .order_by("deadline_at", "pk")
    )


def _rubbish_row(case) -> WorkRow:
    return WorkRow(str(case), case.deadline_at, case.get_absolute_url(), "Open")


WORK_SOURCES = (
    WorkSource(
        "Sidewalk inspections due",
        INSPECTING_ROLES,
        _sidewalk_inspections_due,
        _sidewalk_row,
        url_name="sidewalks:to_inspect",
        citation="§ 303-3D",
    ),
    # § 303-8 gives the duties on a snow case to the owner and the Village's crew (the DPW); it names no police
    # power, so the Chief of Police has no step on one and the cases are not on the Chief's start page.
    WorkSource(
        "Snow and ice cases open",
        (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR),
        _open_snow_cases,
        _snow_row,
        url_name="sidewalks:snow",
        citation="§ 303-8A",
    ),
    WorkSource(
        "Rubbish cases past their deadline",
        (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.CLERK),
        _rubbish_past_deadline,
        _rubbish_row,
        url_name="sidewalks:rubbish_cases",
        citation="§ 303-2",
    ),
)
