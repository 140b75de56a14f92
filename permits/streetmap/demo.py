"""Demo geometry: the demo village's twelve streets as a plausible grid around Theresa, Wisconsin (43.517 N,
88.452 W), cut into segments at their cross streets with address ranges that hold the demo parcels; then what the
public map shows this week on Highland Avenue (an issued street opening, one under review, and a street use
closure the DPW sees at review). Safe to load twice."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits import kinds, services
from permits.models import Permit, PermitKind, Status, Street
from permits.streetmap.models import StreetSegment
from permits.streetmap.services import recompute_adjoining
from permits.workflow import transition

# North-south streets (longitude) and east-west streets (latitude), from west to east and south to north.
NORTH_SOUTH = [
    ("Rock River Road", -88.4610),
    ("Mill Street", -88.4550),
    ("Milwaukee Street", -88.4520),
    ("Main Street", -88.4490),
]
EAST_WEST = [
    ("Church Street", 43.5110),
    ("Maple Lane", 43.5125),
    ("Theresa Lane", 43.5140),
    ("Highland Avenue", 43.5155),
    ("Henni Street", 43.5170),
    ("Juneau Street", 43.5185),
    ("Schoolview Drive", 43.5200),
]
# A short court north of Schoolview Drive between Milwaukee and Main.
CEDAR_COURT = ("Cedar Court", [[-88.4505, 43.5200], [-88.4505, 43.5212]])
# Numbers along each street: 100 at its west or south end, 100 more per block (the demo parcels are 102 to 144 on
# residential streets, 200 to 236 on Milwaukee and Main Street).
BLOCK = 100


def _segments():
    rows = []
    lons = [lon for _name, lon in NORTH_SOUTH]
    lats = [lat for _name, lat in EAST_WEST]
    for name, lat in EAST_WEST:
        for i in range(len(lons) - 1):
            rows.append((name, NORTH_SOUTH[i][0], NORTH_SOUTH[i + 1][0], [[lons[i], lat], [lons[i + 1], lat]], i))
    for name, lon in NORTH_SOUTH:
        for i in range(len(lats) - 1):
            rows.append((name, EAST_WEST[i][0], EAST_WEST[i + 1][0], [[lon, lats[i]], [lon, lats[i + 1]]], i))
    rows.append((CEDAR_COURT[0], "Schoolview Drive", "", CEDAR_COURT[1], 0))
    return rows


def _first_block(street: str) -> int:
    # The demo's commercial parcels are numbered from 200 on Milwaukee and Main Street.
    return 1 if street in ("Milwaukee Street", "Main Street") else 0


@transaction.atomic
def load_segments() -> int:
    streets = {s.name: s for s in Street.objects.all()}
    made = 0
    for name, start, end, coordinates, block in _segments():
        if name not in streets:
            continue
        number = (block + 1 + _first_block(name)) * BLOCK
        _, created = StreetSegment.objects.update_or_create(
            source_id=f"demo-{name}-{block}".lower().replace(" ", "-"),
            defaults={
                "street": streets[name],
                "from_street": start,
                "to_street": end,
                "address_from": number,
                "address_to": number + BLOCK - 1,
                "geometry": {"type": "LineString", "coordinates": coordinates},
            },
        )
        made += created
    recompute_adjoining()
    return made


@transaction.atomic
def load_highland_week() -> list[str]:
    """A block party closure on Highland Avenue (a street use permit recorded at the office): the DPW sees it while
    reviewing the street opening there (permits/street_opening/street_map_demo.py loads those)."""
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=["clerk", "resident"])}
    highland = Street.objects.filter(name="Highland Avenue").first()
    if len(users) < 2 or highland is None:
        return []
    today = timezone.localdate()
    made = []
    location = "Highland Avenue, 100 block (block party)"
    # Once street use permits are online (permits.kinds), their own demo files this party through its petition and
    # the Board (§ 303-15); the office record below is for the registry without them.
    online = kinds.get_type(PermitKind.STREET_USE).blockers is not None
    if not online and not Permit.objects.filter(kind=PermitKind.STREET_USE, location_description=location).exists():
        party = services.create_permit(
            kind=PermitKind.STREET_USE,
            applicant=users["resident"],
            today=today,
            street=highland,
            location_description=location,
            work_description="Neighbourhood block party: street closed to traffic",
            start_date=today + timedelta(days=2),
            end_date=today + timedelta(days=2),
        )
        transition(party, Status.SUBMITTED, by=users["resident"])
        transition(party, Status.UNDER_REVIEW, by=users["clerk"])
        transition(party, Status.APPROVED, by=users["clerk"], reason="Recorded at the Village office (§ 303-15)")
        made.append(party.number)
    return made


def load() -> dict:
    return {"segments": load_segments(), "highland": load_highland_week()}


# manage.py load_demo (permits.kinds.demo_loaders): street segments and this week on Highland Avenue, after the
# permit types.
DEMO_LOADERS = (load,)
