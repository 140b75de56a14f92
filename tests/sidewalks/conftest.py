"""Sidewalk fixtures: parcels of each land use and a permit at each step of its life."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile

from permits.models import Parcel
from permits.services import record_payment, upload_document
from sidewalks import services
from sidewalks.models import SidewalkPermit
from tests.factories import ParcelFactory, StreetFactory
from tests.upload_samples import PDF

TODAY = date(2026, 6, 1)


@pytest.fixture
def frozen():
    """Noon on TODAY with the clock standing still; the traveller, for a test that moves the clock on."""
    with time_machine.travel(at(TODAY, 12), tick=False) as traveller:
        yield traveller


@pytest.fixture
def elm(db):
    return StreetFactory(name="Elm Street")


@pytest.fixture
def home(elm):
    return ParcelFactory(
        tax_key="266-1116-0001",
        site_address="101 Elm Street",
        street=elm,
        owner_name="Olsen, Olga",
        owner_email="olga@example.com",
        owner_mailing_address="PO Box 9, Theresa, WI 53091",
    )


@pytest.fixture
def shop(elm):
    return ParcelFactory(
        tax_key="266-1116-2001",
        site_address="200 Elm Street",
        street=elm,
        land_use=Parcel.LandUse.COMMERCIAL,
        owner_name="Elm Street Hardware Inc",
    )


GOOD = dict(
    work="new",
    frontage_feet=Decimal("60"),
    width_feet=Decimal("4"),
    thickness_inches=Decimal("4"),
    driveway_length_feet=Decimal("12"),
    driveway_thickness_inches=Decimal("6"),
    material="concrete",
    concrete_psi=4000,
    sacks_per_cubic_yard=Decimal("6"),
    pour_date=TODAY + timedelta(days=5),
)


# What every application for the GOOD sidewalk at home posts, as the form and the API take it.
POSTED = {
    "parcel": "266-1116-0001",
    "work": "new",
    "frontage_feet": "60",
    "width_feet": "4",
    "thickness_inches": "4",
    "driveway_thickness_inches": "6",
    "material": "concrete",
}


@pytest.fixture
def good():
    return dict(GOOD)


def authorization():
    """The owner's written authorization an agent uploads with the application (§ 303-3C)."""
    return SimpleUploadedFile("authorization.pdf", PDF, content_type="application/pdf")


def stand(permit, clerk):
    """§ 303-3C: the clerk accepts the agent's standing on the owner's written authorization (uploaded here when the
    application did not carry one), so that a test of another rule can issue the permit."""
    detail = permit.sidewalk
    if detail.standing != "agent":
        SidewalkPermit.objects.filter(pk=detail.pk).update(standing="agent")
        detail.standing = "agent"
    document = permit.documents.first() or upload_document(
        permit=permit, kind="other", upload=authorization(), by=permit.applicant
    )
    services.accept_standing(permit=permit, by=clerk, document=document)
    return permit


@pytest.fixture
def submitted(contractor, contractor_org, home, clerk):
    """The contractor files as the owner's agent; the clerk accepted the owner's written authorization."""
    permit = services.apply_for_sidewalk_permit(
        applicant=contractor,
        organization=contractor_org,
        parcel=home,
        today=TODAY,
        standing="agent",
        authorization=authorization(),
        **GOOD,
    )
    return stand(permit, clerk)


@pytest.fixture
def issued(submitted, clerk):
    record_payment(permit=submitted, amount=submitted.fee_amount, method="cash", by=clerk)
    submitted.refresh_from_db()
    return services.issue_sidewalk_permit(permit=submitted, by=clerk, today=TODAY)


PASSING = {
    "subgrade": dict(grading_inches=Decimal("2"), subgrade_inches=Decimal("3"), subgrade_material="gravel"),
    "forms": dict(
        form_material="wood", form_thickness_inches=Decimal("1.5"), form_depth_inches=Decimal("4"), strip_inches=6
    ),
    "pour": dict(
        concrete_psi=4000,
        sacks_per_cubic_yard=Decimal("6"),
        forecast_low_f=Decimal("45"),
        air_temperature_f=Decimal("60"),
        subgrade_frozen=False,
        expansion_spacing_feet=Decimal("40"),
        expansion_at_property_lines=True,
        groove_spacing_feet=Decimal("5"),
        slope_inches_per_foot=Decimal("0.25"),
        sawn_joints=False,
        driveway_thickness_inches=Decimal("6"),
        subgrade_compacted=True,
        subgrade_moistened=True,
        meeting_joints="placed",
        diagonal_joints=False,
    ),
    "curing": dict(curing_method="wet_fabric"),
}


def order_illegal(parcel, by, **kw):
    """§ 303-3F: the DPW director's proposed order for 50 feet of 4-foot, 5-inch concrete walk, illegal off a home."""
    args = dict(
        parcel=parcel,
        frontage_feet=Decimal("50"),
        width_feet=Decimal("4"),
        thickness_inches=Decimal("5"),
        material="concrete",
        by=by,
        today=TODAY,
    )
    return services.order_illegal_sidewalk(**{**args, **kw})


def at(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=ZoneInfo("America/Chicago"))


def sidewalk_permit_on(parcel):
    """A sidewalk permit's record on `parcel`, without the filing (for tests of what refers to one)."""
    from permits.models import PermitKind
    from tests.factories import PermitFactory

    permit = PermitFactory(
        kind=PermitKind.SIDEWALK, number=f"SW-2026-{8000 + parcel.pk}", street=parcel.street, parcel=parcel
    )
    SidewalkPermit.objects.create(
        permit=permit,
        parcel=parcel,
        work="new",
        frontage_feet=Decimal("50"),
        width_feet=Decimal("4"),
        thickness_inches=Decimal("4"),
    )
    return permit


def cold_weather_request(clerk, parcel=None, *, reason="Water main break undermined the walk"):
    """§ 303-3D(9): a cold-weather waiver put to the Board for one emergency on one permit, with its last day."""
    from tests.factories import ParcelFactory

    parcel = parcel or ParcelFactory()
    return services.request_board_waiver(
        kind="cold_weather",
        parcel=parcel,
        reason=reason,
        permit=sidewalk_permit_on(parcel),
        ends_on=date(2026, 12, 31),
        by=clerk,
    )
