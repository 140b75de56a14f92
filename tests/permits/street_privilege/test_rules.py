"""The street privilege rules at their boundaries (§ 303-7): pure functions, one-line tests. § 303-6B(2)'s limits are
not a § 303-7 permit's (tests/obstructions/test_materials.py)."""

from datetime import date, datetime, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

from permits.street_privilege import rules


def codes(violations):
    return {v.code for v in violations}


def third(width, occupied):
    return rules.street_share_violations(
        street_name="Main Street",
        street_width_feet=D(width) if width is not None else None,
        occupied_street_feet=D(occupied) if occupied is not None else None,
        where="/obstructions/registers/streets/",
    )


def test_303_7d1_twelve_feet_of_thirty_six_passes():
    assert third("36.0", "12.0") == []


def test_303_7d1_twelve_point_one_feet_of_thirty_six_fails():
    (violation,) = third("36.0", "12.1")
    assert violation.code == "more_than_a_third"
    assert violation.field == "occupied_street_feet"
    assert "§ 303-7D(1)" in violation.message and "12.0 ft" in violation.message


def test_303_7d1_eleven_point_nine_feet_passes():
    assert third("36.0", "11.9") == []


def test_303_7d1_a_street_with_no_width_on_record_fails_closed_naming_who_and_where():
    (violation,) = third(None, "1.0")
    assert violation.code == "no_street_width" and violation.field == "street"
    assert violation.citation == "§ 303-7D(1)"
    assert "Clerk-Treasurer or the Director of Public Works" in violation.message
    assert "/obstructions/registers/streets/" in violation.message


def test_303_7d1_the_occupied_width_is_required():
    assert {v.field for v in third("36.0", None)} == {"occupied_street_feet"}


def test_303_7d1_the_message_names_the_recorded_width():
    (violation,) = third("30.0", "10.1")
    assert "30.0 ft wide on the Village's record" in violation.message and "10.0 ft" in violation.message


def test_303_7d2_unlighted_obstruction_fails():
    (violation,) = rules.lighting_violations(lighted_at_night=False)
    assert violation.citation == "§ 303-7D(2)" and "§ 303-7D(2)" in violation.message
    assert rules.lighting_violations(lighted_at_night=True) == []


def walk(width, fence, both=True, occupied=True):
    return rules.sidewalk_violations(
        sidewalk_occupied=occupied,
        temporary_walk_width_feet=D(width) if width is not None else None,
        fence_height_feet=D(fence) if fence is not None else None,
        fenced_both_sides=both,
    )


def test_303_7d3_four_foot_walk_and_four_foot_fence_pass():
    assert walk("4.0", "4.0") == []


def test_303_7d3_walk_of_three_point_nine_feet_fails():
    assert codes(walk("3.9", "4.0")) == {"walk_too_narrow"}


def test_303_7d3_fence_of_three_point_nine_feet_fails():
    assert codes(walk("4.0", "3.9")) == {"fence_too_low"}


def test_303_7d3_fence_on_one_side_fails():
    assert codes(walk("4.0", "4.0", both=False)) == {"fence_one_side"}


def test_303_7d3_sidewalk_not_occupied_needs_no_walk():
    assert walk(None, None, both=False, occupied=False) == []


def test_303_6b2_the_half_sidewalk_limit_is_not_a_street_privilege_rule():
    """§ 303-6B(2) excepts materials authorized without a § 303-7 permit; a § 303-7 permit meets § 303-7D(3)."""
    assert not hasattr(rules, "materials_violations")
    assert not hasattr(rules, "SIDEWALK_SHARE")


def test_303_7d5_overnight_at_an_intersection_fails_for_a_move():
    (violation,) = rules.overnight_violations(purpose="move_building", overnight_at_intersection_or_hydrant=True)
    assert violation.citation == "§ 303-7D(5)"
    assert rules.overnight_violations(purpose="move_building", overnight_at_intersection_or_hydrant=False) == []


def test_303_7a_a_move_names_building_and_route():
    violations = rules.application_violations(
        purpose="move_building", street="Main", location_description="x", building_description="", route_description=""
    )
    assert {v.field for v in violations} == {"building_description", "route_description"}


def test_303_7a_purpose_is_one_of_two():
    violations = rules.application_violations(
        purpose="party", street="Main", location_description="x", building_description="", route_description=""
    )
    assert codes(violations) == {"purpose"}


def test_303_7a_not_issued_before_the_building_inspector_decides():
    (violation,) = rules.building_permit_violations(determined=False, required=None, shown=False)
    assert violation.code == "building_permit_not_determined" and "§ 303-7A" in violation.message


def test_303_7a_a_required_building_permit_not_shown_blocks_issue():
    (violation,) = rules.building_permit_violations(determined=True, required=True, shown=False)
    assert violation.code == "building_permit_not_shown" and "§ 303-7A" in violation.message


def test_303_7a_a_required_building_permit_shown_passes():
    assert rules.building_permit_violations(determined=True, required=True, shown=True) == []


def test_303_7a_none_required_passes_without_one():
    assert rules.building_permit_violations(determined=True, required=False, shown=False) == []


def test_303_7a_the_determination_says_required_or_not():
    assert codes(rules.building_permit_determination_violations(required=None, shown_number="")) == {"required"}
    assert codes(rules.building_permit_determination_violations(required=False, shown_number="B-1")) == {"not_required"}
    assert rules.building_permit_determination_violations(required=True, shown_number="") == []


def test_303_7b_ten_thousand_dollars_passes():
    assert rules.bond_amount_violations(D("10000.00")) == []


def test_303_7b_ten_thousand_and_one_cent_fails():
    (violation,) = rules.bond_amount_violations(D("10000.01"))
    assert violation.code == "bond_over_cap" and "§ 303-7B" in violation.message


def test_303_7b_zero_bond_is_not_the_dpws_to_set():
    assert codes(rules.bond_amount_violations(D("0"))) == {"bond_required"}
    assert codes(rules.bond_amount_violations(None)) == {"bond_required"}


def test_303_7a_grant_needs_both_recommendations():
    assert codes(rules.grant_violations(dpw_recommended=True, police_recommended=False)) == {"no_police_recommendation"}
    assert codes(rules.grant_violations(dpw_recommended=False, police_recommended=True)) == {"no_dpw_recommendation"}
    assert rules.grant_violations(dpw_recommended=True, police_recommended=True) == []


def issue(**overrides):
    facts = dict(
        dpw_recommended=True,
        police_recommended=True,
        bond_amount_set=True,
        bond_filed=True,
        bond_waived=False,
        balance_due=D("0.00"),
        is_move=False,
        route_prescribed=False,
    )
    return codes(rules.issue_violations(**{**facts, **overrides}))


def test_303_7b_issue_refused_until_the_bond_is_filed():
    assert issue(bond_filed=False) == {"bond_not_filed"}
    assert issue(bond_amount_set=False, bond_filed=False) == {"bond_not_set"}


def test_303_7b_a_waived_bond_needs_no_filing():
    assert issue(bond_amount_set=False, bond_filed=False, bond_waived=True) == set()


def test_303_7c_one_cent_due_refuses_issue():
    assert issue(balance_due=D("0.01")) == {"fee_unpaid"}
    assert issue(balance_due=D("0.00")) == set()


def test_303_7d6_a_move_needs_the_boards_route():
    assert issue(is_move=True) == {"no_route"}
    assert issue(is_move=True, route_prescribed=True) == set()


def test_303_7e_issued_march_10_last_day_june_10():
    assert rules.termination_date(date(2027, 3, 10)) == date(2027, 6, 10)


def test_303_7e_issued_november_30_last_day_february_28():
    assert rules.termination_date(date(2026, 11, 30)) == date(2027, 2, 28)


def test_303_7e_issued_november_30_before_a_leap_year_last_day_february_29():
    assert rules.termination_date(date(2027, 11, 30)) == date(2028, 2, 29)


def test_303_7e_the_building_inspectors_earlier_date_wins():
    assert rules.termination_date(date(2027, 3, 10), date(2027, 4, 1)) == date(2027, 4, 1)


def test_303_7e_the_last_day_is_in_force_and_the_day_after_is_not():
    last = date(2027, 6, 10)
    assert not rules.has_terminated(last_day=last, today=last)
    assert rules.has_terminated(last_day=last, today=last + timedelta(days=1))


def test_303_7e_notice_window_opens_a_week_before():
    last = date(2027, 6, 10)
    assert not rules.is_due_termination_notice(last_day=last, today=date(2027, 6, 2))
    assert rules.is_due_termination_notice(last_day=last, today=date(2027, 6, 3))
    assert rules.is_due_termination_notice(last_day=last, today=last)


def test_303_7e_earlier_date_past_three_months_refused():
    today = date(2027, 3, 10)
    assert rules.earlier_termination_violations(earlier_on=date(2027, 6, 10), today=today) == []
    assert codes(rules.earlier_termination_violations(earlier_on=date(2027, 6, 11), today=today)) == {
        "later_than_three_months"
    }
    assert codes(rules.earlier_termination_violations(earlier_on=date(2027, 3, 9), today=today)) == {"past"}


def test_303_7d7_closing_needs_a_passed_inspection():
    assert codes(rules.closing_violations(closing_passed=None)) == {"closing_not_passed"}
    assert codes(rules.closing_violations(closing_passed=False)) == {"closing_not_passed"}
    assert rules.closing_violations(closing_passed=True) == []


CHICAGO = ZoneInfo("America/Chicago")


def test_303_7f_removal_at_24_hours_passes_and_a_minute_earlier_fails():
    noticed = datetime(2027, 5, 3, 9, 0, tzinfo=CHICAGO)
    assert rules.removal_violations(noticed_at=noticed, removed_at=noticed + timedelta(hours=24)) == []
    assert codes(
        rules.removal_violations(noticed_at=noticed, removed_at=noticed + timedelta(hours=23, minutes=59))
    ) == {"within_24_hours"}


def test_303_7f_removal_needs_the_boards_notice():
    assert codes(rules.removal_violations(noticed_at=None, removed_at=datetime(2027, 5, 3, tzinfo=CHICAGO))) == {
        "no_notice"
    }


def test_303_7c_cost_line_needs_a_description_and_a_positive_amount():
    assert rules.cost_line_violations(description="Police escort", amount=D("0.01")) == []
    assert codes(rules.cost_line_violations(description="", amount=D("0"))) == {"required", "amount"}
