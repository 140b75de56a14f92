"""Boundary tests of the field rules, one per clause, named after the section."""

from datetime import date, datetime, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest

from permits.street_opening.field import rules as r

CHICAGO = ZoneInfo("America/Chicago")


def at(y, m, d, hh=8, mm=0):
    return datetime(y, m, d, hh, mm, tzinfo=CHICAGO)


def codes(violations):
    return [v.code for v in violations]


# § 303-5E(1) backfill


def test_303_5e_1_an_8_inch_stone_passes():
    assert r.backfill_violations(largest_stone_inches=D("8")) == []


def test_303_5e_1_an_8_and_a_quarter_inch_stone_fails():
    [v] = r.backfill_violations(largest_stone_inches=D("8.25"))
    assert v.code == "stone_too_large" and v.citation == "§ 303-5E(1)" and "§ 303-5E(1)" in v.message


@pytest.mark.parametrize("material", ["cinders_or_ashes", "refuse", "organic_matter", "frozen_lumps"])
def test_303_5e_1_unsuitable_material_fails(material):
    [v] = r.backfill_violations(largest_stone_inches=D("2"), found={material})
    assert v.field == material and "§ 303-5E(1)" in v.message


# § 303-5E(4) compaction


def test_303_5e_4_94_9_percent_fails():
    [v] = r.compaction_violations(lift_inches=D("12"), percent_of_proctor=D("94.9"))
    assert v.code == "under_compacted" and "§ 303-5E(4)" in v.message


def test_303_5e_4_95_0_percent_passes():
    assert r.compaction_violations(lift_inches=D("12"), percent_of_proctor=D("95.0")) == []


def test_303_5e_4_94_99_percent_is_not_rounded_up():
    assert codes(r.compaction_violations(lift_inches=D("6"), percent_of_proctor=D("94.99"))) == ["under_compacted"]


def test_303_5e_4_a_12_inch_lift_passes_and_12_1_fails():
    assert r.compaction_violations(lift_inches=D("12"), percent_of_proctor=D("96")) == []
    assert codes(r.compaction_violations(lift_inches=D("12.1"), percent_of_proctor=D("96"))) == ["lift_too_thick"]


def test_303_5e_4_flooding_and_non_mechanical_compaction_fail():
    got = r.compaction_violations(lift_inches=D("8"), percent_of_proctor=D("97"), mechanical=False, flooded=True)
    assert codes(got) == ["not_mechanical", "flooded"]


def test_303_5e_4_every_broken_rule_is_listed_at_once():
    got = r.compaction_violations(lift_inches=D("14"), percent_of_proctor=D("90"), flooded=True)
    assert codes(got) == ["lift_too_thick", "under_compacted", "flooded"]


# § 303-5E(5) retest


def test_303_5e_5_a_failed_compaction_charges_a_retest():
    assert r.retest_is_charged(kind="compaction", passed=False)
    assert not r.retest_is_charged(kind="compaction", passed=True)
    assert not r.retest_is_charged(kind="backfill", passed=False)
    assert r.RETEST_FEE_CODE == "backfill_retest"


def test_303_5e_5_failure_stays_open_until_a_later_test_passes():
    assert not r.compaction_failure_open([])
    assert r.compaction_failure_open([(at(2026, 6, 1, 9), True), (at(2026, 6, 1, 10), False)])
    assert not r.compaction_failure_open([(at(2026, 6, 1, 11), True), (at(2026, 6, 1, 10), False)])


# § 303-5G(1) stone base


def test_303_5g_1_four_and_four_inches_pass():
    assert r.stone_base_violations(three_inch_stone_inches=D("4"), three_quarter_stone_inches=D("4")) == []


def test_303_5g_1_three_and_three_quarter_inches_fail():
    got = r.stone_base_violations(three_inch_stone_inches=D("3.75"), three_quarter_stone_inches=D("3.9"))
    assert codes(got) == ["stone_base_thin", "stone_top_thin"]


# § 303-5G(2) bituminous


def test_303_5g_2_minimum_is_2_5_inches_or_existing_depth():
    assert r.required_bituminous_inches(D("2")) == D("2.5")
    assert r.required_bituminous_inches(D("4")) == D("4")


def _bit(**kw):
    base = dict(
        existing_inches=D("2"),
        depth_inches=D("2.5"),
        thickest_base_layer_inches=D("1.5"),
        top_layer_inches=D("1"),
        straightedge_deviation_inches=D("0.25"),
    )
    return r.bituminous_violations(**{**base, **kw})


def test_303_5g_2_2_5_inches_in_1_5_and_1_inch_layers_pass():
    assert _bit() == []


def test_303_5g_2_2_4_inches_fail():
    assert codes(_bit(depth_inches=D("2.4"))) == ["bituminous_too_thin"]


def test_303_5g_2_existing_4_inches_needs_4_inches():
    assert codes(_bit(existing_inches=D("4"), depth_inches=D("3.9"))) == ["bituminous_too_thin"]
    assert _bit(existing_inches=D("4"), depth_inches=D("4")) == []


def test_303_5g_2_layers_thicker_than_1_5_and_1_inch_fail():
    assert codes(_bit(thickest_base_layer_inches=D("1.6"), top_layer_inches=D("1.1"))) == [
        "base_layer_too_thick",
        "top_layer_too_thick",
    ]


def test_303_5g_2_quarter_inch_under_straightedge_passes_and_0_26_fails():
    assert r.straightedge_violations(deviation_inches=D("0.25")) == []
    [v] = r.straightedge_violations(deviation_inches=D("0.26"))
    assert "§ 303-5G(2)" in v.message


# § 303-5G(3) concrete


def test_303_5g_3_minimum_is_7_inches_or_existing_depth():
    assert r.required_concrete_inches(D("6")) == D("7")
    assert r.required_concrete_inches(D("8")) == D("8")


def test_303_5g_3_6_9_inches_fail_and_7_pass():
    assert codes(r.concrete_violations(existing_inches=D("6"), depth_inches=D("6.9"), calcium_chloride=False)) == [
        "concrete_too_thin"
    ]
    assert r.concrete_violations(existing_inches=D("6"), depth_inches=D("7"), calcium_chloride=False) == []


def test_303_5g_3_calcium_chloride_fails():
    got = r.concrete_violations(existing_inches=D("7"), depth_inches=D("7"), calcium_chloride=True)
    assert codes(got) == ["calcium_chloride"]


def test_303_5g_3_open_to_traffic_on_the_third_day_after_pouring_not_before():
    poured = date(2026, 6, 1)
    assert r.concrete_open_to_traffic_on(poured) == date(2026, 6, 4)
    ok = dict(existing_inches=D("7"), depth_inches=D("7"), calcium_chloride=False, poured_on=poured)
    assert r.concrete_violations(**ok, opened_to_traffic_on=date(2026, 6, 4)) == []
    assert codes(r.concrete_violations(**ok, opened_to_traffic_on=date(2026, 6, 3))) == ["opened_too_soon"]


# § 303-5B(1) trench


def test_303_5b_1_250_feet_ahead_and_500_unfilled_pass():
    assert r.trench_violations(excavated_ahead_feet=D("250"), unfilled_feet=D("500")) == []


def test_303_5b_1_251_feet_ahead_and_501_unfilled_fail():
    got = r.trench_violations(excavated_ahead_feet=D("251"), unfilled_feet=D("501"))
    assert codes(got) == ["trench_too_far_ahead", "trench_unfilled"]
    assert all(v.citation == "§ 303-5B(1)" for v in got)


def test_303_5b_1_dpw_special_permission_allows_more():
    assert r.trench_violations(excavated_ahead_feet=D("400"), unfilled_feet=D("900"), special_permission=True) == []


# § 303-1C


def test_303_1c_1_three_feet_of_cover_passes_and_2_9_fails():
    assert r.underground_depth_violations(cover_feet=D("3")) == []
    assert codes(r.underground_depth_violations(cover_feet=D("2.9"))) == ["too_shallow"]


def test_303_1c_4_construction_may_not_be_covered_before_a_requested_inspection():
    assert codes(r.covering_violations(inspection_requested=True, inspected=False)) == ["covered_before_inspection"]
    assert r.covering_violations(inspection_requested=True, inspected=True) == []
    assert r.covering_violations(inspection_requested=False, inspected=False) == []


def test_303_1c_8_final_inspection_fails_when_surface_not_restored():
    [v] = r.inspection_violations("final", {"surface_restored": False})
    assert v.citation == "§ 303-1C(8)"
    assert r.inspection_violations("final", {"surface_restored": True}) == []


def test_303_4f_1_damaged_curb_gutter_sidewalk_or_grass_left_unrestored_fails_the_final_inspection():
    [v] = r.inspection_violations("final", {"surface_restored": False})
    assert "§ 303-4F(1)" in v.message
    assert r.inspection_violations("final", {"surface_restored": True}) == []


# § 303-5G(4) pavement deadlines


def test_303_5g_4_winter_patch_is_due_the_following_june_1():
    assert r.permanent_pavement_due(permit_date=date(2026, 12, 10), temporary_placed_on=date(2026, 12, 10)) == date(
        2027, 6, 1
    )
    assert r.permanent_pavement_due(permit_date=date(2027, 2, 3), temporary_placed_on=date(2027, 2, 3)) == date(
        2027, 6, 1
    )


def test_303_5g_4_june_1_is_on_time():
    assert not r.is_pavement_overdue(due_on=date(2027, 6, 1), completed_on=None, today=date(2027, 6, 1))


def test_303_5g_4_june_2_is_overdue():
    assert r.is_pavement_overdue(due_on=date(2027, 6, 1), completed_on=None, today=date(2027, 6, 2))
    assert not r.is_pavement_overdue(due_on=date(2027, 6, 1), completed_on=date(2027, 5, 30), today=date(2027, 6, 2))


def test_303_5g_4_permanent_pavement_due_60_days_after_the_permit_date():
    due = r.permanent_pavement_due(permit_date=date(2026, 6, 1))
    assert due == date(2026, 7, 31)
    assert not r.is_pavement_overdue(due_on=due, completed_on=None, today=date(2026, 7, 31))
    assert r.is_pavement_overdue(due_on=due, completed_on=None, today=date(2026, 8, 1))


def test_303_5g_4_the_permit_date_is_the_issue_date_else_the_approval_date():
    assert r.permit_date_of(issued_on=date(2026, 6, 3), approved_on=date(2026, 6, 1)) == date(2026, 6, 3)
    assert r.permit_date_of(issued_on=None, approved_on=date(2026, 6, 1)) == date(2026, 6, 1)


def test_303_5g_4_cold_mix_of_3_inches_passes_and_2_9_fails():
    assert r.temporary_surface_violations(depth_inches=D("3"), emergency=True, placed_on=date(2026, 12, 1)) == []
    got = r.temporary_surface_violations(depth_inches=D("2.9"), emergency=True, placed_on=date(2026, 12, 1))
    assert codes(got) == ["cold_mix_too_thin"]


def test_303_5g_4_temporary_surface_only_for_winter_emergencies():
    assert codes(r.temporary_surface_violations(depth_inches=D("3"), emergency=False, placed_on=date(2026, 12, 1))) == [
        "temporary_not_allowed"
    ]
    assert codes(r.temporary_surface_violations(depth_inches=D("3"), emergency=True, placed_on=date(2026, 4, 2))) == [
        "temporary_not_allowed"
    ]
    assert r.temporary_surface_violations(depth_inches=D("3"), emergency=True, placed_on=date(2026, 4, 1)) == []
    assert codes(r.temporary_surface_violations(depth_inches=D("3"), emergency=True, placed_on=date(2026, 11, 14))) == [
        "temporary_not_allowed"
    ]
    assert r.temporary_surface_violations(depth_inches=D("3"), emergency=True, placed_on=date(2026, 11, 15)) == []


# § 303-4H(3) guarantee


def test_303_4h_3_guarantee_runs_through_the_anniversary_of_completion():
    assert r.guarantee_ends_on(date(2026, 7, 15)) == date(2027, 7, 15)
    assert r.guarantee_in_force(completed_on=date(2026, 7, 15), today=date(2027, 7, 15))
    assert not r.guarantee_in_force(completed_on=date(2026, 7, 15), today=date(2027, 7, 16))


def test_303_4h_3_completion_on_february_29_ends_february_28():
    assert r.guarantee_ends_on(date(2028, 2, 29)) == date(2029, 2, 28)


# § 303-4H(4) the Board's finding, § 303-4H(2) the DPW's notice of faulty work


def _defect(**kw):
    base = dict(
        completed_on=date(2026, 7, 15),
        found_on=date(2027, 3, 1),
        defect="Settled patch",
        work_to_be_done="Mill and overlay",
        estimated_cost=D("1200.00"),
        deadline=date(2027, 4, 1),
        addressed_to="permittee",
    )
    return r.defect_finding_violations(**{**base, **kw})


def _faulty(**kw):
    base = dict(
        work_under_way=True,
        found_on=date(2026, 6, 10),
        defect="Frozen lumps in the backfill",
        work_to_be_done="Re-excavate and backfill",
        estimated_cost=D("800.00"),
        deadline=date(2026, 6, 11),
    )
    return r.faulty_work_notice_violations(**{**base, **kw})


def test_303_4h_4_complete_notice_passes():
    assert _defect() == []
    assert _defect(addressed_to="surety") == []


def test_303_4h_4_notice_must_state_defect_work_cost_and_time():
    got = _defect(defect=" ", work_to_be_done="", estimated_cost=None, deadline=date(2027, 3, 1), addressed_to="x")
    assert codes(got) == ["required", "required", "required", "deadline_not_after_notice", "addressee"]
    assert all("§ 303-4H(4)" in v.message for v in got)


def test_303_4h_4_defect_found_on_the_anniversary_is_in_time_and_the_day_after_is_not():
    assert _defect(found_on=date(2027, 7, 15), deadline=date(2027, 8, 1)) == []
    assert codes(_defect(found_on=date(2027, 7, 16), deadline=date(2027, 8, 1))) == ["outside_guarantee"]


def test_303_4h_4_no_board_finding_before_completion():
    assert codes(_defect(completed_on=None)) == ["outside_guarantee"]


def test_303_4h_2_faulty_work_notice_while_under_way_only():
    assert _faulty() == []
    got = _faulty(work_under_way=False)
    assert codes(got) == ["not_under_way"]
    assert "§ 303-4H(4)" in got[0].message and got[0].citation == "§ 303-4H(2)"


def test_303_4h_2_faulty_work_deadline_the_day_after_the_notice_is_the_earliest():
    assert _faulty(deadline=date(2026, 6, 11)) == []
    got = _faulty(deadline=date(2026, 6, 10), defect="", estimated_cost=D("-1"))
    assert codes(got) == ["required", "required", "deadline_not_after_notice"]
    assert all("§ 303-4H(2)" in v.message for v in got)


# § 303-4H(2) failure, Village repair, revocation


def test_303_4h_2_deadline_day_is_in_time_and_the_day_after_is_a_failure():
    assert not r.is_defect_past_deadline(deadline=date(2027, 4, 1), corrected_on=None, today=date(2027, 4, 1))
    assert r.is_defect_past_deadline(deadline=date(2027, 4, 1), corrected_on=None, today=date(2027, 4, 2))
    assert not r.is_defect_past_deadline(
        deadline=date(2027, 4, 1), corrected_on=date(2027, 3, 30), today=date(2027, 4, 2)
    )


def test_303_4h_2_village_repair_bills_labor_materials_equipment_plus_20_percent():
    bill = r.village_repair_bill(labor=D("400.00"), materials=D("250.50"), equipment=D("100"))
    assert bill.subtotal == D("750.50")
    assert bill.administration == D("150.10")
    assert bill.total == D("900.60")


def test_303_4h_2_administration_rounds_half_up_to_the_cent():
    bill = r.village_repair_bill(labor=D("0.03"), materials=D("0"), equipment=D("0"))
    assert bill.administration == D("0.01")  # 0.006 -> 0.01
    assert bill.total == D("0.04")


def test_303_4h_2_negative_amounts_are_refused():
    with pytest.raises(ValueError, match="§ 303-4H"):
        r.village_repair_bill(labor=D("-1"), materials=D("0"), equipment=D("0"))


def test_303_4h_2_revocation_lasts_one_year():
    assert r.revocation_ends_on(date(2027, 4, 2)) == date(2028, 4, 2)


# Notices the permittee gives


def test_303_5b_4_dpw_notice_24_hours_before_is_on_time():
    planned = at(2026, 6, 10, 8)
    assert r.notice_timeliness("dpw_excavation", given_at=at(2026, 6, 9, 8), planned_at=planned) == r.ON_TIME


def test_303_5b_4_dpw_notice_23h59_before_is_late():
    planned = at(2026, 6, 10, 8)
    assert r.notice_timeliness("dpw_excavation", given_at=at(2026, 6, 9, 8, 1), planned_at=planned) == r.LATE


def test_303_5b_4_not_required_for_an_emergency():
    planned = at(2026, 6, 10, 8)
    got = r.notice_timeliness("dpw_excavation", given_at=planned, planned_at=planned, emergency=True)
    assert got == r.NOT_REQUIRED


def test_303_5b_4_24_hours_are_real_hours_across_daylight_saving():
    planned = at(2026, 3, 8, 8)  # 8:00 CDT on Sunday March 8, 2026; clocks sprang forward at 2:00 that morning
    due = r.notice_due_by("dpw_excavation", planned)
    assert planned.astimezone(r.UTC) - due.astimezone(r.UTC) == timedelta(hours=24)
    assert due.hour == 7  # 7:00 CST on Saturday is 24 real hours earlier


def test_303_5b_5_outage_notice_12_hours_before_is_on_time_and_11h59_late():
    planned = at(2026, 6, 10, 20)
    assert r.notice_timeliness("utility_outage", given_at=at(2026, 6, 10, 8), planned_at=planned) == r.ON_TIME
    assert r.notice_timeliness("utility_outage", given_at=at(2026, 6, 10, 8, 1), planned_at=planned) == r.LATE
    assert r.notice_timeliness("utility_outage", given_at=planned, planned_at=planned, emergency=True) == r.NOT_REQUIRED


def test_303_5f_backfill_notice_4_hours_before_is_on_time_and_3h59_late():
    planned = at(2026, 6, 10, 13)
    assert r.notice_timeliness("dpw_backfill", given_at=at(2026, 6, 10, 9), planned_at=planned) == r.ON_TIME
    assert r.notice_timeliness("dpw_backfill", given_at=at(2026, 6, 10, 9, 1), planned_at=planned) == r.LATE
    # § 303-5F has no emergency exception
    assert (
        r.notice_timeliness("dpw_backfill", given_at=at(2026, 6, 10, 9, 1), planned_at=planned, emergency=True)
        == r.LATE
    )


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5f_affected_parties_one_business_day_before_monday_is_friday():
    planned = at(2026, 6, 8, 8)  # Monday
    assert r.notice_due_by("affected_parties", planned) == at(2026, 6, 5, 8)  # Friday 8:00
    assert r.notice_timeliness("affected_parties", given_at=at(2026, 6, 5, 8), planned_at=planned) == r.ON_TIME
    assert r.notice_timeliness("affected_parties", given_at=at(2026, 6, 5, 8, 1), planned_at=planned) == r.LATE
    assert r.notice_timeliness("affected_parties", given_at=at(2026, 6, 6, 9), planned_at=planned) == r.LATE


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5f_affected_parties_skips_a_day_the_office_is_closed():
    planned = at(2026, 7, 6, 7)  # Monday; Saturday July 4, 2026 stays on the Saturday (Wis. Stat. § 995.20)
    assert r.notice_due_by("affected_parties", planned) == at(2026, 7, 3, 7)  # Friday is a business day
    from permits.models import OfficeClosure

    OfficeClosure.objects.create(day=date(2026, 7, 3), name="Office closed for Independence Day")  # the clerk's
    assert r.notice_due_by("affected_parties", planned) == at(2026, 7, 2, 7)


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5f_affected_parties_midweek_is_the_day_before():
    planned = at(2026, 6, 10, 7)  # Wednesday
    assert r.notice_due_by("affected_parties", planned) == at(2026, 6, 9, 7)
    assert r.notice_timeliness("affected_parties", given_at=at(2026, 6, 9, 6, 59), planned_at=planned) == r.ON_TIME


def test_notice_reminder_is_a_day_before_the_notice_is_due():
    planned = at(2026, 6, 10, 8)
    assert r.notice_reminder_at("dpw_excavation", planned) == at(2026, 6, 8, 8)


def test_inspection_dispatcher_checks_pavement_by_surface():
    got = r.inspection_violations(
        "pavement",
        {
            "surface": "bituminous",
            "existing_pavement_inches": D("2"),
            "depth_inches": D("2.4"),
            "base_layer_inches": D("1.4"),
            "top_layer_inches": D("1"),
            "straightedge_deviation_inches": D("0.3"),
            "three_inch_stone_inches": D("4"),
            "three_quarter_stone_inches": D("3"),
        },
    )
    assert codes(got) == ["stone_top_thin", "bituminous_too_thin", "surface_uneven"]
    got = r.inspection_violations(
        "pavement",
        {
            "surface": "concrete",
            "existing_pavement_inches": D("6"),
            "depth_inches": D("7"),
            "calcium_chloride": True,
        },
    )
    assert codes(got) == ["calcium_chloride"]


def test_303_5b_4_and_5_emergencies_owe_only_the_303_5f_notices():
    assert r.required_notices(utility_interruption=True, emergency=False) == [
        "dpw_excavation",
        "affected_parties",
        "utility_outage",
        "dpw_backfill",
    ]
    assert r.required_notices(utility_interruption=False, emergency=False) == [
        "dpw_excavation",
        "affected_parties",
        "dpw_backfill",
    ]
    assert r.required_notices(utility_interruption=True, emergency=True) == ["affected_parties", "dpw_backfill"]


def test_303_1c_4_underground_check_fails_when_already_covered():
    got = r.inspection_violations("underground_depth", {"cover_feet": D("3"), "covered_before_check": True})
    assert codes(got) == ["covered_before_inspection"]
    assert r.inspection_violations("underground_depth", {"cover_feet": D("3")}) == []
