"""§ 303-4H(2): faulty work found before completion takes the DPW's written notice, with the same correct-or-be-
revoked path as the Board's finding in the guarantee year (§ 303-4H(4))."""

import datetime
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied

from permits.errors import RulesBroken
from permits.models import Notice
from permits.street_opening import services as so
from permits.street_opening.field import rules
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import DefectNotice
from permits.street_opening.models import ApplicantRevocation
from tests.factories import PermitFactory
from tests.permits.street_opening.field.conftest import record_defect

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("board_designations"),
]

SERVED = datetime.date(2026, 6, 1)


def _defect(permit, by, **kw):
    found = dict(
        defect="Trench backfilled with frozen clods, not compacted",
        work_to_be_done="Re-excavate and compact in 12-inch lifts",
        estimated_cost=D("800.00"),
        deadline=SERVED + datetime.timedelta(days=7),
        served_on=SERVED,
    )
    return record_defect(permit, by, **{**found, **kw})


def test_303_4h_2_rule_allows_the_dpw_notice_for_work_under_way_only():
    base = dict(
        found_on=SERVED,
        defect="d",
        work_to_be_done="w",
        estimated_cost=D(0),
        deadline=SERVED + datetime.timedelta(days=1),
    )
    assert rules.faulty_work_notice_violations(**base, work_under_way=True) == []
    assert [v.code for v in rules.faulty_work_notice_violations(**base, work_under_way=False)] == ["not_under_way"]


def test_303_4h_2_dpw_notices_faulty_work_before_completion(issued_permit, dpw_director, contractor):
    assert issued_permit.completed_on is None
    notice = _defect(issued_permit, dpw_director)
    assert notice.addressee_email == contractor.email
    assert Notice.objects.filter(template="field_defect_notice", to=contractor.email).exists()
    assert issued_permit.events.filter(reason__contains="Defect notice").exists()


def test_303_4h_2_no_defect_notice_before_the_permit_is_issued(contractor, contractor_org, dpw_director):
    permit = PermitFactory(applicant=contractor, organization=contractor_org)  # submitted, no work yet
    with pytest.raises(RulesBroken) as broken:
        _defect(permit, dpw_director)
    assert broken.value.violations[0].code == "not_under_way"
    assert not DefectNotice.objects.exists()


@pytest.mark.parametrize("persona", ["contractor", "resident"])
def test_303_4h_2_applicants_cannot_record_a_defect_notice(request, issued_permit, persona):
    with pytest.raises(PermissionDenied):
        _defect(issued_permit, request.getfixturevalue(persona))
    assert not DefectNotice.objects.exists()


def test_303_4h_2_uncorrected_before_completion_revokes_the_day_after_the_deadline(issued_permit, dpw_director):
    notice = _defect(issued_permit, dpw_director)
    assert field_work.flag_defects_past_deadline(today=notice.deadline) == (0, 0)  # the deadline day is on time
    assert not ApplicantRevocation.objects.exists()
    assert field_work.flag_defects_past_deadline(today=notice.deadline + datetime.timedelta(days=1)) == (1, 1)
    revocation = ApplicantRevocation.objects.get()
    assert revocation.organization == issued_permit.organization
    assert so.active_revocation_until(
        user=issued_permit.applicant, organization=None, today=notice.deadline + datetime.timedelta(days=2)
    )


def test_303_4h_4_corrected_in_time_before_completion_is_not_revoked(issued_permit, dpw_director):
    notice = _defect(issued_permit, dpw_director)
    field_work.record_correction(notice=notice, by=dpw_director, corrected_on=notice.deadline)
    assert field_work.flag_defects_past_deadline(today=notice.deadline + datetime.timedelta(days=1)) == (0, 0)
    assert not ApplicantRevocation.objects.exists()
