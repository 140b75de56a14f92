"""What waits on the Village for street openings, for each role's start page (permits.workspace.sources)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.urls import reverse
from django.utils import timezone

from permits.models import Permit, PermitKind, Status
from permits.roles import Role
from permits.workspace.sources import WorkRow, WorkSource, numbered_row

OPEN = (Status.ISSUED, Status.ACTIVE)
INSURANCE_WARNING = timedelta(days=30)  # how far ahead the office is told of insurance running out (not a rule)
INSPECTORS = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)  # permits.street_opening.field.services.INSPECTORS


def insurance_warned_through(today: date) -> date:
    """§ 303-4G: insurance must run through the work; the office is shown what ends on or before this day (30 days
    on, counted from today) while the permit is approved, issued or under way."""
    return today + INSURANCE_WARNING


def is_bond_year_ending(today: date) -> bool:
    """§ 303-4H(5): an annual bond runs January 1 to December 31; from December 1 the office is shown the year's
    bonds to renew (a principal whose bond lapses cannot be issued a January permit)."""
    return today.month == 12


def _inspections_due(user, today: date):
    """Open street openings whose work was announced for today or earlier (§ 303-1C(3) notice) or whose permittee
    asked for the final inspection (§ 303-1C(8)), oldest first."""
    from permits.street_opening.field.models import PermitteeNotice
    from permits.street_opening.models import StreetOpening

    # "Announced for today or earlier": planned before the next local midnight (an instant the index can compare).
    next_midnight = timezone.make_aware(datetime.combine(today + timedelta(days=1), time.min))
    announced = PermitteeNotice.objects.filter(planned_work_at__lt=next_midnight).order_by().values("permit_id")
    asked = StreetOpening.objects.filter(completion_requested_at__isnull=False).order_by().values("permit_id")
    # One short id list, read from the two small indexes, rather than a join to every notice (which needed DISTINCT
    # and a scan of every open opening)
    return (
        Permit.objects.select_related("street")
        .filter(kind=PermitKind.STREET_OPENING, status__in=OPEN, pk__in=asked.union(announced))
        .order_by("street_opening__completion_requested_at", "number")
    )


def _inspection_row(permit) -> WorkRow:
    place = permit.street.name if permit.street_id else permit.location_description
    return WorkRow(
        f"{permit.number}: {place}", permit.issued_on, reverse("permits:field_permit", args=[permit.number]), "Inspect"
    )


def _renewals(user, today: date):
    from permits.street_opening.models import RenewalRequest

    return (
        RenewalRequest.objects.filter(state=RenewalRequest.State.PENDING)
        .select_related("street_opening__permit")
        .order_by("requested_at", "pk")
    )


def _renewal_row(request) -> WorkRow:
    return numbered_row(request.street_opening.permit, "renewal asked for", request.requested_at, "Decide")


def _insurance_expiring(user, today: date):
    """§ 303-4G: the permittee's insurance must run through the work; the office sees what ends within 30 days."""
    from permits.street_opening.models import StreetOpening

    return (
        StreetOpening.objects.filter(
            permit__status__in=(Status.APPROVED, *OPEN),
            insurance_expires__lte=insurance_warned_through(today),
        )
        .select_related("permit")
        .order_by("insurance_expires", "permit__number")
    )


def _insurance_row(so) -> WorkRow:
    return numbered_row(so.permit, f"insurance ends {so.insurance_expires:%b %-d, %Y}", so.insurance_expires)


def _bonds_ending(user, today: date):
    """§ 303-4H(5): an annual bond covers January 1 to December 31; in December the year's bonds are about to end."""
    from permits.street_opening.models import AnnualBond

    if not is_bond_year_ending(today):
        return AnnualBond.objects.none()
    return AnnualBond.objects.filter(year=today.year).select_related("organization", "principal_user").order_by("pk")


def _bond_row(bond) -> WorkRow:
    url = reverse("admin:permits_annualbond_change", args=[bond.pk])
    return WorkRow(str(bond), date(bond.year, 12, 31), url, "Open")


def _held(user, today: date):
    from permits.street_opening.lifecycle import held_approvals

    return held_approvals()


def _held_row(so) -> WorkRow:
    return numbered_row(
        so.permit, f"approval held until {so.approval_held_until:%b %-d, %Y}", so.approval_held_until, "Approve"
    )


WORK_SOURCES = (
    WorkSource(
        "Street opening inspections due (work announced for today or before, or completion asked for)",
        INSPECTORS,
        _inspections_due,
        _inspection_row,
        url_name="permits:field_inspections",
        citation="§ 303-1C(8)",
    ),
    WorkSource(
        "Street opening renewals asked for",
        (Role.CLERK, Role.DPW_DIRECTOR),
        _renewals,
        _renewal_row,
        citation="§ 303-4E",
    ),
    WorkSource(
        "Insurance ending within 30 days",
        (Role.CLERK, Role.DPW_DIRECTOR),
        _insurance_expiring,
        _insurance_row,
        citation="§ 303-4G",
    ),
    WorkSource(
        "Annual bonds ending December 31",
        (Role.CLERK,),
        _bonds_ending,
        _bond_row,
        citation="§ 303-4H(5)",
    ),
    WorkSource(
        "Street opening approvals held",
        (Role.DPW_DIRECTOR,),
        _held,
        _held_row,
        url_name="permits:street_opening_held_approvals",
        citation="§ 303-4D",
    ),
)
