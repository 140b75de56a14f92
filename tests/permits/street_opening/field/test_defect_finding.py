"""§ 303-4H(4) "whenever the Village Board shall find": the defect finding is the Board's (a recorded motion, entered by
the clerk) or its designee's for § 303-4H(4) on the day the notice is served."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from permits.errors import RulesBroken
from permits.street_opening.field import services as field_work
from tests.board_world import designate, vote
from tests.permits.street_opening.field.conftest import record_defect

pytestmark = pytest.mark.django_db

SERVED = datetime.date(2027, 3, 1)  # record_defect's


def _completed(permit, contractor):
    field_work.report_completion(permit=permit, by=contractor, today=datetime.date(2026, 7, 15))
    permit.refresh_from_db()
    return permit


@pytest.mark.parametrize(
    "starts_on, may",
    [(SERVED + datetime.timedelta(days=1), False), (SERVED, True), (SERVED - datetime.timedelta(days=1), True)],
)
def test_303_4h_4_the_designee_on_the_day_served(issued_permit, contractor, dpw_director, starts_on, may):
    permit = _completed(issued_permit, contractor)
    designate("303-4H(4)", user=dpw_director, starts_on=starts_on)
    if may:
        assert record_defect(permit, dpw_director).finding is None
    else:
        with pytest.raises(PermissionDenied, match="303-4H"):
            record_defect(permit, dpw_director)


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "clerk", "board_member", "president", "contractor"])
def test_303_4h_4_no_role_finds_a_defect_without_the_board(issued_permit, contractor, persona, request):
    permit = _completed(issued_permit, contractor)
    with pytest.raises(PermissionDenied):
        record_defect(permit, request.getfixturevalue(persona))


def test_303_4h_4_the_clerk_records_the_boards_own_finding(issued_permit, contractor, clerk):
    permit = _completed(issued_permit, contractor)
    finding = vote(clause="303-4H(4)", ayes=5, held_on=datetime.date(2027, 2, 16), subject=permit, number="2027-07")
    notice = record_defect(permit, clerk, finding=finding)
    assert notice.finding == finding
    assert permit.events.filter(reason__contains="Defect notice").exists()


def test_303_4h_4_a_failed_motion_or_another_permits_finding_is_refused(issued_permit, make_issued, contractor, clerk):
    permit = _completed(issued_permit, contractor)
    failed = vote(clause="303-4H(4)", ayes=2, nays=5, held_on=datetime.date(2027, 2, 16), subject=permit)
    with pytest.raises(RulesBroken) as error:
        record_defect(permit, clerk, finding=failed)
    assert {v.code for v in error.value.violations} == {"motion_failed"}
    other = make_issued()
    elsewhere = vote(clause="303-4H(4)", ayes=6, held_on=datetime.date(2027, 2, 16), subject=other)
    with pytest.raises(RulesBroken) as error:
        record_defect(permit, clerk, finding=elsewhere)
    assert {v.code for v in error.value.violations} == {"wrong_subject"}
    assert not permit.defect_notices.exists()


def test_303_4h_4_defect_page_opens_for_the_designee_only(issued_permit, contractor, dpw_director, inspector, client):
    from django.urls import reverse

    permit = _completed(issued_permit, contractor)
    url = reverse("permits:field_defect", args=[permit.number])
    client.force_login(dpw_director)
    assert client.get(url).status_code == 403
    designate("303-4H(4)", user=dpw_director, starts_on=datetime.date(2020, 1, 1))
    assert client.get(url).status_code == 200
    client.force_login(inspector)
    assert client.get(url).status_code == 403
