"""The Village Board's decisions on street privilege permits, each by a recorded motion checked with
board_action_errors: the bond waiver (§ 303-7B), the route (§ 303-7D(6)), day and night (§ 303-7D(4)), and the
§ 303-7F notice whose unheeded removal becomes a special charge on the next annual roll."""

from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from permits.board import matters
from permits.board.clauses import Clause
from permits.errors import RulesBroken
from permits.ledger.models import SpecialCharge
from permits.ledger.services import mark_delinquent_charges
from permits.ledger.tax_roll import plan_roll
from permits.models import Permit, Status
from permits.state import history_of
from permits.street_privilege import board_matters
from permits.street_privilege import services as sp
from permits.street_privilege.models import SidewalkObstruction, StreetPrivilege
from permits.time import hours_later
from tests.board_world import vote
from tests.permits.street_privilege.conftest import move_data

pytestmark = pytest.mark.django_db
MEETING = date(2026, 11, 2)


def test_the_four_street_privilege_matters_are_registered():
    clauses = {m.clause for m in matters.matters() if m.model.startswith("permits.S")}
    assert {
        Clause.PRIVILEGE_BOND_WAIVER,
        Clause.MOVE_ROUTE,
        Clause.MOVE_DAY_AND_NIGHT,
        Clause.PRIVILEGE_OBSTRUCTION_NOTICE,
    } <= clauses
    assert matters.matter_for(Clause.MOVE_ROUTE, "permits.StreetPrivilege") is not None


def test_303_7b_waiver_waits_for_the_board_once_asked(world, contractor, clerk):
    permit = world.walk("approved")
    assert list(board_matters.waivers_waiting()) == []
    sp.request_bond_waiver(permit=permit, by=contractor)
    (waiting,) = board_matters.waivers_waiting()
    assert ("Permit", permit.number) in board_matters.privilege_facts(waiting)
    motion = vote(clause=Clause.PRIVILEGE_BOND_WAIVER, ayes=4, held_on=MEETING, subject=waiting, clerk=clerk)
    matters.matter_for(Clause.PRIVILEGE_BOND_WAIVER, "permits.StreetPrivilege").decide(
        subject=waiting, motion=motion, by=clerk
    )
    assert StreetPrivilege.objects.get(pk=waiting.pk).bond_waived
    assert list(board_matters.waivers_waiting()) == []


def test_303_7b_a_waived_bond_lets_the_permit_issue(world, contractor, clerk, building_inspector):
    from permits import services

    permit = world.walk("approved")
    sp.request_bond_waiver(permit=permit, by=contractor)
    motion = vote(clause=Clause.PRIVILEGE_BOND_WAIVER, ayes=4, held_on=MEETING, subject=permit.street_privilege)
    sp.waive_bond(permit=permit, motion=motion, by=clerk)
    services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)
    sp.issue_street_privilege(permit=permit, by=building_inspector)
    assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED


def test_303_7b_a_failed_motion_waives_nothing(world, contractor, clerk):
    permit = world.walk("approved")
    sp.request_bond_waiver(permit=permit, by=contractor)
    motion = vote(clause=Clause.PRIVILEGE_BOND_WAIVER, ayes=2, nays=4, held_on=MEETING, subject=permit.street_privilege)
    with pytest.raises(RulesBroken) as broken:
        sp.waive_bond(permit=permit, motion=motion, by=clerk)
    assert broken.value.violations[0].code == "motion_failed"


def test_303_7b_a_motion_under_another_clause_waives_nothing(world, contractor, clerk):
    permit = world.walk("approved")
    sp.request_bond_waiver(permit=permit, by=contractor)
    motion = vote(clause=Clause.MOVE_ROUTE, ayes=4, held_on=MEETING, subject=permit.street_privilege)
    with pytest.raises(RulesBroken) as broken:
        sp.waive_bond(permit=permit, motion=motion, by=clerk)
    assert "wrong_clause" in {v.code for v in broken.value.violations}


def test_303_7b_no_waiver_without_a_request(world, clerk):
    permit = world.walk("approved")
    motion = vote(clause=Clause.PRIVILEGE_BOND_WAIVER, ayes=4, held_on=MEETING, subject=permit.street_privilege)
    with pytest.raises(RulesBroken) as broken:
        sp.waive_bond(permit=permit, motion=motion, by=clerk)
    assert broken.value.violations[0].code == "not_requested"


def test_303_7b_a_contractor_cannot_record_the_waiver(world, contractor):
    permit = world.walk("approved")
    motion = vote(clause=Clause.PRIVILEGE_BOND_WAIVER, ayes=4, held_on=MEETING, subject=permit.street_privilege)
    with pytest.raises(PermissionDenied):
        sp.waive_bond(permit=permit, motion=motion, by=contractor)


def test_303_7d6_the_boards_route_is_required_and_carried_on_the_permit(world, main_street, clerk, building_inspector):
    permit = world.walk("approved", data=move_data(main_street))
    world.bond_and_pay(permit)
    with pytest.raises(RulesBroken) as broken:
        sp.issue_street_privilege(permit=permit, by=building_inspector)
    assert [v.code for v in broken.value.violations] == ["no_route"]
    (waiting,) = board_matters.routes_waiting()
    motion = vote(clause=Clause.MOVE_ROUTE, ayes=4, held_on=MEETING, subject=waiting)
    board_matters.decide_route(subject=waiting, motion=motion, by=clerk)
    sp.issue_street_privilege(permit=permit, by=building_inspector)
    assert Permit.objects.get(pk=permit.pk).street_privilege.route_prescribed == motion.text


def test_303_7d6_a_materials_permit_has_no_route(world, clerk):
    permit = world.walk("approved")
    motion = vote(clause=Clause.MOVE_ROUTE, ayes=4, held_on=MEETING, subject=permit.street_privilege)
    with pytest.raises(RulesBroken) as broken:
        sp.prescribe_route(permit=permit, motion=motion, route="Main", by=clerk)
    assert "not_a_move" in {v.code for v in broken.value.violations}


def test_303_7d4_the_board_orders_day_and_night(world, main_street, clerk):
    permit = world.walk("approved", data=move_data(main_street))
    (waiting,) = board_matters.day_and_night_waiting()
    motion = vote(clause=Clause.MOVE_DAY_AND_NIGHT, ayes=4, held_on=MEETING, subject=waiting)
    board_matters.decide_day_and_night(subject=waiting, motion=motion, by=clerk)
    assert StreetPrivilege.objects.get(permit=permit).day_and_night_ordered
    assert list(board_matters.day_and_night_waiting()) == []


def test_303_7d4_a_motion_on_another_permit_orders_nothing(world, main_street, clerk):
    permit = world.walk("approved", data=move_data(main_street))
    other = world.walk("approved", data=move_data(main_street, location_description="From 400 Main Street"))
    motion = vote(clause=Clause.MOVE_DAY_AND_NIGHT, ayes=4, held_on=MEETING, subject=other.street_privilege)
    with pytest.raises(RulesBroken) as broken:
        sp.order_day_and_night(permit=permit, motion=motion, by=clerk)
    assert "wrong_subject" in {v.code for v in broken.value.violations}


def _noticed_obstruction(world, abutting_parcel, building_inspector, clerk):
    permit = world.walk("issued")
    obstruction = sp.report_obstruction(
        permit=permit, parcel=abutting_parcel, description="Lumber across the walk", by=building_inspector
    )
    (waiting,) = board_matters.obstructions_waiting()
    motion = vote(clause=Clause.PRIVILEGE_OBSTRUCTION_NOTICE, ayes=4, held_on=MEETING, subject=waiting)
    board_matters.decide_obstruction(subject=waiting, motion=motion, by=clerk)
    obstruction.refresh_from_db()
    return permit, obstruction


def test_303_7f_the_boards_notice_is_written_to_the_owner(world, abutting_parcel, building_inspector, clerk):
    _, obstruction = _noticed_obstruction(world, abutting_parcel, building_inspector, clerk)
    assert obstruction.status == SidewalkObstruction.Status.NOTICED
    from permits.models import Notice

    notice = Notice.objects.get(template="street_privilege_obstruction_notice")
    assert notice.to == "owner@example.com" and "24 hours" in notice.body


def test_303_7f_no_removal_charge_within_24_hours(world, abutting_parcel, building_inspector, clerk):
    _, obstruction = _noticed_obstruction(world, abutting_parcel, building_inspector, clerk)
    with pytest.raises(RulesBroken) as broken:
        sp.record_village_removal(
            obstruction=obstruction,
            by=clerk,
            cost=D("150.00"),
            removed_at=hours_later(obstruction.noticed_at, 23 + 59 / 60),
        )
    assert broken.value.violations[0].code == "within_24_hours"
    assert not SpecialCharge.objects.exists()


def test_303_7f_removal_becomes_a_special_charge_on_the_next_roll(world, abutting_parcel, building_inspector, clerk):
    _, obstruction = _noticed_obstruction(world, abutting_parcel, building_inspector, clerk)
    removed_at = hours_later(obstruction.noticed_at, 24)  # counted hours: a Sunday does not count
    sp.record_village_removal(obstruction=obstruction, by=clerk, cost=D("150.00"), removed_at=removed_at)
    obstruction.refresh_from_db()
    charge = obstruction.charge
    assert (charge.parcel, charge.amount, charge.source, charge.citation) == (
        abutting_parcel,
        D("150.00"),
        SpecialCharge.Source.OBSTRUCTION_REMOVAL,
        "§ 303-7F",
    )
    assert charge.status == SpecialCharge.Status.BILLED
    # Unpaid past its due date it is delinquent, and goes on the roll of the year (the next annual roll).
    later = charge.due_on + timedelta(days=1)
    mark_delinquent_charges(today=later)
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.DELINQUENT
    year = later.year if later <= date(later.year, 11, 15) else later.year + 1
    assert charge in plan_roll(year=year, today=later).eligible


def test_303_7f_a_removal_is_charged_once(world, abutting_parcel, building_inspector, clerk):
    _, obstruction = _noticed_obstruction(world, abutting_parcel, building_inspector, clerk)
    removed_at = hours_later(obstruction.noticed_at, 25)
    sp.record_village_removal(obstruction=obstruction, by=clerk, cost=D("150.00"), removed_at=removed_at)
    with pytest.raises(RulesBroken):
        sp.record_village_removal(obstruction=obstruction, by=clerk, cost=D("150.00"), removed_at=removed_at)
    assert SpecialCharge.objects.count() == 1


def test_303_7f_each_change_of_an_obstruction_is_audited(world, abutting_parcel, building_inspector, clerk):
    _, obstruction = _noticed_obstruction(world, abutting_parcel, building_inspector, clerk)
    removed_at = hours_later(obstruction.noticed_at, 25)
    sp.record_village_removal(obstruction=obstruction, by=clerk, cost=D("150.00"), removed_at=removed_at)
    assert [(c.from_state, c.to_state, c.actor) for c in history_of(obstruction)] == [
        ("reported", "noticed", clerk),
        ("noticed", "village_removed", clerk),
    ]
    with pytest.raises(RulesBroken) as broken:  # the notice is given once
        sp.give_obstruction_notice(obstruction=obstruction, motion=obstruction.notice_motion, by=clerk)
    assert "not_reported" in {v.code for v in broken.value.violations}


def test_303_7f_the_owners_removal_is_audited_once(world, abutting_parcel, building_inspector):
    permit = world.walk("issued")
    obstruction = sp.report_obstruction(permit=permit, parcel=abutting_parcel, description="x", by=building_inspector)
    sp.record_owner_removal(obstruction=obstruction, by=building_inspector)
    sp.record_owner_removal(obstruction=obstruction, by=building_inspector)  # already removed: nothing more
    assert obstruction.status == SidewalkObstruction.Status.REMOVED_BY_OWNER
    assert [(c.from_state, c.to_state, c.actor) for c in history_of(obstruction)] == [
        ("reported", "removed_by_owner", building_inspector)
    ]


def test_303_7f_no_notice_without_a_board_motion(world, abutting_parcel, building_inspector, clerk):
    permit = world.walk("issued")
    obstruction = sp.report_obstruction(permit=permit, parcel=abutting_parcel, description="x", by=building_inspector)
    with pytest.raises(RulesBroken) as broken:
        sp.give_obstruction_notice(obstruction=obstruction, motion=None, by=clerk)
    assert broken.value.violations[0].code == "no_motion"
    with pytest.raises(RulesBroken):
        sp.record_village_removal(obstruction=obstruction, by=clerk, cost=D("1"), removed_at=timezone.now())


def test_303_7d6_the_permit_pdf_carries_the_route_and_the_day_and_night_order(
    world, main_street, clerk, building_inspector
):
    from django.template.loader import render_to_string

    permit = world.walk("approved", data=move_data(main_street))
    subject = permit.street_privilege
    route = vote(clause=Clause.MOVE_ROUTE, ayes=4, held_on=MEETING, subject=subject)
    sp.prescribe_route(permit=permit, motion=route, route="Main Street east to Mill Street only", by=clerk)
    hours = vote(clause=Clause.MOVE_DAY_AND_NIGHT, ayes=4, held_on=MEETING, subject=subject)
    sp.order_day_and_night(permit=permit, motion=hours, by=clerk)
    world.bond_and_pay(permit)
    sp.issue_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 10))
    permit = Permit.objects.get(pk=permit.pk)
    html = render_to_string(
        "pdf/street_privilege_permit.html",
        {"permit": permit, "sp": permit.street_privilege, "recommendations": [], "cost_lines": []},
    )
    assert "Main Street east to Mill Street only" in html
    assert "all hours of the day and night" in html
    assert "June 10, 2027" in html
