"""A small street grid and permits placed on it: Highland Avenue in two blocks crossing Milwaukee Street, and a
far street that touches neither."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine

from permits.models import Permit, PermitKind, Status
from permits.street_opening.models import StreetOpening
from permits.streetmap.models import StreetSegment
from permits.streetmap.services import recompute_adjoining
from tests.factories import PermitFactory, StreetFactory, UserFactory

CHICAGO = ZoneInfo("America/Chicago")
TODAY = date(2026, 5, 4)  # a Monday


@pytest.fixture
def monday():
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO), tick=False) as traveller:
        yield traveller


def segment(street, start, end, coordinates, low=None, high=None):
    return StreetSegment.objects.create(
        street=street,
        from_street=start,
        to_street=end,
        address_from=low,
        address_to=high,
        geometry={"type": "LineString", "coordinates": coordinates},
    )


@pytest.fixture
def grid(db):
    highland = StreetFactory(name="Highland Avenue")
    milwaukee = StreetFactory(name="Milwaukee Street")
    far = StreetFactory(name="Far Road")
    rows = {
        "highland_west": segment(
            highland, "Church Street", "Milwaukee Street", [[-88.455, 43.5155], [-88.452, 43.5155]], 100, 199
        ),
        "highland_east": segment(
            highland, "Milwaukee Street", "Main Street", [[-88.452, 43.5155], [-88.449, 43.5155]], 200, 299
        ),
        "milwaukee_south": segment(
            milwaukee, "Theresa Lane", "Highland Avenue", [[-88.452, 43.514], [-88.452, 43.5155]], 100, 199
        ),
        "far_segment": segment(far, "North End", "South End", [[-88.40, 43.60], [-88.40, 43.61]], 100, 199),
    }
    recompute_adjoining()
    return {"highland": highland, "milwaukee": milwaukee, "far": far, **rows}


def set_status(permit: Permit, status: str) -> Permit:
    """Arrangement only: put a permit straight into a status (the workflow is tested elsewhere)."""
    Permit.objects.filter(pk=permit.pk).update(status=status)
    permit.refresh_from_db()
    return permit


def opening(
    street,
    *,
    status=Status.ISSUED,
    start=TODAY,
    end=None,
    location="In front of 250 Highland Avenue",
    organization=None,
    applicant=None,
    lanes=1,
    traffic="none",
    surface="bituminous",
    point=None,
):
    permit = PermitFactory(
        kind=PermitKind.STREET_OPENING,
        street=street,
        location_description=location,
        start_date=start,
        end_date=end,
        organization=organization,
        applicant=applicant
        or UserFactory(first_name="Rita", last_name="Privatename", email="rita.private@example.com"),
        work_description="Sewer lateral",
    )
    StreetOpening.objects.create(
        permit=permit,
        method="Open cut",
        surface=surface,
        insurance_per_person=Decimal(500000),
        insurance_per_accident=Decimal(500000),
        insurance_property_damage=Decimal(500000),
        insurance_expires=date(2027, 5, 1),
        statement_signed_by="Carl Brandt",
        statement_signed_at=datetime(2026, 4, 1, 9, 0, tzinfo=CHICAGO),
        lanes_open_each_way=lanes,
        traffic_control=traffic,
        map_longitude=Decimal(str(point[0])) if point else None,
        map_latitude=Decimal(str(point[1])) if point else None,
    )
    return set_status(permit, status)


def street_use(street, *, status=Status.APPROVED, start=TODAY, end=TODAY, location="Highland Avenue, 200 block"):
    permit = PermitFactory(
        kind=PermitKind.STREET_USE,
        number=f"SU-2026-{Permit.objects.count() + 1:04d}",
        street=street,
        location_description=location,
        start_date=start,
        end_date=end,
    )
    return set_status(permit, status)
