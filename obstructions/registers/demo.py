"""The demo village's registers: every demo street's grade, confirmed as established before the register
(§ 303-1A(1)), and the improvement requests the clerk received this year and last (§ 303-11). Safe to load twice."""

from __future__ import annotations

from datetime import date, datetime, time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from obstructions.registers import rules, services
from obstructions.registers.models import Grade, ImprovementRequest
from permits.models import Street

# The Village's grades predate the register: the resolution the clerk found in the minutes for each.
CONFIRMED_ON = date(1968, 6, 3)


@transaction.atomic
def load() -> None:
    clerk = get_user_model().objects.get(username="clerk")
    for street in Street.objects.filter(grades__isnull=True).order_by("name"):
        services.record_grade(
            street=street,
            way=Grade.Way.STREET,
            description=f"Centerline profile of {street}, Village grade book sheet {street.pk}, NGVD 29 datum",
            confirmed_resolution=f"1968-{street.pk:02d}",
            established_on=CONFIRMED_ON,
            by=clerk,
        )
    _village_contract(clerk)
    _terrace_approval(clerk)
    if ImprovementRequest.objects.exists():
        return
    year = timezone.localdate().year
    zone = rules.VILLAGE_TIME_ZONE
    for kind, location, petitioners, signatures, presented in (
        ("resurfacing", "Henni Street, 100 to 200 block", "Klein, Joan and 6 neighbors", 7, date(year, 3, 2)),
        ("sidewalk", "Schoolview Drive, north side", "Anderson, Mark & Linda", 2, date(year, 9, 15)),
        ("curb_and_gutter", "Cedar Court", "Braun, Eric and 3 neighbors", 4, date(year, 9, 16)),
    ):
        at = datetime.combine(presented, time(16, 30), tzinfo=zone)
        if at > timezone.now():
            at = datetime.combine(presented.replace(year=year - 1), time(16, 30), tzinfo=zone)
        services.receive_improvement_request(
            kind=kind,
            location=location,
            petitioners=petitioners,
            signatures=signatures,
            presented_at=at,
            street=Street.objects.filter(name=location.split(",")[0]).first(),
            by=clerk,
        )


def _village_contract(clerk) -> None:
    """§ 303-3C: this year's sidewalk contract the Village let, covering two parcels on the first demo street."""
    from permits import village_contracts
    from permits.models import Organization, Parcel, VillageContract

    if VillageContract.objects.exists():
        return
    year = timezone.localdate().year
    parcels = list(Parcel.objects.order_by("tax_key")[:2])
    if not parcels:
        return
    village_contracts.record_contract(
        number=f"VC-{year}-01",
        contractor="Brandt Excavating LLC",
        organization=Organization.objects.filter(name="Brandt Excavating LLC").first(),
        work="Sidewalk replacement where the Village's survey found it broken",
        parcels=parcels,
        starts_on=date(year, 1, 1),
        ends_on=date(year, 12, 31),
        by=clerk,
    )


def _terrace_approval(clerk) -> None:
    """§ 303-9B: the demo Board's approval of a paved terrace area (permits.board.demo's motion), in the register."""
    from obstructions.registers.models import TerraceApproval
    from permits.board.models import Motion
    from permits.models import Parcel

    motion = Motion.objects.filter(item__clause="303-9", outcome=Motion.Outcome.CARRIED).first()
    parcel = Parcel.objects.filter(site_address__startswith="201 Main").first() or Parcel.objects.first()
    if motion is None or parcel is None or TerraceApproval.objects.exists():
        return
    services.record_terrace_approval(
        parcel=parcel, area="Between the walk and the curb, paved for a bicycle rack", by=clerk, motion=motion
    )
