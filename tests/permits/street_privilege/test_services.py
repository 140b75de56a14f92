"""The street privilege verbs: filing with every rule at once, the Building Inspector's grant after both advisory
recommendations, the DPW's bond, the clerk's filing, the fee plus actual costs, issue, revocation, closing."""

from datetime import date
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied

from permits import workflow
from permits.errors import IllegalTransition, RulesBroken
from permits.models import Permit, PermitEvent, Status
from permits.street_privilege import services as sp
from permits.street_privilege.models import StreetPrivilege
from tests.permits.street_privilege.conftest import FEE, materials_data, move_data

pytestmark = pytest.mark.django_db


def test_303_7a_application_is_submitted_with_the_chapter_167_fee(world):
    permit = world.apply()
    assert permit.number.startswith("SP-2027-")
    assert permit.status == Status.SUBMITTED
    assert permit.fee_amount == FEE and permit.fee_code == "street_privilege"
    # § 303-7D(1): the width the third was measured against is the register's, kept on the permit
    assert permit.street_privilege.street_width_feet == D("36.0")


def test_every_broken_rule_at_once_and_nothing_stored(world, main_street):
    data = materials_data(
        main_street,
        occupied_street_feet=D("12.1"),
        lighted_at_night=False,
        temporary_walk_width_feet=D("3.9"),
    )
    with pytest.raises(RulesBroken) as broken:
        world.apply(data)
    assert {v.citation for v in broken.value.violations} == {"§ 303-7D(1)", "§ 303-7D(2)", "§ 303-7D(3)"}
    assert not Permit.objects.filter(kind="street_privilege").exists()
    assert not StreetPrivilege.objects.exists()


def test_303_7d5_move_overnight_at_a_hydrant_refused(world, main_street):
    with pytest.raises(RulesBroken) as broken:
        world.apply(move_data(main_street, overnight_at_intersection_or_hydrant=True))
    assert [v.citation for v in broken.value.violations] == ["§ 303-7D(5)"]


def test_303_7a_building_inspector_cannot_grant_before_both_recommendations(world, building_inspector, dpw_director):
    permit = world.walk("under_review")
    sp.record_recommendation(permit=permit, by=dpw_director, recommended=True)
    with pytest.raises(RulesBroken) as broken:
        sp.grant_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 1))
    assert [v.code for v in broken.value.violations] == ["no_police_recommendation"]
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_303_7a_not_recommended_does_not_block_the_grant(world, building_inspector):
    permit = world.walk("under_review")
    world.recommend(permit)  # the Chief of Police does not recommend it
    sp.grant_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 1))
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED


def test_303_7a_recommendation_records_who_when_and_conditions(world, police_chief):
    permit = world.walk("under_review")
    rec = sp.record_recommendation(
        permit=permit, by=police_chief, recommended=False, conditions="Escort", insurance_required=True
    )
    assert (rec.office, rec.by, rec.recommended, rec.insurance_required) == ("police", police_chief, False, True)
    assert rec.at is not None


@pytest.mark.parametrize("persona", ["building_inspector", "clerk", "contractor", "board_member"])
def test_303_7a_only_the_dpw_and_the_chief_recommend(world, persona, request):
    permit = world.walk("under_review")
    with pytest.raises(PermissionDenied):
        sp.record_recommendation(permit=permit, by=request.getfixturevalue(persona), recommended=True)


@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "police_chief", "board_member"])
def test_303_7a_only_the_building_inspector_grants(world, persona, request):
    permit = world.walk("under_review")
    world.recommend(permit)
    with pytest.raises(PermissionDenied):
        sp.grant_street_privilege(permit=permit, by=request.getfixturevalue(persona), today=date(2027, 3, 1))


def test_303_7a_the_generic_workflow_refuses_the_same_grant(world, building_inspector):
    permit = world.walk("under_review")
    with pytest.raises(RulesBroken):
        workflow.transition(permit, Status.APPROVED, by=building_inspector)


def test_303_7b_the_dpw_sets_the_bond_at_most_10000(world, dpw_director):
    permit = world.walk("approved")
    sp.set_bond(permit=permit, by=dpw_director, amount=D("10000.00"))
    with pytest.raises(RulesBroken) as broken:
        sp.set_bond(permit=permit, by=dpw_director, amount=D("10000.01"))
    assert broken.value.violations[0].code == "bond_over_cap"
    assert StreetPrivilege.objects.get(permit=permit).bond_amount == D("10000.00")


@pytest.mark.parametrize("persona", ["clerk", "building_inspector", "police_chief", "contractor"])
def test_303_7b_nobody_but_the_dpw_sets_the_bond(world, persona, request):
    permit = world.walk("approved")
    with pytest.raises(PermissionDenied):
        sp.set_bond(permit=permit, by=request.getfixturevalue(persona), amount=D("5000"))


def test_303_7b_only_the_clerk_receives_the_bond(world, dpw_director, building_inspector):
    permit = world.walk("approved")
    sp.set_bond(permit=permit, by=dpw_director, amount=D("5000"))
    with pytest.raises(PermissionDenied):
        sp.file_bond(permit=permit, by=building_inspector, surety="X")


def test_303_7b_cannot_issue_before_the_bond_is_filed(world, dpw_director, clerk, building_inspector):
    permit = world.walk("approved")
    sp.set_bond(permit=permit, by=dpw_director, amount=D("5000"))
    permit.refresh_from_db()
    from permits import services

    services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)
    with pytest.raises(RulesBroken) as broken:
        sp.issue_street_privilege(permit=permit, by=building_inspector)
    assert [v.code for v in broken.value.violations] == ["bond_not_filed"]


def test_303_7c_cannot_issue_with_one_cent_of_the_costs_unpaid(world, police_chief, building_inspector):
    permit = world.walk("approved")
    world.bond_and_pay(permit)
    sp.add_cost(permit=permit, by=police_chief, description="Police escort", amount=D("0.01"))
    with pytest.raises(RulesBroken) as broken:
        sp.issue_street_privilege(permit=permit, by=building_inspector)
    assert [v.code for v in broken.value.violations] == ["fee_unpaid"]


def test_303_7c_actual_costs_are_lines_added_to_the_fee(world, police_chief, dpw_director):
    permit = world.walk("approved")
    sp.add_cost(permit=permit, by=police_chief, description="Police escort, 2 hours", amount=D("80.00"))
    sp.add_cost(permit=permit, by=dpw_director, description="Barricades", amount=D("25.50"))
    permit.refresh_from_db()
    assert permit.fee_amount == FEE + D("105.50")
    assert [line.description for line in permit.street_privilege.cost_lines.all()] == [
        "Police escort, 2 hours",
        "Barricades",
    ]


def test_303_7c_a_contractor_cannot_add_costs(world, contractor):
    permit = world.walk("approved")
    with pytest.raises(PermissionDenied):
        sp.add_cost(permit=permit, by=contractor, description="x", amount=D("1"))


def test_303_7e_issued_march_10_last_day_june_10(world):
    permit = world.walk("issued", today=date(2027, 3, 1))  # issued nine days later, March 10
    permit.refresh_from_db()
    assert (permit.issued_on, permit.expires_on) == (date(2027, 3, 10), date(2027, 6, 10))


def test_303_7e_the_building_inspectors_earlier_date_is_the_last_day(world, building_inspector):
    permit = world.walk("under_review")
    world.recommend(permit)
    world.file_insurance(permit)
    world.determine(permit)
    sp.grant_street_privilege(
        permit=permit, by=building_inspector, earlier_termination_on=date(2027, 4, 20), today=date(2027, 3, 1)
    )
    world.bond_and_pay(permit)
    sp.issue_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 10))
    assert Permit.objects.get(pk=permit.pk).expires_on == date(2027, 4, 20)


@pytest.mark.parametrize("persona", ["dpw_director", "police_chief", "building_inspector"])
def test_303_7d_revoked_by_each_official_named(world, persona, request):
    permit = world.walk("issued")
    sp.revoke_street_privilege(permit=permit, by=request.getfixturevalue(persona), reason="Not lighted")
    permit.refresh_from_db()
    assert permit.status == Status.REVOKED
    assert permit.street_privilege.closing_inspection_opened_on is not None


@pytest.mark.parametrize("persona", ["clerk", "contractor", "inspector", "outsider", "board_member", "president"])
def test_303_7d_nobody_else_revokes(world, persona, request):
    permit = world.walk("issued")
    with pytest.raises(PermissionDenied):
        sp.revoke_street_privilege(permit=permit, by=request.getfixturevalue(persona), reason="x")


def test_303_7d_the_generic_workflow_refuses_a_clerks_revocation(world, clerk):
    permit = world.walk("issued")
    with pytest.raises(IllegalTransition):
        workflow.transition(permit, Status.REVOKED, by=clerk)


def test_303_7d7_closes_only_after_a_passed_closing_inspection(world, contractor, building_inspector):
    permit = world.walk("issued")
    sp.report_completion(permit=permit, by=contractor)
    with pytest.raises(RulesBroken):
        workflow.transition(permit, Status.CLOSED, by=building_inspector)
    sp.record_closing_inspection(permit=permit, by=building_inspector, passed=False, notes="Pallets left")
    assert Permit.objects.get(pk=permit.pk).status == Status.COMPLETED
    sp.record_closing_inspection(permit=permit, by=building_inspector, passed=True)
    assert Permit.objects.get(pk=permit.pk).status == Status.CLOSED


def test_begin_review_tells_the_dpw_and_the_chief(world, dpw_director, police_chief):
    permit = world.walk("under_review")
    to = set(permit.notices.filter(template="street_privilege_recommendation_requested").values_list("to", flat=True))
    assert {dpw_director.email, police_chief.email} <= to
    assert PermitEvent.objects.filter(permit=permit, to_status=Status.UNDER_REVIEW).exists()


def test_303_7d_the_board_revokes_by_a_carried_motion(world, clerk):
    from permits.board.clauses import Clause
    from tests.board_world import vote

    permit = world.walk("issued")
    motion = vote(
        clause=Clause.PRIVILEGE_REVOCATION, ayes=4, held_on=date(2026, 11, 2), subject=permit.street_privilege
    )
    sp.revoke_street_privilege(permit=permit, motion=motion, by=clerk)
    permit.refresh_from_db()
    assert permit.status == Status.REVOKED


def test_303_7d_a_motion_under_another_clause_revokes_nothing(world, clerk):
    from permits.board.clauses import Clause
    from tests.board_world import vote

    permit = world.walk("issued")
    motion = vote(clause=Clause.MOVE_ROUTE, ayes=4, held_on=date(2026, 11, 2), subject=permit.street_privilege)
    with pytest.raises(RulesBroken):
        sp.revoke_street_privilege(permit=permit, motion=motion, by=clerk)
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED


def test_303_7e_an_earlier_end_before_the_issue_day_holds_the_issue(world, building_inspector, clerk):
    permit = world.walk("approved")
    StreetPrivilege.objects.filter(permit=permit).update(earlier_termination_on=date(2027, 3, 9))
    with pytest.raises(RulesBroken) as broken:  # issued on the 10th, it would end the day before
        sp.issue_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 10))
    assert "ends_before_issue" in {v.code for v in broken.value.violations} and "§ 303-7E" in str(broken.value)
    sp.set_earlier_termination(
        permit=permit, by=building_inspector, earlier_termination_on=date(2027, 3, 10), today=date(2027, 3, 10)
    )
    assert sp.rules.earlier_end_at_issue_violations(earlier_on=date(2027, 3, 10), issued_on=date(2027, 3, 10)) == []


@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "police_chief"])
def test_303_7e_only_the_building_inspector_sets_the_end_date(world, persona, request):
    permit = world.walk("approved")
    with pytest.raises(PermissionDenied):
        sp.set_earlier_termination(permit=permit, by=request.getfixturevalue(persona), earlier_termination_on=None)


def test_303_7e_the_building_inspector_sets_the_end_date_on_the_village_actions_page(world, building_inspector, client):
    from django.urls import reverse

    permit = world.walk("approved")
    client.force_login(building_inspector)
    page = client.get(reverse("permits:street_privilege_manage", args=[permit.number])).content.decode()
    assert "Set the end date" in page
    client.post(
        reverse("permits:street_privilege_act", args=[permit.number, "end_date"]), {"earlier_termination_on": ""}
    )
    assert permit.events.filter(reason__startswith="End date set: three months from issue").exists()


def test_303_7a_an_insurance_condition_holds_the_issue_until_the_certificate_is_filed(world, building_inspector):
    from permits.street_privilege import rules

    [v] = rules.insurance_condition_violations(required_by=["Chief of Police"], certificate_filed=False)
    assert (v.code, v.citation) == ("insurance_condition_unmet", "§ 303-7A") and "Chief of Police" in v.message
    assert rules.insurance_condition_violations(required_by=["Chief of Police"], certificate_filed=True) == []
    assert rules.insurance_condition_violations(required_by=[], certificate_filed=False) == []
    permit = world.walk("approved")
    permit.documents.filter(kind="insurance").delete()
    world.bond_and_pay(permit)
    with pytest.raises(RulesBroken) as broken:
        sp.issue_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 10))
    assert [v.code for v in broken.value.violations] == ["insurance_condition_unmet"]
