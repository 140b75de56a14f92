"""Shared arrangements for street opening tests: a frozen spring Monday and a valid application."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine

from permits.models import Organization
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.models import AnnualBond, EmergencyReport, StreetImprovement
from tests.factories import StreetFactory
from tests.upload_samples import PDF

CHICAGO = ZoneInfo("America/Chicago")
TODAY = date(2026, 5, 4)  # a Monday, outside the frozen-ground season
REPORTED = datetime(2026, 4, 30, 9, tzinfo=CHICAGO)  # an emergency reported the Thursday before


@pytest.fixture
def spring():
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO), tick=False) as traveller:
        yield traveller


@pytest.fixture
def street(db):
    return StreetFactory(name="Henni Street")


def valid_data(street, **overrides) -> dict:
    return {
        "street": street,
        "location_description": "In front of 118 Henni Street",
        "work_description": "New sewer lateral",
        "method": "Open cut, saw-cut edges",
        "start_date": date(2026, 5, 11),
        "end_date": date(2026, 5, 13),
        "surface": "bituminous",
        "existing_pavement_inches": Decimal(3),
        "emergency": False,
        "utility_interruption": True,
        "insurance_per_person": Decimal(500000),
        "insurance_per_accident": Decimal(500000),
        "insurance_property_damage": Decimal(500000),
        "insurance_expires": date(2027, 5, 1),
        "annual_bond": True,
        "statement_signed_by": "Carl Brandt",
        "statement_undertakings": list(ordinance.UNDERTAKINGS),
        "diggers_hotline_ticket": "20261234567",
        "diggers_hotline_requested_at": datetime(2026, 5, 4, 9, 0, tzinfo=CHICAGO),
        **overrides,
    }


@pytest.fixture
def contractor_owns_a_utility(contractor_org):
    """§ 303-5H: the Clerk-Treasurer recorded that the organization owns sewer and water mains in Village streets."""
    contractor_org.utility_facilities = [Organization.Facility.SEWER, Organization.Facility.WATER_MAIN]
    contractor_org.save(update_fields=["utility_facilities"])
    return contractor_org


@pytest.fixture
def bond(contractor_org, clerk, board_bond_amounts):
    """The contractor's annual bond, with the Board's bond amounts in force (§ 303-4H(5): it counts only then)."""
    return annual_bond(contractor_org, clerk)


def annual_bond(organization, clerk, **fields) -> AnnualBond:
    """The organization's annual bond for 2026 (§ 303-4D), recorded by the clerk; a person's own with
    organization=None and principal_user=, a smaller one with amount=."""
    values = dict(
        organization=organization,
        year=2026,
        surety="Badger Surety",
        amount=25000,
        recorded_by=clerk,
        recorded_at=datetime(2026, 1, 5, tzinfo=CHICAGO),
    )
    return AnnualBond.objects.create(**{**values, **fields})


@pytest.fixture
def fees(db):
    """The placeholder fees of migration 0003, which an earlier transactional test's flush may have removed."""
    from permits.models import FeeItem
    from tests.factories import FeeItemFactory

    for code, amount in (("street_opening", "50.00"), ("street_opening_renewal", "25.00")):
        if not FeeItem.objects.filter(code=code).exists():
            FeeItemFactory(code=code, name=code, amount=Decimal(amount))


def street_improvement(street, clerk, *, decided_on, work_begins_on, repaved_on=None) -> StreetImprovement:
    """§ 303-5I: the Board's improvement of the street, recorded by the clerk the day it was decided."""
    return StreetImprovement.objects.create(
        street=street,
        description="Mill and overlay",
        decided_on=decided_on,
        work_begins_on=work_begins_on,
        repaved_on=repaved_on,
        recorded_by=clerk,
        recorded_at=datetime(decided_on.year, decided_on.month, decided_on.day, tzinfo=CHICAGO),
    )


def repaved_in_2023(street, clerk) -> StreetImprovement:
    """Repaved June 15, 2023: inside the five-year moratorium (§ 303-5I) all through 2026."""
    return street_improvement(
        street, clerk, decided_on=date(2023, 4, 1), work_begins_on=date(2023, 6, 1), repaved_on=date(2023, 6, 15)
    )


def file_certificate(permit, by):
    """§ 303-4G: the certificate of insurance, uploaded on the permit page."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from permits import services

    services.upload_document(
        permit=permit,
        kind="insurance",
        by=by,
        upload=SimpleUploadedFile("coi.pdf", PDF, content_type="application/pdf"),
    )


DECEMBER_1 = datetime(2026, 12, 1, 10, 0, tzinfo=CHICAGO)  # the frozen-ground season (§ 303-5A)


def file_december_emergency(street, contractor, contractor_org):
    """A utility's emergency opening begun and filed on December 1, 2026, with its insurance certificate (§ 303-5H);
    called while the clock stands at DECEMBER_1."""
    data = valid_data(
        street,
        emergency=True,
        emergency_began_on=date(2026, 12, 1),
        start_date=date(2026, 12, 1),
        end_date=date(2026, 12, 3),
        diggers_hotline_requested_at=datetime(2026, 12, 1, 7, 0, tzinfo=CHICAGO),
    )
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    file_certificate(permit, contractor)
    return permit


@pytest.fixture
def application(spring, street, contractor, contractor_org, bond):
    """A submitted application of the contractor's company, its certificate of insurance uploaded."""
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    file_certificate(permit, contractor)
    return permit


@pytest.fixture
def under_review(application, clerk):
    return so.begin_review(permit=application, by=clerk)


@pytest.fixture
def approved(under_review, dpw_director):
    return so.approve_street_opening(permit=under_review, by=dpw_director, conditions="One lane open each way")


@pytest.fixture
def issued(approved, clerk):
    from permits import services

    services.record_payment(permit=approved, amount=approved.balance_due, method="cash", by=clerk)
    approved.refresh_from_db()
    return so.issue_street_opening(permit=approved, by=clerk)


def other_org_permit(street, user_factory_name="rival"):
    """A permit of another company, for 'cannot see it' tests."""
    from permits.models import Membership
    from tests.factories import UserFactory

    rival = UserFactory(username=user_factory_name)
    org = Organization.objects.create(name="Rival Digging Inc", kind=Organization.Kind.CONTRACTOR)
    Membership.objects.create(user=rival, organization=org, is_manager=True)
    annual_bond(org, rival, surety="S", amount=25000)
    return so.apply_for_street_opening(
        applicant=rival, organization=org, data=valid_data(street, location_description="Rival's trench")
    )


def complete_work(permit, *, permittee, inspector=None, today=None):
    """§ 303-4H(3), § 303-1C(8): the permittee requests completion, a DPW inspector passes the final inspection of the
    restored surface and confirms it. Returns the guarantee."""
    from permits.roles import Role
    from permits.street_opening import lifecycle
    from permits.street_opening.field import services as field_work
    from tests.conftest import staff_user

    if inspector is None:
        from django.contrib.auth import get_user_model

        inspector = get_user_model().objects.filter(groups__name=Role.DPW_INSPECTOR.value).first() or staff_user(
            "final-inspector", Role.DPW_INSPECTOR
        )
    lifecycle.request_completion(permit=permit, by=permittee, today=today)
    field_work.log_inspection(permit=permit, kind="final", by=inspector, values={"surface_restored": True}, today=today)
    permit.refresh_from_db()
    return lifecycle.confirm_completion(permit=permit, by=inspector, today=today)


def emergency(street, clerk, *, began_on=date(2026, 4, 30), **fields):
    """§ 303-5H: an emergency opening the clerk recorded as reported, with no application filed for it (yet)."""
    return EmergencyReport.objects.create(
        reported_by_name="Uma",
        street=street,
        location_description="In front of 12 Main Street",
        began_on=began_on,
        reported_at=REPORTED,
        recorded_by=clerk,
        **fields,
    )
