"""Demo data of the enforcement cases: a merchant's bench that passes § 303-6C and one that does not, a served sidewalk
obstruction waiting out its 24 hours, one the Village removed and billed, a street-number neglect case, a few
official numbers, and the Building Inspector's authorization of building materials for two weeks (§ 303-6B(2)).
Idempotent: a second load finds its first case and stops."""

from __future__ import annotations

from datetime import timedelta
from decimal import ROUND_DOWN, Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from obstructions import materials, services
from obstructions.models import Case, StreetNumber
from permits.models import Parcel
from permits.time import hours_later

DEMO_WHAT = "Demo: sandwich-board sign and a bench on the sidewalk"


@transaction.atomic
def load() -> None:
    if Case.objects.filter(what=DEMO_WHAT).exists():
        return
    User = get_user_model()
    dpw, inspector, clerk = (User.objects.get(username=u) for u in ("dpw", "inspector", "clerk"))
    now = timezone.now()
    shops = list(Parcel.objects.filter(tax_key__startswith="266-1116-2", land_use="commercial").order_by("tax_key"))
    houses = list(Parcel.objects.filter(tax_key__startswith="266-1116-1").order_by("tax_key"))
    if len(shops) < 2 or len(houses) < 4:
        return
    seen = now - timedelta(days=3)
    # § 303-6C(3): 2.9 ft left is a violation; 3.0 ft is not (recorded and closed).
    services.open_case(
        kind=Case.Kind.OBSTRUCTION_SIDEWALK,
        address=shops[0].site_address,
        what=DEMO_WHAT,
        seen_at=seen,
        by=inspector,
        is_fixture=True,
        clear_width_feet="2.9",
        where="In front of the main entrance",
    )
    services.open_case(
        kind=Case.Kind.OBSTRUCTION_SIDEWALK,
        address=shops[1].site_address,
        what="Demo: bench by the window",
        seen_at=seen,
        by=inspector,
        is_fixture=True,
        clear_width_feet="3.0",
    )
    # Served an hour ago: the Village may remove it 24 hours after.
    waiting = services.open_case(
        kind=Case.Kind.OBSTRUCTION_STREET,
        address=houses[1].site_address,
        what="Demo: boat trailer parked in the alley",
        seen_at=now - timedelta(hours=2),
        by=dpw,
    )
    services.serve_notice(
        case=waiting, served_to="owner", served_how="personal", served_at=now - timedelta(hours=1), by=dpw
    )
    # Served three days ago, not removed: the Village removed it and billed the owner (§ 303-6F(1)).
    removed = services.open_case(
        kind=Case.Kind.OBSTRUCTION_SIDEWALK,
        address=houses[2].site_address,
        what="Demo: pallets of bricks",
        seen_at=seen,
        by=inspector,
    )
    # The 24 hours are counted hours (§ 990.001(4)(a), permits.time): a Sunday between does not count.
    served_at = seen + timedelta(minutes=30)
    services.serve_notice(case=removed, served_to="occupant", served_how="posted", served_at=served_at, by=inspector)
    services.record_removal(
        case=removed,
        removed_at=min(hours_later(served_at, 25), now),
        cost="185.00",
        description="Pallets of bricks hauled to the DPW yard",
        by=inspector,
    )
    # § 303-14C: neglect first recorded 25 days ago: the notice may be served now.
    services.open_case(
        kind=Case.Kind.STREET_NUMBER,
        address=houses[3].site_address,
        what="Demo: no street number on the house",
        seen_at=now - timedelta(days=25),
        by=clerk,
        neglect_recorded_on=timezone.localdate() - timedelta(days=25),
    )
    services.flag_street_number_timers()
    _authorize_materials(houses[0], by=User.objects.filter(username="building").first())
    for parcel in houses[:3]:
        if not StreetNumber.objects.filter(parcel=parcel).exists():
            number = int(parcel.site_address.split()[0]) if parcel.site_address.split()[0].isdigit() else None
            if number:
                services.assign_street_number(parcel=parcel, number=number, map_reference="Sheet 1", by=clerk)


def _authorize_materials(parcel, *, by) -> None:
    """§ 303-6B(2): lumber for a garage at the curb for two weeks from today, within the street register's limits
    (half of its sidewalk, if it has one; 3 ft of the traveled street)."""
    if by is None or parcel.street.traveled_width_feet is None:
        return
    today = timezone.localdate()
    sidewalk = parcel.street.sidewalk_width_feet
    materials.authorize_materials(
        by=by,
        parcel=parcel,
        location_description="Demo: lumber for a garage, at the curb in front of the house",
        starts_on=today,
        ends_on=today + timedelta(days=13),
        occupied_street_feet=Decimal("3.0"),
        occupied_sidewalk_feet=(sidewalk / 2).quantize(Decimal("0.1"), ROUND_DOWN) if sidewalk else Decimal("0"),
        gutter_kept_flowing=True,
        building_permit_number="B-DEMO-7",
    )


# manage.py load_demo (permits.kinds.demo_loaders): enforcement cases and street numbers (§§ 303-6 to 303-14).
DEMO_LOADERS = (load,)
