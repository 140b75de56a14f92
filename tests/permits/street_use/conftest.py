"""A street use world: the 100 block of Henni Street (a segment holding 100 to 198) with ten parcels, each declaring two
adults on the petition (20 in all), a parcel on the next block, and a valid block-party application for a Friday 08:00
to Sunday 23:00."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from permits.roles import Role
from permits.street_use import services
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


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def roster(parcels):
    """The 20 adults the petition's ten addresses declare (two each), as (parcel, name): the Village keeps no register,
    so they exist only as declared on the petition (sign() declares them)."""
    return [(parcel, f"{first} Neighbour{i}") for i, parcel in enumerate(parcels) for first in ("Alex", "Jo")]


def declare_all(permit, clerk, adults: int = 2):
    """Every address along the portion declares `adults` residents over 18 (from the paper form)."""
    for address in services.addresses_of(permit.street_use):
        if address.adults_declared is None:
            services.declare_adults(permit=permit, address=address, adults=adults, by=clerk, source="the paper form")


def address_of(permit, parcel):
    return permit.street_use.addresses.get(parcel=parcel, unit="")


def paper_page(permit, clerk, circulator="Rita Anderson"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.upload_samples import PNG

    return services.upload_petition_page(
        permit=permit, upload=SimpleUploadedFile("page.png", PNG), circulator_name=circulator, sworn_on=TODAY, by=clerk
    )


def sign(permit, people, clerk):
    """Every address declared (two adults), and `people` consenting on one sworn paper page the clerk accepts."""
    declare_all(permit, clerk)
    page = paper_page(permit, clerk)
    for parcel, name in people:
        services.enter_paper_signature(
            page=page, by=clerk, signer_name=name, address=address_of(permit, parcel), signed_on=TODAY
        )
    if people:
        services.accept_petition_page(page=page, by=clerk)
    return page


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


def grant_and_issue(permit, roster, clerk, *, held_on=TODAY, issue=True, resolution=""):
    """The petition consented by 15 of the 20 declared and verified, a Board meeting with 5 present, the applicant
    present, a unanimous motion to grant, the fee paid and the permit issued (through the services, as the clerk)."""
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
