"""§ 303-15 on every entry point: filing, the petition, the Board, issue and termination through the services and
through workflow.transition() (the admin's and the shell's path)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from permits import services as core
from permits import workflow
from permits.board import services as board
from permits.board.models import Vote
from permits.errors import IllegalTransition, RulesBroken
from permits.models import Document, Permit, Status
from permits.street_use import services
from tests.board_world import board_clerk, seat_members
from tests.permits.street_use.conftest import FRIDAY, TODAY, at, sign, valid_data

pytestmark = pytest.mark.django_db


def _codes(error):
    return [v.code for v in error.value.violations]


# --- Filing -----------------------------------------------------------------------------------------------------


def test_303_15b_application_is_numbered_su_and_charged_the_chapter_167_fee(application):
    assert application.number.startswith("SU-2026-")
    assert application.status == Status.SUBMITTED
    assert application.fee_code == "street_use" and application.fee_amount > 0


def test_303_15d_5_friday_to_monday_is_refused_and_nothing_is_stored(spring, street, resident):
    with pytest.raises(RulesBroken) as error:
        services.apply_for_street_use(applicant=resident, data=valid_data(street, ends_at=at(date(2026, 5, 18), 1)))
    assert _codes(error) == ["more_than_three_days"]
    assert not Permit.objects.exists()


def test_303_15d_4_missing_items_are_all_refused_at_once(spring, street, resident):
    with pytest.raises(RulesBroken) as error:
        services.apply_for_street_use(
            applicant=resident, data=valid_data(street, applicant_phone="", proposed_use=" ", organization_name="X")
        )
    fields = sorted(v.field for v in error.value.violations)
    assert fields == [
        "applicant_phone",
        "organization_address",
        "organization_heads",
        "organization_phone",
        "proposed_use",
    ]
    assert not Permit.objects.exists()


def test_303_15b_a_chapter_245_event_is_not_filed_nor_charged(spring, street, resident):
    with pytest.raises(RulesBroken) as error:
        services.apply_for_street_use(applicant=resident, data=valid_data(street, chapter_245_permit="P-7"))
    assert _codes(error) == ["chapter_245_event"]
    assert not Permit.objects.exists()


# --- The petition (more in test_petition.py) ------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["resident", "outsider", "police_chief", "president", "dpw_director"])
def test_303_15f_only_the_clerk_enters_and_verifies(application, roster, persona, request):
    user = request.getfixturevalue(persona)
    with pytest.raises(PermissionDenied):
        sign(application, roster[:1], user)
    with pytest.raises(PermissionDenied):
        services.verify_petition(permit=application, by=user)


def test_303_15f_the_generic_transition_cannot_skip_the_petition(application, clerk):
    with pytest.raises(RulesBroken) as error:
        workflow.transition(application, Status.UNDER_REVIEW, by=clerk)
    assert _codes(error) == ["undeclared_address", "petition_unverified"]


# --- The Board -----------------------------------------------------------------------------------------------------


@pytest.fixture
def before_board(application, roster, clerk):
    sign(application, roster[:15], clerk)
    services.verify_petition(permit=application, by=clerk)
    terms = seat_members()
    meeting = board.schedule_meeting(held_on=TODAY, by=clerk)
    board.record_attendance(meeting=meeting, present=terms[:5], by=clerk)
    item = services.place_on_agenda(permit=application, meeting=meeting, by=clerk)
    return application, item, terms[:5]


def _motion(item, terms, clerk, ayes=5):
    votes = {t: (Vote.Choice.AYE if i < ayes else Vote.Choice.NAY) for i, t in enumerate(terms)}
    return board.record_motion(item=item, text="To grant the permit", votes=votes, by=clerk)


def test_303_15c_grant_needs_the_applicant_recorded_present(before_board, clerk):
    permit, item, terms = before_board
    motion = _motion(item, terms, clerk)
    with pytest.raises(RulesBroken) as error:
        services.decide_street_use(permit=permit, motion=motion, by=clerk, grant=True)
    assert _codes(error) == ["applicant_absent"]
    permit.refresh_from_db()
    assert permit.status == Status.UNDER_REVIEW and permit.street_use.decision_motion is None


def test_303_15c_granted_by_a_carried_motion_with_the_applicant_present(before_board, clerk):
    permit, item, terms = before_board
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    motion = _motion(item, terms, clerk, ayes=3)  # 3 of 5 present: a majority of those present
    services.decide_street_use(permit=permit, motion=motion, by=clerk, grant=True, conditions="Fire lane open")
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED and permit.street_use.conditions == "Fire lane open"


def test_303_15c_a_failed_motion_does_not_grant_but_denies(before_board, clerk):
    permit, item, terms = before_board
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    motion = _motion(item, terms, clerk, ayes=2)  # 2 of 5: fails
    with pytest.raises(RulesBroken) as error:
        services.decide_street_use(permit=permit, motion=motion, by=clerk, grant=True)
    assert _codes(error) == ["motion_failed"]
    services.decide_street_use(permit=permit, motion=motion, by=clerk, grant=False)
    permit.refresh_from_db()
    assert permit.status == Status.DENIED


def test_303_15c_a_motion_on_another_permits_item_is_refused(before_board, clerk, spring, street, segment, resident):
    permit, item, terms = before_board
    other = services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    motion = _motion(item, terms, clerk)
    with pytest.raises(RulesBroken):
        services.decide_street_use(permit=other, motion=motion, by=clerk, grant=True)


def test_303_15c_the_generic_transition_cannot_approve_without_the_board(before_board, clerk):
    permit, _item, _terms = before_board
    with pytest.raises(RulesBroken) as error:
        workflow.transition(permit, Status.APPROVED, by=clerk)
    assert _codes(error) == ["no_motion"]


def test_303_15c_the_board_matter_decides_from_the_motion(before_board, clerk):
    from permits.board.matters import matter_for

    permit, item, terms = before_board
    matter = matter_for("303-15C", "permits.Permit")
    assert [p.pk for p in matter.waiting()] == [permit.pk]
    facts = dict(matter.facts(permit))
    assert facts["Petition (§ 303-15F)"].startswith("15 of 20 declared residents over 18 consented; 15 needed")
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    matter.decide(subject=permit, motion=_motion(item, terms, clerk), by=board_clerk())
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED and list(matter.waiting()) == []


@pytest.fixture
def granted(before_board, clerk):
    permit, item, terms = before_board
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    services.decide_street_use(
        permit=permit, motion=_motion(item, terms, clerk), by=clerk, grant=True, requires_insurance=True
    )
    return permit


def _pay(permit, clerk):
    core.record_payment(permit=permit, amount=Decimal(permit.fee_amount), method="cash", by=clerk)


def test_303_15g_not_issued_until_the_insurance_certificate_is_on_file(granted, clerk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.upload_samples import PDF

    _pay(granted, clerk)
    with pytest.raises(RulesBroken) as error:
        services.issue_street_use(permit=granted, by=clerk)
    assert _codes(error) == ["insurance_missing"]
    core.upload_document(
        permit=granted, kind=Document.Kind.INSURANCE, upload=SimpleUploadedFile("c.pdf", PDF), by=clerk
    )
    services.issue_street_use(permit=granted, by=clerk)
    granted.refresh_from_db()
    assert granted.status == Status.ISSUED


def test_303_15e_not_issued_until_the_fee_is_paid(before_board, clerk):
    permit, item, terms = before_board
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    services.decide_street_use(permit=permit, motion=_motion(item, terms, clerk), by=clerk, grant=True)
    with pytest.raises(RulesBroken) as error:
        services.issue_street_use(permit=permit, by=clerk)
    assert _codes(error) == ["fee_unpaid"]


# --- Termination -------------------------------------------------------------------------------------------------


@pytest.fixture
def issued(before_board, clerk):
    permit, item, terms = before_board
    services.record_appearance(permit=permit, item=item, name="Rita Anderson", capacity="applicant", by=clerk)
    services.decide_street_use(permit=permit, motion=_motion(item, terms, clerk), by=clerk, grant=True)
    _pay(permit, clerk)
    services.issue_street_use(permit=permit, by=clerk)
    return permit


@pytest.mark.parametrize("persona", ["president", "police_chief", "police_officer"])
def test_303_15h_the_president_or_an_officer_terminates_an_event_in_progress(issued, persona, request):
    user = request.getfixturevalue(persona)
    services.terminate_street_use(permit=issued, by=user, reason="Fireworks over the crowd", now=at(FRIDAY, 21))
    issued.refresh_from_db()
    su = issued.street_use
    assert issued.status == Status.REVOKED and su.is_terminated
    assert su.terminated_by == user and su.termination_reason == "Fireworks over the crowd"
    assert "Terminated (§ 303-15H)" in issued.events.last().reason


@pytest.mark.parametrize("persona", ["clerk", "board_member", "dpw_director", "resident", "outsider", "inspector"])
def test_303_15h_nobody_else_may_terminate(issued, persona, request):
    user = request.getfixturevalue(persona)
    with pytest.raises(PermissionDenied):
        services.terminate_street_use(permit=issued, by=user, reason="No", now=at(FRIDAY, 21))


def test_303_15h_the_permit_may_be_revoked_before_the_event(issued, president):
    services.terminate_street_use(permit=issued, by=president, reason="Conditions not met", now=at(FRIDAY, 7, 59))
    issued.refresh_from_db()
    assert issued.status == Status.REVOKED


def test_303_15h_nothing_to_end_once_the_event_is_over(issued, police_chief):
    with pytest.raises(RulesBroken) as error:
        services.terminate_street_use(
            permit=issued, by=police_chief, reason="Late", now=at(FRIDAY.replace(day=17), 23, 1)
        )
    assert _codes(error) == ["event_over"]


def test_303_15h_the_generic_transition_cannot_revoke_without_the_record(issued, president, police_chief):
    with pytest.raises(RulesBroken) as error:
        workflow.transition(issued, Status.REVOKED, by=president)
    assert _codes(error) == ["no_termination"]


def test_303_15h_the_clerk_may_not_revoke_through_the_generic_transition(issued, clerk):
    with pytest.raises(IllegalTransition):
        workflow.transition(issued, Status.REVOKED, by=clerk)


def test_303_15b_an_event_on_a_day_already_gone_is_refused_and_not_charged(spring, street, segment, roster, resident):
    from permits.models import Permit

    yesterday = at(TODAY - timedelta(days=1), 18)
    with pytest.raises(RulesBroken) as broken:
        services.apply_for_street_use(
            applicant=resident, data=valid_data(street, segment, starts_at=yesterday, ends_at=at(TODAY, 22))
        )
    assert "start_in_past" in {v.code for v in broken.value.violations} and "§ 303-15B" in str(broken.value)
    assert not Permit.objects.exists()
