"""A street use world: the 100 block of Henni Street (a segment holding 100 to 198) with ten parcels and two adults
registered on each (a roster of 20), a child at 102, a parcel on the next block, and a valid block-party application
for a Friday 08:00 to Sunday 23:00."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from permits.roles import Role
from permits.street_use import services
from permits.street_use.models import RegisteredResident
from permits.streetmap.models import StreetSegment
from tests.conftest import staff_user
from tests.factories import ParcelFactory, StreetFactory

CHICAGO = ZoneInfo("America/Chicago")
TODAY = date(2026, 5, 4)  # a Monday
FRIDAY = date(2026, 5, 15)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CHICAGO)


@pytest.fixture
def police_officer(db):
    """A sworn officer of the Village police, not the Chief (§ 303-15H: "a law enforcement officer")."""
    return staff_user("officer", Role.POLICE_OFFICER)


@pytest.fixture
def spring():
    with time_machine.travel(at(TODAY, 10), tick=False) as traveller:
        yield traveller


@pytest.fixture
def street(db):
    return StreetFactory(name="Henni Street")


@pytest.fixture
def segment(street):
    line = {"type": "LineString", "coordinates": [[-88.461, 43.517], [-88.455, 43.517]]}
    return StreetSegment.objects.create(
        street=street,
        from_street="Rock River Road",
        to_street="Mill Street",
        address_from=100,
        address_to=198,
        geometry=line,
    )


@pytest.fixture
def parcels(street):
    return [
        ParcelFactory(tax_key=f"266-1116-{1000 + i}", site_address=f"{102 + 4 * i} Henni Street", street=street)
        for i in range(10)
    ]


@pytest.fixture
def next_block_parcel(street):
    return ParcelFactory(tax_key="266-1116-2000", site_address="210 Henni Street", street=street)


@pytest.fixture
def roster(parcels, clerk):
    """20 adults: one with a birth date, one attested 18 or over, on each parcel; and a 12-year-old at 102."""
    people = []
    for i, parcel in enumerate(parcels):
        people.append(
            RegisteredResident.objects.create(
                parcel=parcel, name=f"Alex Neighbour{i}", birth_date=date(1980, 1, 1), recorded_by=clerk
            )
        )
        people.append(
            RegisteredResident.objects.create(
                parcel=parcel,
                name=f"Jo Neighbour{i}",
                attested_adult=True,
                email=f"jo{i}@example.com",
                recorded_by=clerk,
            )
        )
    RegisteredResident.objects.create(
        parcel=parcels[0], name="Sam Minor", birth_date=date(2014, 6, 1), recorded_by=clerk
    )
    return people


def valid_data(street, segment=None, **overrides) -> dict:
    data = {
        "applicant_name": "Rita Anderson",
        "applicant_address": "102 Henni Street",
        "applicant_phone": "920-555-0110",
        "organization_name": "",
        "organization_address": "",
        "organization_phone": "",
        "organization_heads": "",
        "responsible_name": "Rita Anderson",
        "responsible_address": "102 Henni Street",
        "responsible_phone": "920-555-0110",
        "starts_at": at(FRIDAY, 8),
        "ends_at": at(FRIDAY.replace(day=17), 23),
        "street": street,
        "portion_description": "Henni Street, Rock River Road to Mill Street",
        "expected_attendance": 60,
        "proposed_use": "A block party: grills, tables and music until 9 p.m.",
        "chapter_245_permit": "",
        "segments": [segment] if segment else [],
    }
    return data | overrides


@pytest.fixture
def application(spring, street, segment, roster, resident):
    return services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))


def sign(permit, residents, clerk):
    for r in residents:
        services.enter_paper_signature(
            permit=permit, by=clerk, signer_name=r.name, parcel=r.parcel, resident=r, signed_on=TODAY
        )


def grant_and_issue(permit, roster, clerk, *, held_on=TODAY, issue=True, resolution=""):
    """The petition signed by 15 of 20 and verified, a Board meeting with 5 present, the applicant present, a
    unanimous motion to grant, the fee paid and the permit issued (through the services, as the clerk)."""
    from decimal import Decimal

    from permits import services as core
    from permits.board import services as board
    from permits.board.models import Vote
    from tests.board_world import seat_members

    sign(permit, roster[:15], clerk)
    services.verify_petition(permit=permit, by=clerk)
    terms = seat_members()[:5]
    meeting = board.schedule_meeting(held_on=held_on, by=clerk)
    board.record_attendance(meeting=meeting, present=terms, by=clerk)
    item = services.place_on_agenda(permit=permit, meeting=meeting, by=clerk)
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    motion = board.record_motion(
        item=item, text="To grant", votes={t: Vote.Choice.AYE for t in terms}, resolution_number=resolution, by=clerk
    )
    services.decide_street_use(permit=permit, motion=motion, by=clerk, grant=True, conditions="Fire lane open")
    if issue:
        core.record_payment(permit=permit, amount=Decimal(permit.fee_amount), method="cash", by=clerk)
        services.issue_street_use(permit=permit, by=clerk)
    permit.refresh_from_db()
    return permit
