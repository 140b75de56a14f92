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


DEFECT = dict(
    defect="Patch settled 1 inch",
    work_to_be_done="Mill and overlay",
    estimated_cost=Decimal("1200.00"),
    deadline=datetime.date(2027, 4, 1),
    served_on=datetime.date(2027, 3, 1),
)


def notice_faulty_work(permit, by, **kw):
    """A § 303-4H(2) notice of faulty work by the DPW while the work is under way: served 3/1/2027, due 4/1."""
    return field_work.record_faulty_work_notice(**{**DEFECT, "permit": permit, "by": by, **kw})


def board_finding(permit, *, held_on=None, clerk=None, **vote_kw):
    """§ 303-4H(4): the Board's carried motion on `permit` at a meeting held `held_on` (by default the day served)."""
    from tests.board_world import board_clerk, vote

    clerk = clerk or _clerk() or board_clerk()
    held_on = held_on or DEFECT["served_on"]
    return vote(clause="303-4H(4)", ayes=5, held_on=held_on, subject=permit, clerk=clerk, **vote_kw)


def _clerk():
    from django.contrib.auth import get_user_model

    from permits.roles import Role

    return get_user_model().objects.filter(groups__name=Role.CLERK.value).order_by("pk").first()


def board_finds_defect(permit, by=None, *, finding=None, **kw):
    """A § 303-4H(4) notice of the Board's finding (a carried motion on the permit held the day served), recorded by
    the clerk (`by`, else the first clerk): served 3/1/2027, due 4/1, to the permittee."""
    args = {**DEFECT, "addressed_to": "permittee", **kw}
    by = by or _clerk()
    if finding is None:
        finding = board_finding(permit, held_on=args["served_on"], clerk=by)
        by = by or finding.recorded_by
    return field_work.record_defect_finding(permit=permit, by=by, finding=finding, **args)


def record_defect(permit, by=None, **kw):
    """The defect notice the permit takes now: the DPW's § 303-4H(2) notice (by `by`) while the work is under way,
    else the Board's § 303-4H(4) finding recorded by the clerk."""
    if field_work.defect_notice_kind(permit) == "board_finding":
        return board_finds_defect(permit, None, **kw)
    kw.pop("addressed_to", None)
    return notice_faulty_work(permit, by, **kw)


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
