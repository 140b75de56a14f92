"""Boundary tests of the § 303-3 sidewalk rules and Wis. Stat. § 66.0907, named after their sections."""

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from sidewalks import rules as o

MONDAY = date(2026, 6, 1)


def codes(violations):
    return sorted(v.code for v in violations)


def fields(violations):
    return sorted(v.field for v in violations)


# --- § 303-3C ---------------------------------------------------------------------------------------------------------


def test_303_3c_two_days_ahead_is_too_soon():
    [v] = o.check_lead_time(obtained_on=MONDAY, pour_date=MONDAY + timedelta(days=2), village_contract=False)
    assert v.citation == "§ 303-3C" and v.field == "pour_date" and "§ 303-3C" in v.message


def test_303_3c_three_calendar_days_ahead_is_enough():
    assert o.check_lead_time(obtained_on=MONDAY, pour_date=MONDAY + timedelta(days=3), village_contract=False) == []


def test_303_3c_four_days_ahead_is_enough():
    assert o.check_lead_time(obtained_on=MONDAY, pour_date=MONDAY + timedelta(days=4), village_contract=False) == []


def test_303_3c_counts_calendar_days_across_a_weekend():
    friday = date(2026, 6, 5)
    assert o.earliest_work_date(friday) == date(2026, 6, 8)  # Monday, although only one business day between


def test_303_3c_a_claimed_village_contract_waives_nothing_it_needs_no_permit():
    [v] = o.village_contract_errors(True)
    assert (v.field, v.code, v.citation) == ("village_contract", "contract_needs_no_permit", "§ 303-3C")
    assert o.village_contract_errors(False) == []
    # An application claiming a contract is refused for it, and its lead time is still checked.
    found = o.check_application(
        applied_on=MONDAY,
        land_use="residential",
        work="new",
        width_feet=4,
        thickness_inches=4,
        pour_date=MONDAY,
        village_contract=True,
    )
    assert {"contract_needs_no_permit", "too_soon"} <= {v.code for v in found}


# --- § 303-3D(4) ------------------------------------------------------------------------------------------------------


def test_303_3d_4_bituminous_is_prohibited():
    [v] = o.check_material("bituminous")
    assert v.citation == "§ 303-3D(4)" and "prohibited" in v.message


def test_303_3d_4_concrete_is_accepted():
    assert o.check_material("concrete") == []


def test_303_3d_4_3499_psi_is_too_weak_and_3500_passes():
    assert codes(o.check_concrete_mix(psi_at_28_days=3499, sacks_per_cubic_yard=6)) == ["weak_concrete"]
    assert o.check_concrete_mix(psi_at_28_days=3500, sacks_per_cubic_yard=6) == []


def test_303_3d_4_five_and_a_half_sacks_is_too_few_and_six_pass():
    assert codes(o.check_concrete_mix(psi_at_28_days=4000, sacks_per_cubic_yard=Decimal("5.9"))) == ["lean_mix"]
    assert o.check_concrete_mix(psi_at_28_days=4000, sacks_per_cubic_yard=Decimal("6")) == []


# --- § 303-3D(8) ------------------------------------------------------------------------------------------------------


def residential(**kw):
    args = dict(land_use="residential", work="new", width_feet=4, thickness_inches=4, driveway_thickness_inches=6)
    return o.check_width_and_thickness(**{**args, **kw})


def commercial(**kw):
    args = dict(land_use="commercial", work="new", width_feet=5, thickness_inches=5, driveway_thickness_inches=7)
    return o.check_width_and_thickness(**{**args, **kw})


def test_303_3d_8_a_residential_four_feet_four_inches_six_at_driveways_pass():
    assert residential() == []


def test_303_3d_8_a_residential_just_under_each_minimum_fails():
    errors = residential(
        width_feet=Decimal("3.9"), thickness_inches=Decimal("3.9"), driveway_thickness_inches=Decimal("5.9")
    )
    assert fields(errors) == ["driveway_thickness_inches", "thickness_inches", "width_feet"]
    assert {v.citation for v in errors} == {"§ 303-3D(8)(a)"}


def test_303_3d_8_a_replacement_may_keep_existing_narrower_width():
    assert residential(work="replace", width_feet=3, existing_width_feet=3) == []


def test_303_3d_8_a_replacement_never_narrower_than_existing():
    [v] = residential(work="repair", width_feet=Decimal("2.9"), existing_width_feet=3)
    assert v.field == "width_feet" and "existing width" in v.message


def test_303_3d_8_a_replacement_of_a_wider_walk_needs_only_four_feet():
    assert residential(work="replace", width_feet=4, existing_width_feet=5) == []


def test_303_3d_8_a_new_walk_cannot_use_the_existing_width_proviso():
    assert fields(residential(work="new", width_feet=3, existing_width_feet=3)) == ["width_feet"]


def test_303_3d_8_a_replacement_must_give_the_existing_width():
    assert fields(residential(work="replace")) == ["existing_width_feet"]


def test_303_3d_8_b_commercial_five_feet_five_inches_seven_at_driveways_pass():
    assert commercial() == [] and commercial(land_use="industrial") == []


def test_303_3d_8_b_commercial_just_under_each_minimum_fails():
    errors = commercial(
        width_feet=Decimal("4.9"), thickness_inches=Decimal("4.9"), driveway_thickness_inches=Decimal("6.9")
    )
    assert fields(errors) == ["driveway_thickness_inches", "thickness_inches", "width_feet"]
    assert {v.citation for v in errors} == {"§ 303-3D(8)(b)"}


def test_303_3d_8_b_commercial_replacement_cannot_keep_narrower_width():
    assert fields(commercial(work="replace", width_feet=4, existing_width_feet=4)) == ["width_feet"]


def test_303_3d_8_c_waiver_covers_width_and_thickness_not_driveways():
    errors = commercial(width_feet=4, thickness_inches=4, driveway_thickness_inches=6, waived=True)
    assert fields(errors) == ["driveway_thickness_inches"]


def test_303_3d_8_c_waiver_never_applies_to_residential_walks():
    assert fields(residential(width_feet=3, waived=True)) == ["width_feet"]


def test_303_3d_8_c_five_of_seven_is_not_three_fourths():
    assert not o.is_three_fourths_of_entire_board(ayes=5, seats=7)


def test_303_3d_8_c_six_of_seven_is_three_fourths():
    assert o.is_three_fourths_of_entire_board(ayes=6, seats=7)


@pytest.mark.parametrize("seats, needed", [(4, 3), (5, 4), (6, 5), (7, 6), (8, 6), (9, 7)])
def test_303_3d_8_c_votes_needed_is_the_ceiling_of_three_fourths(seats, needed):
    assert o.votes_needed_for_three_fourths(seats) == needed
    assert o.is_three_fourths_of_entire_board(ayes=needed, seats=seats)
    assert not o.is_three_fourths_of_entire_board(ayes=needed - 1, seats=seats)


def test_303_3d_8_c_seven_seats_need_six_ayes():
    assert o.is_three_fourths_of_entire_board(ayes=6, seats=7) and not o.is_three_fourths_of_entire_board(
        ayes=5, seats=7
    )


# --- § 303-3D(2), (3), (5), (6), (7) ----------------------------------------------------------------------------------


def test_303_3d_2_three_inches_from_subgrade_passes_and_more_fails():
    assert o.check_grading(3) == []
    assert codes(o.check_grading(Decimal("3.1"))) == ["grading"]


def test_303_3d_3_three_inches_of_gravel_passes():
    assert o.check_subgrade(depth_inches=3, material="gravel") == []
    assert o.check_subgrade(depth_inches=3, material="crushed_concrete") == []


def test_303_3d_3_less_than_three_inches_or_clay_fails():
    assert codes(o.check_subgrade(depth_inches=Decimal("2.9"), material="clay")) == [
        "subgrade_material",
        "thin_subgrade",
    ]


def test_303_3d_5_wood_forms_one_and_a_half_inches_pass():
    assert (
        o.check_forms(material="wood", thickness_inches=Decimal("1.5"), depth_inches=4, walk_thickness_inches=4) == []
    )


def test_303_3d_5_thin_wood_and_shallow_forms_fail():
    errors = o.check_forms(material="wood", thickness_inches=Decimal("1.4"), depth_inches=3, walk_thickness_inches=4)
    assert codes(errors) == ["shallow_forms", "thin_forms"]


def test_303_3d_5_metal_forms_must_be_approved():
    assert codes(o.check_forms(material="metal")) == ["metal_not_approved"]
    assert o.check_forms(material="metal", metal_approved=True) == []


def test_303_3d_6_expansion_joints_forty_feet_pass_forty_one_fail():
    assert o.check_joints(expansion_spacing_feet=40, at_property_lines=True, groove_spacing_feet=5) == []
    assert codes(o.check_joints(expansion_spacing_feet=41, at_property_lines=True)) == ["joint_spacing"]


def test_303_3d_6_expansion_joint_at_property_line_required():
    assert codes(o.check_joints(expansion_spacing_feet=20, at_property_lines=False)) == ["joint_property_line"]


def test_303_3d_6_groove_joints_approximately_five_feet():
    assert o.check_joints(expansion_spacing_feet=40, at_property_lines=True, groove_spacing_feet=6) == []
    assert codes(
        o.check_joints(expansion_spacing_feet=40, at_property_lines=True, groove_spacing_feet=Decimal("6.5"))
    ) == ["groove_spacing"]


def test_303_3d_6_sawn_joints_are_prohibited():
    assert codes(o.check_joints(expansion_spacing_feet=40, at_property_lines=True, sawn=True)) == ["sawn_joints"]


def test_303_3d_7_quarter_inch_per_foot_passes_less_fails():
    assert o.check_slope(Decimal("0.25")) == []
    assert codes(o.check_slope(Decimal("0.24"))) == ["flat"]


def test_303_3d_7_cross_fall_of_a_five_foot_walk_is_one_and_a_quarter_inches():
    assert o.min_cross_fall_inches(5) == Decimal("1.25")


# --- § 303-3D(9), (10) -----------------------------------------------------------------------------------------------


def test_303_3d_9_forecast_low_of_35_allows_the_pour():
    assert o.check_pour_weather(forecast_low_f=35, subgrade_frozen=False) == []


def test_303_3d_9_forecast_low_below_35_stops_the_pour():
    [v] = o.check_pour_weather(forecast_low_f=Decimal("34.9"), subgrade_frozen=False)
    assert v.code == "too_cold" and v.citation == "§ 303-3D(9)"


def test_303_3d_9_frozen_subgrade_stops_the_pour():
    assert codes(o.check_pour_weather(forecast_low_f=60, subgrade_frozen=True)) == ["frozen_subgrade"]


def test_303_3d_9_board_emergency_waiver_allows_a_cold_pour():
    assert o.check_pour_weather(forecast_low_f=20, subgrade_frozen=True, emergency_waiver=True) == []


def test_303_3d_9_traffic_free_48_hours_at_50_degrees_96_below():
    assert o.traffic_free_hours(50) == 48
    assert o.traffic_free_hours(Decimal("49.9")) == 96
    poured = datetime(2026, 6, 1, 10, tzinfo=timezone.utc)
    assert o.traffic_free_until(poured, 70) == poured + timedelta(hours=48)


def test_303_3d_10_curing_methods():
    for method in ("impervious_coating", "wet_fabric", "paper"):
        assert o.check_curing(method) == []
    [v] = o.check_curing("none")
    assert v.citation == "§ 303-3D(10)" and "suspend" in v.message


# --- The whole application --------------------------------------------------------------------------------------------


def test_application_lists_every_broken_rule_at_once():
    errors = o.check_application(
        applied_on=MONDAY,
        land_use="commercial",
        work="new",
        width_feet=4,
        thickness_inches=4,
        driveway_thickness_inches=6,
        material="bituminous",
        pour_date=MONDAY + timedelta(days=1),
        concrete_psi=3000,
        sacks_per_cubic_yard=5,
    )
    assert {v.citation for v in errors} == {"§ 303-3C", "§ 303-3D(4)", "§ 303-3D(8)(b)"}
    assert len(errors) == 7


# --- § 303-3E ---------------------------------------------------------------------------------------------------------


def test_303_3e_1_three_quarters_inch_is_defective():
    assert o.is_defective_block(vertical_inches=Decimal("0.75"))


def test_303_3e_1_just_under_three_quarters_inch_is_not_defective():
    assert not o.is_defective_block(vertical_inches=Decimal("0.74"))


def test_303_3e_1_one_and_a_quarter_inch_gap_is_defective():
    assert o.is_defective_block(horizontal_inches=Decimal("1.25"))
    assert not o.is_defective_block(horizontal_inches=Decimal("1.24"))


def test_303_3e_1_half_inch_deterioration_is_defective():
    assert o.is_defective_block(deterioration_inches=Decimal("0.50"))
    assert not o.is_defective_block(deterioration_inches=Decimal("0.49"))


def test_303_3e_1_defects_cite_their_paragraph():
    found = o.block_defects(vertical_inches=1, horizontal_inches=2, deterioration_inches=1)
    assert [f[:14] for f in found] == ["§ 303-3E(1)(a)", "§ 303-3E(1)(b)", "§ 303-3E(1)(c)"]


def test_303_3e_2_eighty_percent_defective_replaces_the_whole_walk():
    assert o.must_replace_entire_sidewalk(defective_blocks=800, total_blocks=1000)
    assert o.must_replace_entire_sidewalk(defective_blocks=4, total_blocks=5)


def test_303_3e_2_79_9_percent_defective_is_a_repair():
    assert not o.must_replace_entire_sidewalk(defective_blocks=799, total_blocks=1000)
    assert o.proposed_work(defective_blocks=799, total_blocks=1000) == "repair"


def test_303_3e_proposed_work_none_repair_replace():
    assert o.proposed_work(defective_blocks=0, total_blocks=10) is None
    assert o.proposed_work(defective_blocks=3, total_blocks=10) == "repair"
    assert o.proposed_work(defective_blocks=8, total_blocks=10) == "replace"


# --- § 303-3B ---------------------------------------------------------------------------------------------------------


def test_303_3b_1_owner_pays_all_of_the_cost():
    assert o.owner_cost(Decimal("1234.56"), highland_theresa_project=False) == Decimal("1234.56")


def test_303_3b_2_village_pays_half_only_on_the_recorded_highland_theresa_project():
    assert o.owner_cost(Decimal("1000.01"), highland_theresa_project=True) == Decimal("500.00")
    assert o.owner_share(highland_theresa_project=False) == Decimal("1.00")


def test_estimated_cost_is_quantity_times_unit_price():
    assert o.estimated_cost(quantity=Decimal("120"), unit_price=Decimal("9.50")) == Decimal("1140.00")


# --- Wis. Stat. § 66.0907 ---------------------------------------------------------------------------------------------


def test_66_0907_owner_may_work_through_the_twentieth_day():
    served = date(2026, 6, 2)
    assert o.owner_deadline(served) == date(2026, 6, 22)
    assert not o.village_may_do_work(served_on=served, today=date(2026, 6, 22))


def test_66_0907_village_may_work_on_the_twenty_first_day():
    assert o.village_may_do_work(served_on=date(2026, 6, 2), today=date(2026, 6, 23))


@pytest.mark.parametrize(
    ("served", "last_day"),
    [
        (date(2026, 6, 1), date(2026, 6, 22)),  # the 20th day is Sunday June 21: the owner has Monday too
        (date(2026, 8, 18), date(2026, 9, 8)),  # Monday September 7 is Labor Day: through Tuesday
        (date(2026, 6, 20), date(2026, 7, 10)),  # a Friday: unmoved
    ],
)
def test_66_0907_a_twentieth_day_on_a_sunday_or_holiday_moves_to_the_next_secular_day(served, last_day):
    assert o.owner_deadline(served) == last_day
    assert not o.village_may_do_work(served_on=served, today=last_day)
    assert o.village_may_do_work(served_on=served, today=date.fromordinal(last_day.toordinal() + 1))


def test_66_0907_village_may_not_work_before_service():
    assert not o.village_may_do_work(served_on=None, today=date(2030, 1, 1))


def test_66_0907_service_records_method_date_and_proof():
    assert o.check_service(method="certified_mail", served_on=date(2026, 6, 1), proof="7019 0000 1111") == []
    errors = o.check_service(method="email", served_on=None, proof=" ")
    assert fields(errors) == ["served_on", "service_method", "service_proof"]
    assert {v.citation for v in errors} == {"Wis. Stat. § 66.0907"}


# --- § 303-3F ---------------------------------------------------------------------------------------------------------


def test_303_3f_a_bituminous_or_too_narrow_walk_is_not_legal():
    errors = o.check_existing_sidewalk(land_use="commercial", width_feet=4, thickness_inches=5, material="bituminous")
    assert fields(errors) == ["material", "width_feet"] and not o.is_legal_sidewalk(errors)


def test_303_3f_a_conforming_walk_is_legal():
    assert o.is_legal_sidewalk(
        o.check_existing_sidewalk(land_use="residential", width_feet=4, thickness_inches=4, material="concrete")
    )


def test_303_3f_a_residential_walk_that_predates_the_section_is_not_illegal_for_its_width():
    from decimal import Decimal as D

    from sidewalks import rules

    measured = dict(land_use="residential", width_feet=D("3.5"), thickness_inches=D("4"), material="concrete")
    assert [v.code for v in rules.check_existing_sidewalk(**measured)]  # built since: too narrow
    assert rules.check_existing_sidewalk(**measured, predates_section=True) == []
    thin = {**measured, "thickness_inches": D("3.9")}
    assert rules.check_existing_sidewalk(**thin, predates_section=True)  # its thickness still counts
    commercial = {**measured, "land_use": "commercial"}
    assert rules.check_existing_sidewalk(**commercial, predates_section=True)  # the proviso is residential only
