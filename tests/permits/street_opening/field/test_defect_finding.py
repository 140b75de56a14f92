"""§ 303-4H(4) "whenever the Village Board shall find": the finding is the Board's alone, a carried motion on the
permit at a meeting held on or before the day served, recorded by the clerk. No designee and no office finds work
defective; the DPW's own notice is § 303-4H(2)'s, for faulty work while the work is under way."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.board import services as board
from permits.board.models import AgendaItem
from permits.errors import RulesBroken
from permits.street_opening.field import services as field_work
from tests.board_world import vote
from tests.permits.street_opening.field.conftest import DEFECT, board_finding, board_finds_defect

pytestmark = pytest.mark.django_db

SERVED = DEFECT["served_on"]


def _confirmed(permit, contractor):
    from tests.permits.street_opening.conftest import complete_work

    complete_work(permit, permittee=contractor, today=datetime.date(2026, 7, 15))
    permit.refresh_from_db()
    return permit


@pytest.mark.parametrize(
    "held_on, may",
    [(SERVED + datetime.timedelta(days=1), False), (SERVED, True), (SERVED - datetime.timedelta(1), True)],
)
def test_303_4h_4_the_boards_meeting_held_on_or_before_the_day_served(issued_permit, contractor, clerk, held_on, may):
    permit = _confirmed(issued_permit, contractor)
    finding = board_finding(permit, held_on=held_on, clerk=clerk)
    if may:
        assert board_finds_defect(permit, clerk, finding=finding).finding == finding
    else:
        with pytest.raises(RulesBroken) as error:
            board_finds_defect(permit, clerk, finding=finding)
        assert {v.code for v in error.value.violations} == {"future_motion"}


def test_303_4h_4_no_finding_without_a_motion(issued_permit, contractor, clerk):
    permit = _confirmed(issued_permit, contractor)
    with pytest.raises(RulesBroken) as error:
        field_work.record_defect_finding(permit=permit, by=clerk, finding=None, addressed_to="permittee", **DEFECT)
    assert {v.code for v in error.value.violations} == {"no_motion"}
    assert not permit.defect_notices.exists()


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "board_member", "president", "contractor"])
def test_303_4h_4_only_the_clerk_records_the_boards_finding(issued_permit, contractor, persona, request):
    permit = _confirmed(issued_permit, contractor)
    finding = board_finding(permit)
    with pytest.raises(PermissionDenied):
        board_finds_defect(permit, request.getfixturevalue(persona), finding=finding)
    assert not permit.defect_notices.exists()


def test_303_4h_4_no_designee_may_be_named(dpw_director, clerk):
    motion = vote(clause="303-4H(4)", ayes=5, held_on=datetime.date(2026, 1, 5), clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        board.designate(
            clause="303-4H(4)", user=dpw_director, starts_on=datetime.date(2026, 1, 5), motion=motion, by=clerk
        )
    assert "not_designable" in {v.code for v in error.value.violations}


def test_303_4h_4_a_failed_motion_another_permits_or_a_subjectless_one_is_refused(
    issued_permit, make_issued, contractor, clerk
):
    permit = _confirmed(issued_permit, contractor)
    failed = vote(clause="303-4H(4)", ayes=2, nays=5, held_on=datetime.date(2027, 2, 16), subject=permit)
    with pytest.raises(RulesBroken) as error:
        board_finds_defect(permit, clerk, finding=failed)
    assert {v.code for v in error.value.violations} == {"motion_failed"}
    other = make_issued()
    elsewhere = vote(clause="303-4H(4)", ayes=6, held_on=datetime.date(2027, 2, 16), subject=other)
    with pytest.raises(RulesBroken) as error:
        board_finds_defect(permit, clerk, finding=elsewhere)
    assert {v.code for v in error.value.violations} == {"wrong_subject"}
    general = vote(clause="303-4H(4)", ayes=6, held_on=datetime.date(2027, 2, 16))
    with pytest.raises(RulesBroken) as error:
        board_finds_defect(permit, clerk, finding=general)
    assert {v.code for v in error.value.violations} == {"no_subject"}
    wrong_clause = vote(clause="303-5A", ayes=6, held_on=datetime.date(2027, 2, 16), subject=permit)
    with pytest.raises(RulesBroken) as error:
        board_finds_defect(permit, clerk, finding=wrong_clause)
    assert "wrong_clause" in {v.code for v in error.value.violations}
    assert not permit.defect_notices.exists()


def test_303_4h_4_the_board_decides_the_permit_from_its_agenda(issued_permit, contractor, clerk):
    """The permit waits on the Board's queue in its guarantee year; the carried motion is the finding."""
    from permits.board.matters import matter_for
    from tests.board_world import seat_members

    permit = _confirmed(issued_permit, contractor)
    matter = matter_for("303-4H(4)", "permits.Permit")
    assert permit in list(matter.waiting())
    facts = dict(matter.facts(permit))
    assert facts["Permit"] == permit.number and facts["Completed"] == "July 15, 2026"
    terms = seat_members()
    meeting = board.schedule_meeting(held_on=datetime.date(2026, 11, 10), by=clerk)  # a meeting already held
    board.record_attendance(meeting=meeting, present=terms, by=clerk, today=meeting.held_on)
    item = board.add_matter_to_agenda(meeting=meeting, subject=permit, clause="303-4H(4)", by=clerk)
    assert isinstance(item, AgendaItem)
    motion = board.decide_item(
        item=item, text="Found defective: settled patch", votes={t: "aye" for t in terms[:5]}, by=clerk
    )
    assert permit.events.filter(reason__contains="found the work defective").exists()
    notice = board_finds_defect(permit, clerk, finding=motion)
    assert notice.kind == "board_finding"


def test_303_4h_4_the_dpw_notice_is_not_a_finding_after_completion(issued_permit, contractor, dpw_director):
    permit = _confirmed(issued_permit, contractor)
    assert field_work.defect_notice_kind(permit) == "board_finding"
    assert not field_work.may_record_defect_notice(dpw_director, permit)


def test_303_4h_4_defect_page_is_the_clerks_in_the_guarantee_year(
    issued_permit, contractor, dpw_director, clerk, client
):
    permit = _confirmed(issued_permit, contractor)
    url = reverse("permits:field_defect", args=[permit.number])
    client.force_login(dpw_director)
    assert client.get(url).status_code == 403
    client.force_login(clerk)
    page = client.get(url)
    assert page.status_code == 200 and "finding" in page.content.decode()


def test_303_4h_2_defect_page_is_the_dpws_while_work_is_under_way(issued_permit, dpw_director, clerk, client):
    url = reverse("permits:field_defect", args=[issued_permit.number])
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    client.force_login(dpw_director)
    page = client.get(url)
    assert page.status_code == 200 and "§ 303-4H(2)" in page.content.decode()
