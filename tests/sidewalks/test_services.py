"""Sidewalk permits, inspections, surveys and Board orders through their services, and who may act."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from permits.errors import IllegalTransition
from permits.ledger.models import SpecialCharge
from permits.models import Notice, Permit, PermitKind, Status
from sidewalks import rules, services
from sidewalks.models import BoardWaiver, SidewalkInspection, SidewalkOrder, SidewalkPermit
from tests.board_world import adopt_orders
from tests.sidewalks.conftest import GOOD, PASSING, TODAY, at, order_illegal

pytestmark = pytest.mark.django_db

POUR_DAY = TODAY + timedelta(days=5)  # GOOD["pour_date"]: three days or more after the permit is issued (§ 303-3C)


# --- Applying (§ 303-3C, § 303-3D) ----------------------------------------------------------------------------------


def test_contractor_applies_and_the_fee_comes_from_the_schedule(submitted, contractor_org):
    assert submitted.kind == PermitKind.SIDEWALK and submitted.number.startswith("SW-2026-")
    assert submitted.status == Status.SUBMITTED and submitted.organization == contractor_org
    assert submitted.fee_code == "sidewalk" and submitted.fee_amount == Decimal("25.00")
    assert submitted.sidewalk.width_feet == Decimal("4") and submitted.parcel.tax_key == "266-1116-0001"


def test_resident_may_apply_for_their_own_walk(resident, home):
    permit = services.apply_for_sidewalk_permit(applicant=resident, parcel=home, today=TODAY, **GOOD)
    assert permit.applicant == resident


def test_application_breaking_rules_stores_nothing_and_lists_every_rule(resident, shop):
    bad = {**GOOD, "material": "bituminous", "pour_date": TODAY + timedelta(days=2)}
    with pytest.raises(ValidationError) as error:
        services.apply_for_sidewalk_permit(applicant=resident, parcel=shop, today=TODAY, **bad)
    messages = error.value.message_dict
    assert set(messages) == {"material", "pour_date", "width_feet", "thickness_inches", "driveway_thickness_inches"}
    assert "§ 303-3D(8)(b)" in messages["width_feet"][0]
    assert not Permit.objects.exists() and not SidewalkPermit.objects.exists()


def _waiver_vote(ayes, *, held_on=None, vacant=(), absent=0, number="2026-14", rule="three_fourths_entire"):
    from tests.board_world import vote

    return vote(
        clause="303-3D(8)(c)",
        ayes=ayes,
        held_on=held_on or TODAY - timedelta(days=10),
        vacant=vacant,
        absent=absent,
        rule=rule,
        number=number,
    )


def test_303_3d_8_c_effective_board_waiver_lets_a_narrower_commercial_walk(resident, shop, clerk):
    services.record_board_waiver(kind=BoardWaiver.Kind.WIDTH_THICKNESS, parcel=shop, motion=_waiver_vote(6), by=clerk)
    permit = services.apply_for_sidewalk_permit(
        applicant=resident, parcel=shop, today=TODAY, **{**GOOD, "driveway_thickness_inches": Decimal("7")}
    )
    assert permit.sidewalk.waiver.resolution_number == "2026-14"


def test_303_3d_8_c_five_of_seven_is_refused_as_a_waiver(shop, clerk):
    with pytest.raises(ValidationError) as error:
        services.record_board_waiver(
            kind=BoardWaiver.Kind.WIDTH_THICKNESS, parcel=shop, motion=_waiver_vote(5, number="2026-15"), by=clerk
        )
    message = error.value.message_dict["motion"][0]
    assert "6 ayes of the 7 seats" in message and "§ 303-3D(8)(c)" in message
    assert not BoardWaiver.objects.exists()


@pytest.mark.parametrize("ayes, effective", [(5, False), (6, True)])
def test_303_3d_8_c_vacant_seat_still_counts_toward_the_entire_board(shop, clerk, ayes, effective):
    """Seat 7 vacant, six members all present: 6 of 7 seats is needed, so 5 ayes fail and 6 ayes carry."""
    motion = _waiver_vote(ayes, vacant=(7,), number=f"V-{ayes}")
    assert (motion.seats, motion.present, motion.needed) == (7, 6, 6)
    assert motion.carried is effective
    if effective:
        assert services.record_board_waiver(kind="width_thickness", parcel=shop, motion=motion, by=clerk).is_effective
    else:
        with pytest.raises(ValidationError):
            services.record_board_waiver(kind="width_thickness", parcel=shop, motion=motion, by=clerk)


def test_303_3d_8_c_a_majority_vote_is_not_a_width_waiver(shop, clerk):
    motion = _waiver_vote(7, rule="majority_present", number="M-1")
    with pytest.raises(ValidationError) as error:
        services.record_board_waiver(kind="width_thickness", parcel=shop, motion=motion, by=clerk)
    assert "three-fourths of the entire Board" in error.value.message_dict["motion"][0]


def test_303_3d_8_c_waiver_typed_before_the_roster_counts_against_its_seats(shop, clerk):
    """A waiver recorded before the roster (no motion) keeps its typed numbers; 3 ayes typed against 4 seats are not
    three-fourths of the 7 seats on the roster that day."""
    legacy = _typed_waiver(shop, clerk, number="OLD-1", ayes=3, seats=4)
    assert (legacy.ayes, legacy.seats) == (3, 4) and not legacy.is_effective
    six = _typed_waiver(shop, clerk, number="OLD-2", ayes=6, seats=7)
    assert six.is_effective


def _typed_waiver(parcel, clerk, *, number, ayes, seats):
    """A width waiver as recorded before the roster: its numbers typed in, no motion."""
    return BoardWaiver.objects.create(
        kind="width_thickness",
        parcel=parcel,
        resolution_number=number,
        adopted_on=TODAY,
        ayes=ayes,
        seats=seats,
        recorded_by=clerk,
    )


@pytest.mark.parametrize("persona", ["board_member", "president", "dpw_director"])
def test_only_the_clerk_records_board_waivers(shop, persona, request):
    motion = _waiver_vote(7, number="1")
    with pytest.raises(PermissionDenied):
        services.record_board_waiver(
            kind=BoardWaiver.Kind.WIDTH_THICKNESS, parcel=shop, motion=motion, by=request.getfixturevalue(persona)
        )


# --- Issuing --------------------------------------------------------------------------------------------------------


def test_clerk_issues_after_the_fee_is_paid(issued):
    assert issued.status == Status.ISSUED and issued.issued_on == TODAY
    assert [e.to_status for e in issued.events.filter(kind="transition")] == [
        "submitted",
        "under_review",
        "approved",
        "issued",
    ]
    assert issued.notices.filter(template="sidewalk_permit_issued").exists()


def test_clerk_cannot_issue_before_the_fee_is_paid(submitted, clerk):
    with pytest.raises(ValidationError, match="fee payment"):
        services.issue_sidewalk_permit(permit=submitted, by=clerk, today=TODAY)


@pytest.mark.parametrize("persona", ["inspector", "dpw_director", "contractor", "resident"])
def test_only_the_clerk_issues_sidewalk_permits(submitted, persona, request):
    with pytest.raises(PermissionDenied):
        services.issue_sidewalk_permit(permit=submitted, by=request.getfixturevalue(persona), today=TODAY)


# --- Inspections ----------------------------------------------------------------------------------------------------


def inspect_all(permit, inspector):
    for stage, measures in PASSING.items():
        services.record_inspection(
            permit=permit, stage=stage, by=inspector, inspected_at=at(TODAY + timedelta(days=5)), **measures
        )


def test_inspector_passes_every_stage_and_completes(issued, inspector):
    inspect_all(issued, inspector)
    issued.refresh_from_db()
    assert issued.status == Status.ACTIVE
    services.complete_sidewalk_permit(permit=issued, by=inspector, today=TODAY + timedelta(days=6))
    assert issued.status == Status.COMPLETED


@pytest.mark.parametrize("persona", ["resident", "contractor", "clerk", "police_chief"])
def test_only_dpw_inspects(issued, persona, request):
    with pytest.raises(PermissionDenied):
        services.record_inspection(
            permit=issued, stage="curing", by=request.getfixturevalue(persona), curing_method="paper"
        )


def test_inspection_before_issue_is_refused(submitted, inspector):
    with pytest.raises(ValidationError, match="only issued work"):
        services.record_inspection(permit=submitted, stage="curing", by=inspector, curing_method="paper")


def test_failed_subgrade_cites_the_sections_and_holds_the_permit_open(issued, inspector):
    inspect_all(issued, inspector)
    failed = services.record_inspection(
        permit=issued,
        stage="subgrade",
        by=inspector,
        inspected_at=at(TODAY + timedelta(days=6)),
        grading_inches=Decimal("4"),
        subgrade_inches=Decimal("2"),
        subgrade_material="clay",
    )
    assert failed.result == SidewalkInspection.Result.FAILED
    assert failed.citations == "§ 303-3D(2), § 303-3D(3)"
    with pytest.raises(ValidationError, match="stays open"):
        services.complete_sidewalk_permit(permit=issued, by=inspector, today=TODAY + timedelta(days=6))
    services.record_inspection(
        permit=issued, stage="subgrade", by=inspector, inspected_at=at(TODAY + timedelta(days=7)), **PASSING["subgrade"]
    )
    services.complete_sidewalk_permit(permit=issued, by=inspector, today=TODAY + timedelta(days=7))


def cold_waiver(permit, clerk, *, number="E-1", held_on=TODAY, ends_on=POUR_DAY):
    """§ 303-3D(9): the Board waives the cold-weather rule for one emergency on one permit, until `ends_on`."""
    from tests.board_world import vote

    motion = vote(clause="303-3D(9)", ayes=4, held_on=held_on, absent=3, number=number)
    return services.record_board_waiver(
        kind=BoardWaiver.Kind.COLD_WEATHER,
        parcel=permit.parcel,
        permit=permit,
        motion=motion,
        emergency="Water main break undermined the walk",
        ends_on=ends_on,
        reason="Emergency replacement",
        by=clerk,
    )


COLD = {**PASSING["pour"], "forecast_low_f": Decimal("34"), "subgrade_frozen": True}


def test_303_3d_9_cold_pour_fails_unless_the_board_waived_it(issued, inspector, clerk, home):
    failed = services.record_inspection(permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **COLD)
    assert failed.result == "failed" and failed.citations == "§ 303-3D(9)"
    cold_waiver(issued, clerk)
    assert (
        services.record_inspection(permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **COLD).result
        == "passed"
    )


def test_303_3d_9_cold_waiver_excuses_through_its_last_day_not_the_day_after(issued, inspector, clerk):
    cold_waiver(issued, clerk, ends_on=POUR_DAY)
    on_last_day = services.record_inspection(
        permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **COLD
    )
    day_after = services.record_inspection(
        permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY + timedelta(days=1)), **COLD
    )
    assert on_last_day.result == "passed"
    assert day_after.result == "failed" and day_after.citations == "§ 303-3D(9)"


def test_303_3d_9_cold_waiver_excuses_nothing_before_the_board_adopted_it(issued, inspector, clerk):
    cold_waiver(issued, clerk, held_on=POUR_DAY, ends_on=POUR_DAY + timedelta(days=2))
    before = services.record_inspection(
        permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY - timedelta(days=1)), **COLD
    )
    assert before.result == "failed"


def test_303_3d_9_cold_waiver_for_one_permit_does_not_excuse_another_on_the_same_parcel(
    issued, inspector, clerk, contractor, home
):
    from permits.services import record_payment
    from tests.sidewalks.conftest import stand

    other = services.apply_for_sidewalk_permit(applicant=contractor, parcel=home, today=TODAY, **GOOD)
    record_payment(permit=other, amount=other.fee_amount, method="cash", by=clerk)
    other.refresh_from_db()
    services.issue_sidewalk_permit(permit=stand(other, clerk), by=clerk, today=TODAY)
    cold_waiver(issued, clerk)
    reused = services.record_inspection(permit=other, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **COLD)
    assert reused.result == "failed" and "§ 303-3D(9)" in reused.citations


def test_303_3d_9_cold_waiver_names_its_permit_its_emergency_and_its_end(issued, clerk, home):
    from tests.board_world import vote

    motion = vote(clause="303-3D(9)", ayes=4, held_on=TODAY, absent=3, number="E-2")
    with pytest.raises(ValidationError) as exc:
        services.record_board_waiver(kind=BoardWaiver.Kind.COLD_WEATHER, parcel=home, motion=motion, by=clerk)
    codes = {v.code for v in exc.value.violations}
    assert {"permit_required", "emergency_required", "end_required"} <= codes
    assert all(v.citation == "§ 303-3D(9)" for v in exc.value.violations)
    with pytest.raises(ValidationError, match="cannot end before"):
        services.record_board_waiver(
            kind=BoardWaiver.Kind.COLD_WEATHER,
            parcel=home,
            permit=issued,
            motion=motion,
            emergency="Main break",
            ends_on=TODAY - timedelta(days=1),
            by=clerk,
        )
    assert not BoardWaiver.objects.filter(kind=BoardWaiver.Kind.COLD_WEATHER).exists()


def test_303_3d_9_cold_waiver_recorded_without_an_end_excuses_nothing():
    assert not rules.cold_weather_waiver_in_force(adopted_on=TODAY, ends_on=None, on=TODAY)
    assert rules.cold_weather_waiver_in_force(adopted_on=TODAY, ends_on=TODAY, on=TODAY)
    assert not rules.cold_weather_waiver_in_force(adopted_on=TODAY, ends_on=TODAY, on=TODAY + timedelta(days=1))


def test_303_3d_9_pour_below_50_degrees_keeps_traffic_off_96_hours(issued, inspector):
    poured = at(POUR_DAY)
    inspection = services.record_inspection(
        permit=issued,
        stage="pour",
        by=inspector,
        inspected_at=poured,
        **{**PASSING["pour"], "air_temperature_f": Decimal("49")},
    )
    assert inspection.traffic_free_until == poured + timedelta(hours=96)


def test_303_3d_10_failed_curing_suspends_the_work(issued, inspector):
    services.record_inspection(
        permit=issued, stage="curing", by=inspector, curing_method="none", inspected_at=at(POUR_DAY)
    )
    assert SidewalkPermit.objects.get(permit=issued).work_suspended
    assert issued.events.filter(reason__contains="suspended").exists()
    services.record_inspection(
        permit=issued, stage="curing", by=inspector, curing_method="paper", inspected_at=at(POUR_DAY)
    )
    assert not SidewalkPermit.objects.get(permit=issued).work_suspended


def test_inspector_may_fail_an_item_the_measurements_do_not_show(issued, inspector):
    inspection = services.record_inspection(
        permit=issued, stage="forms", by=inspector, other_defect="Forms not oiled", **PASSING["forms"]
    )
    assert inspection.result == "failed" and "Forms not oiled" in inspection.findings


# --- Surveys and orders (§ 303-3E, § 303-3B, Wis. Stat. § 66.0907) ---------------------------------------------------


@pytest.fixture
def survey(elm, inspector, home, shop):
    s = services.start_survey(street=elm, by=inspector, surveyed_on=TODAY)
    # 101 Elm: 4 of 5 blocks defective (80%): replace. 200 Elm: 1 of 5: repair.
    for n, vertical in enumerate(["0.75", "1", "0.8", "2", "0.74"], start=1):
        services.record_block(survey=s, parcel=home, block_number=n, vertical_inches=Decimal(vertical), by=inspector)
    for n in range(1, 6):
        services.record_block(
            survey=s, parcel=shop, block_number=n, horizontal_inches=Decimal("1.25" if n == 3 else "1"), by=inspector
        )
    return s


def test_resident_cannot_survey(elm, resident):
    with pytest.raises(PermissionDenied):
        services.start_survey(street=elm, by=resident)


def test_survey_proposes_replace_at_80_percent_and_repair_below(survey, inspector, home, shop):
    orders = {o.parcel: o for o in services.propose_orders(survey=survey, by=inspector, today=TODAY)}
    replace, repair = orders[home], orders[shop]
    assert (replace.work, replace.quantity, replace.unit, replace.estimated_cost) == (
        "replace",
        Decimal("100"),
        "sqft",
        Decimal("1200.00"),
    )
    assert (repair.work, repair.quantity, repair.unit, repair.estimated_cost) == (
        "repair",
        Decimal("1"),
        "block",
        Decimal("150.00"),
    )
    assert replace.blocks_defective == 4 and replace.blocks_total == 5


def test_proposing_twice_creates_no_second_order(survey, inspector):
    services.propose_orders(survey=survey, by=inspector, today=TODAY)
    services.propose_orders(survey=survey, by=inspector, today=TODAY)
    assert SidewalkOrder.objects.count() == 2


def test_blocks_cannot_change_after_orders_are_proposed(survey, inspector, home):
    services.propose_orders(survey=survey, by=inspector, today=TODAY)
    with pytest.raises(ValidationError):
        services.record_block(survey=survey, parcel=home, block_number=1, by=inspector)


@pytest.fixture
def served(survey, inspector, clerk, home):
    orders = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    adopt_orders(orders, clerk, number="2026-20", held_on=TODAY + timedelta(days=7))
    order = SidewalkOrder.objects.get(parcel=home)
    return services.serve_order(
        order=order, method="certified_mail", served_on=date(2026, 6, 10), proof="7019 2280 0000 1234 5678", by=clerk
    )


def test_serving_records_method_date_proof_and_the_owners_deadline(served):
    assert served.status == "served" and served.owner_deadline == date(2026, 6, 30)
    assert served.service_method == "certified_mail" and served.service_proof.startswith("7019")
    notice = Notice.objects.get(template="sidewalk_order_served")
    assert notice.to == "olga@example.com" and "June 30, 2026" in notice.body


def test_66_0907_service_without_proof_is_refused(survey, inspector, clerk):
    [order, *_] = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    adopt_orders([order], clerk, number="2026-20", held_on=TODAY)
    with pytest.raises(ValidationError) as error:
        services.serve_order(order=order, method="email", served_on=TODAY, proof="", by=clerk)
    assert set(error.value.message_dict) == {"service_method", "service_proof"}


def test_only_the_clerk_records_adoption(survey, inspector, board_member):
    orders = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    with pytest.raises(PermissionDenied):
        services.adopt_orders(orders=orders, motion=None, by=board_member)


def test_66_0907_village_may_not_work_on_the_twentieth_day(served, dpw_director):
    with pytest.raises(ValidationError, match="June 30, 2026"):
        services.record_village_work(order=served, cost=Decimal("1500"), done_on=date(2026, 6, 30), by=dpw_director)


def test_303_3b_2_village_work_after_the_deadline_becomes_a_pending_special_assessment(served, dpw_director, clerk):
    services.record_village_work(order=served, cost=Decimal("1480.50"), done_on=date(2026, 7, 1), by=dpw_director)
    charge = services.charge_order(order=served, by=clerk, today=date(2026, 7, 2))
    assert (charge.source, charge.route, charge.amount, charge.status) == (
        "sidewalk_repair",
        "special_assessment_66_0703",
        Decimal("1480.50"),
        "pending",
    )
    assert charge.awaiting_levy and not charge.awaiting_hearing
    assert charge.work_record == served and charge.parcel == served.parcel
    served.refresh_from_db()
    assert served.status == "charged" and served.charge == charge


def test_charging_twice_charges_once(served, dpw_director, clerk):
    services.record_village_work(order=served, cost=Decimal("100"), done_on=date(2026, 7, 1), by=dpw_director)
    services.charge_order(order=served, by=clerk, today=date(2026, 7, 2))
    with pytest.raises(ValidationError):
        services.charge_order(order=served, by=clerk, today=date(2026, 7, 2))
    assert SpecialCharge.objects.count() == 1


def test_303_3b_2_recorded_highland_theresa_project_halves_the_owners_charge(served, dpw_director, clerk):
    SidewalkOrder.objects.filter(pk=served.pk).update(highland_theresa_project=True)
    served.refresh_from_db()
    services.record_village_work(order=served, cost=Decimal("1000"), done_on=date(2026, 7, 1), by=dpw_director)
    assert services.charge_order(order=served, by=clerk, today=date(2026, 7, 2)).amount == Decimal("500.00")


def test_owner_doing_the_work_under_a_permit_satisfies_the_order(served, resident, home, clerk, inspector):
    home.owners.add(resident)  # § 303-3C: the owner of record files
    permit = services.apply_for_sidewalk_permit(
        applicant=resident, parcel=home, today=TODAY, **{**GOOD, "work": "replace", "existing_width_feet": Decimal("4")}
    )
    from permits.services import record_payment

    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    with pytest.raises(ValidationError, match="completed"):
        services.record_owner_work(order=served, permit=permit, by=clerk)
    for stage, measures in PASSING.items():
        services.record_inspection(permit=permit, stage=stage, by=inspector, inspected_at=at(POUR_DAY), **measures)
    services.complete_sidewalk_permit(permit=permit, by=inspector, today=POUR_DAY)
    services.record_owner_work(order=served, permit=permit, by=clerk)
    assert served.status == "owner_done" and served.owner_permit == permit
    with pytest.raises(IllegalTransition):  # done by the owner: the Village has nothing left to do
        services.record_village_work(order=served, cost=1, done_on=date(2026, 8, 1), by=clerk)


def test_303_3f_illegal_walk_is_proposed_for_replacement_at_the_legal_width(shop, dpw_director):
    order = order_illegal(shop, dpw_director)
    assert (order.reason, order.work, order.quantity, order.estimated_cost) == (
        "illegal",
        "replace",
        Decimal("250.0"),
        Decimal("3000.00"),
    )
    assert "§ 303-3F" in order.findings and "§ 303-3D(8)(b)" in order.findings


def test_303_3f_a_legal_walk_cannot_be_ordered_replaced_as_illegal(home, dpw_director):
    with pytest.raises(ValidationError, match="legal sidewalk"):
        order_illegal(home, dpw_director, frontage_feet=50, width_feet=4, thickness_inches=4)


def test_303_3f_resident_cannot_propose_an_order(home, resident):
    with pytest.raises(PermissionDenied):
        order_illegal(home, resident, frontage_feet=50, width_feet=3, thickness_inches=4)


def test_303_3d_8_forms_inspection_checks_the_width_as_built(issued, inspector):
    narrow = services.record_inspection(
        permit=issued,
        stage="forms",
        by=inspector,
        inspected_at=at(POUR_DAY),
        form_width_feet=Decimal("3.9"),
        **PASSING["forms"],
    )
    assert narrow.result == "failed" and narrow.citations == "§ 303-3D(8)(a)"
    wide = services.record_inspection(
        permit=issued,
        stage="forms",
        by=inspector,
        inspected_at=at(POUR_DAY),
        form_width_feet=Decimal("4"),
        **PASSING["forms"],
    )
    assert wide.result == "passed"


def test_survey_orders_record_their_findings(survey, inspector, home):
    services.propose_orders(survey=survey, by=inspector, today=TODAY)
    assert SidewalkOrder.objects.get(parcel=home).findings.startswith(
        "§ 303-3E(1): 4 of 5 blocks defective; § 303-3E(2)"
    )


def test_clerk_withdraws_an_order_with_its_reason(served, clerk, dpw_director):
    with pytest.raises(ValidationError):
        services.withdraw_order(order=served, reason=" ", by=clerk)
    with pytest.raises(PermissionDenied):
        services.withdraw_order(order=served, reason="Rescinded", by=dpw_director)
    services.withdraw_order(order=served, reason="Board rescinded resolution 2026-20 on July 1", by=clerk)
    served.refresh_from_db()
    assert served.status == "withdrawn" and "rescinded" in served.findings
    with pytest.raises(IllegalTransition):  # a withdrawn order is not carried out
        services.record_village_work(order=served, cost=1, done_on=date(2026, 8, 1), by=clerk)


def test_303_3b_3_adoption_needs_the_boards_resolution_number(survey, inspector, clerk):
    orders = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    with pytest.raises(ValidationError, match="§ 303-3B\\(3\\)"):
        adopt_orders(orders, clerk, number=" ", held_on=TODAY)
    assert adopt_orders(orders, clerk, number="2026-20", held_on=TODAY) == 2
    with pytest.raises(IllegalTransition):  # adopted once: a second resolution cannot adopt it again
        adopt_orders(orders[:1], clerk, number="2026-21", held_on=TODAY)


def test_303_3a_the_boards_resolution_turns_proposed_orders_into_adopted_orders(survey, inspector, clerk):
    orders = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    assert {o.status for o in orders} == {"proposed"}
    adopt_orders(orders, clerk, number="2026-22", held_on=TODAY)
    for order in orders:
        order.refresh_from_db()
        assert order.status == "adopted" and order.resolution_number == "2026-22"


def test_303_3b_3_no_order_is_adopted_without_the_boards_carried_motion(survey, inspector, clerk):
    from permits.errors import RulesBroken
    from tests.board_world import vote

    orders = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    with pytest.raises(RulesBroken) as broken:  # a typed resolution number is not the Board acting
        services.adopt_orders(orders=orders, motion=None, by=clerk, today=TODAY)
    assert broken.value.violations[0].code == "no_motion"
    failed = vote(clause="303-3B(3)", ayes=2, nays=5, held_on=TODAY, number="2026-30", clerk=clerk)
    with pytest.raises(RulesBroken) as broken:
        services.adopt_orders(orders=orders, motion=failed, by=clerk, today=TODAY)
    assert "motion_failed" in {v.code for v in broken.value.violations}
    assert {o.status for o in SidewalkOrder.objects.all()} == {"proposed"}


def test_303_3d_9_the_waiver_request_page_asks_the_permit_and_the_last_day(client, clerk, issued, home):
    from django.urls import reverse

    from sidewalks.models import WaiverRequest

    client.force_login(clerk)
    url = reverse("sidewalks:waiver_request")
    data = {"kind": "cold_weather", "tax_key": home.tax_key, "reason": "Water main break"}
    response = client.post(url, data)
    assert response.status_code == 200 and not WaiverRequest.objects.exists()
    errors = response.context["form"].errors
    assert "§ 303-3D(9)" in errors["permit_number"][0] and "§ 303-3D(9)" in errors["ends_on"][0]
    response = client.post(url, {**data, "permit_number": issued.number, "ends_on": "2026-06-10"})
    assert response.status_code == 302
    request = WaiverRequest.objects.get()
    assert request.permit == issued and request.ends_on == date(2026, 6, 10)
