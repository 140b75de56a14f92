"""An issued street opening, made through the core workflow, for the field tests."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from permits import workflow
from permits.models import Permit, Status
from permits.street_opening import rules
from permits.street_opening.field import services as field_work
from permits.street_opening.models import StreetOpening
from tests.factories import PermitFactory

ISSUED_ON = datetime.date(2026, 6, 1)


def issue(permit, *, on=ISSUED_ON):
    """Arrangement: submitted and reviewed through the workflow, then put in the issued state as approval and issue
    would leave it (dates, § 303-4D validity). Approval's and issue's own rules are tested in tests/permits/
    street_opening/; these tests start where the field work starts."""
    for status in (Status.SUBMITTED, Status.UNDER_REVIEW):
        workflow.transition(permit, status, by=None, today=on)
    changes = {"status": Status.ISSUED, "approved_on": on, "issued_on": on, "expires_on": rules.expiry_date(on)}
    Permit.objects.filter(pk=permit.pk).update(**changes)
    permit.refresh_from_db()
    return permit


def record_defect(permit, by, **kw):
    """A § 303-4H(4) defect notice to the permittee: a settled patch to mill and overlay, served 3/1/2027, due 4/1."""
    args = dict(
        permit=permit,
        by=by,
        defect="Patch settled 1 inch",
        work_to_be_done="Mill and overlay",
        estimated_cost=Decimal("1200.00"),
        deadline=datetime.date(2027, 4, 1),
        addressed_to="permittee",
        served_on=datetime.date(2027, 3, 1),
    )
    return field_work.record_defect_notice(**{**args, **kw})


def add_detail(permit, **overrides):
    fields = dict(
        method="Open cut",
        surface="bituminous",
        existing_pavement_inches=Decimal("3"),
        insurance_per_person=Decimal("500000"),
        insurance_per_accident=Decimal("500000"),
        insurance_property_damage=Decimal("500000"),
        insurance_expires=datetime.date(2027, 12, 31),
        statement_signed_by="Carl Brandt",
        statement_signed_at=timezone.now(),
    )
    fields.update(overrides)
    return StreetOpening.objects.create(permit=permit, **fields)


@pytest.fixture
def issued_permit(contractor, contractor_org):
    permit = PermitFactory(applicant=contractor, organization=contractor_org)
    add_detail(permit)
    return issue(permit)


@pytest.fixture
def make_issued(contractor, contractor_org):
    def make(**detail):
        permit = PermitFactory(applicant=contractor, organization=contractor_org)
        add_detail(permit, **detail)
        return issue(permit)

    return make
