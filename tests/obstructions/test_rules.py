"""Boundary tests of the enforcement rules, named after their sections (pure functions: no database)."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from obstructions import rules
from permits.ledger import rules as ledger_rules
from tests.obstructions.conftest import GOOD_DISPLAY

CHICAGO = ZoneInfo("America/Chicago")
SERVED = datetime(2026, 5, 4, 9, 30, tzinfo=CHICAGO)


def fixture(width, *, commercial=True, attached=False, temporary=True):
    return rules.fixture_errors(
        commercial_area=commercial, attached=attached, temporary_design=temporary, clear_width_feet=Decimal(width)
    )


def test_303_6c_bench_leaving_three_feet_passes():
    assert fixture("3.0") == []


def test_303_6c_bench_leaving_two_point_nine_feet_fails():
    [violation] = fixture("2.9")
    assert violation.citation == "§ 303-6C(3)" and "§ 303-6C(3)" in violation.message
    assert violation.field == "clear_width_feet"


def test_303_6c3_unmeasured_width_fails():
    assert [
        v.code
        for v in rules.fixture_errors(
            commercial_area=True, attached=False, temporary_design=True, clear_width_feet=None
        )
    ] == ["fixture_narrows_sidewalk"]


def test_303_6c1_fixture_outside_commercial_area_fails():
    assert [v.citation for v in fixture("4.0", commercial=False)] == ["§ 303-6C(1)"]


def test_303_6c2_attached_fixture_fails():
    assert [v.citation for v in fixture("4.0", attached=True)] == ["§ 303-6C(2)"]


def test_303_6c2_permanent_fixture_fails():
    assert [v.citation for v in fixture("4.0", temporary=False)] == ["§ 303-6C(2)"]


def test_303_6d_removal_deadline_is_served_plus_24_hours():
    assert rules.removal_deadline(SERVED) == datetime(2026, 5, 5, 9, 30, tzinfo=CHICAGO)


def test_303_6f1_village_may_not_remove_a_minute_before_24_hours():
    assert not rules.village_may_remove(SERVED, SERVED + timedelta(hours=23, minutes=59))
    assert [v.code for v in rules.removal_errors(SERVED, SERVED + timedelta(hours=23, minutes=59))] == ["too_early"]


def test_303_6f1_village_may_remove_at_served_plus_24h00():
    assert rules.village_may_remove(SERVED, SERVED + timedelta(hours=24))
    assert rules.removal_errors(SERVED, SERVED + timedelta(hours=24)) == []


def test_303_6f1_village_may_remove_a_minute_after():
    assert rules.village_may_remove(SERVED, SERVED + timedelta(hours=24, minutes=1))


def test_303_6f1_no_removal_without_a_served_notice():
    assert [v.code for v in rules.removal_errors(None, SERVED)] == ["not_served"]


def test_303_6d_sidewalk_notice_goes_to_owner_or_occupant():
    assert rules.recipient_errors("obstruction_sidewalk", "owner", "§ 303-6D") == []
    assert rules.recipient_errors("obstruction_sidewalk", "occupant", "§ 303-6D") == []


def test_303_6e_street_obstruction_notice_goes_to_the_owner_not_the_occupant():
    assert rules.recipient_errors("obstruction_street", "owner", "§ 303-6E") == []
    [violation] = rules.recipient_errors("obstruction_street", "occupant", "§ 303-6E")
    assert "§ 303-6E" in violation.message


def test_303_9c_terrace_notice_goes_to_the_abutting_owner():
    assert rules.recipient_errors("terrace", "occupant", "§ 303-9") != []


# --- § 303-6B(2): the Building Inspector's materials authorization (without a § 303-7 permit) -------------------

REGISTER = "/obstructions/registers/streets/"


def authorizing(**overrides):
    values = dict(
        street_name="Main Street",
        traveled_width_feet=Decimal("30.0"),
        sidewalk_width_feet=Decimal("5.0"),
        widths_recorded=True,
        occupied_street_feet=Decimal("10.0"),
        occupied_sidewalk_feet=Decimal("2.5"),
        gutter_kept_flowing=True,
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 10),
        where=REGISTER,
    )
    return rules.materials_authorization_violations(**{**values, **overrides})


def test_303_6b_2_exactly_a_third_of_the_traveled_street_and_half_the_sidewalk_pass():
    assert authorizing() == []


def test_303_6b_2_a_tenth_more_than_a_third_of_the_traveled_street_fails():
    [v] = authorizing(occupied_street_feet=Decimal("10.1"))
    assert v.code == "more_than_a_third" and v.field == "occupied_street_feet" and "§ 303-6B(2)" in v.message
    assert "30.0 ft traveled portion" in v.message


def test_303_6b_2_a_tenth_more_than_half_the_sidewalk_fails():
    [v] = authorizing(occupied_sidewalk_feet=Decimal("2.6"))
    assert v.code == "more_than_half" and "§ 303-6B(2)" in v.message


def test_303_6b_2_no_traveled_width_on_record_fails_closed_naming_who_and_where():
    violations = authorizing(traveled_width_feet=None, sidewalk_width_feet=None, widths_recorded=False)
    assert {(v.field, v.code) for v in violations} == {
        ("occupied_street_feet", "no_street_width"),
        ("occupied_sidewalk_feet", "no_street_width"),
    }
    for v in violations:
        assert v.citation == "§ 303-6B(2)"
        assert "Clerk-Treasurer or the Director of Public Works" in v.message and REGISTER in v.message


def test_303_6b_2_a_street_with_no_sidewalk_on_record_has_none_to_occupy():
    [v] = authorizing(sidewalk_width_feet=None)
    assert v.code == "no_sidewalk" and REGISTER in v.message
    assert authorizing(sidewalk_width_feet=None, occupied_sidewalk_feet=Decimal("0")) == []


def test_303_6b_2_gutter_not_flowing_fails():
    [v] = authorizing(gutter_kept_flowing=False)
    assert v.code == "gutter_blocked"


def test_303_6b_2_the_period_has_a_first_and_a_last_day_in_order():
    assert {v.field for v in authorizing(starts_on=None, ends_on=None)} == {"starts_on", "ends_on"}
    [v] = authorizing(ends_on=date(2026, 4, 30))
    assert v.code == "end_before_start"
    assert authorizing(ends_on=date(2026, 5, 1)) == []  # one day


def authorized(day, same_street=True):
    return rules.materials_authorized(
        number="BM-2026-0001", starts_on=date(2026, 5, 1), ends_on=date(2026, 5, 10), same_street=same_street, day=day
    )


@pytest.mark.parametrize(
    ("day", "inside"),
    [(date(2026, 4, 30), False), (date(2026, 5, 1), True), (date(2026, 5, 10), True), (date(2026, 5, 11), False)],
)
def test_303_6b_2_excepted_only_on_the_dates_authorized(day, inside):
    assert (authorized(day) == []) is inside


def test_303_6b_2_the_day_after_says_which_dates_were_authorized():
    [v] = authorized(date(2026, 5, 11))
    assert v.code == "materials_outside_period" and "May 1, 2026 to May 10, 2026" in v.message


def test_303_6b_2_an_authorization_on_another_street_does_not_except():
    [v] = authorized(date(2026, 5, 5), same_street=False)
    assert v.code == "materials_other_street"


# --- § 303-6B(1), § 303-6B(3) ------------------------------------------------------------------------------


def exception(kind="street_privilege", status="issued", day=date(2026, 5, 5)):
    return rules.permit_exception_errors(
        permit_kind=kind,
        permit_status=status,
        issued_on=date(2026, 5, 1),
        expires_on=date(2026, 5, 31),
        day=day,
        number="X-1",
    )


def test_303_6b1_issued_street_privilege_permit_excepts():
    assert exception() == []


def test_303_6b3_active_street_opening_permit_excepts():
    assert exception("street_opening", "active") == []


def test_303_6b3_expired_street_opening_permit_does_not_except():
    assert [v.citation for v in exception("street_opening", day=date(2026, 6, 1))] == ["§ 303-6B(3)"]


def test_303_6b1_permit_not_yet_issued_does_not_except():
    assert [v.code for v in exception(day=date(2026, 4, 30))] == ["permit_not_in_force"]
    assert [v.code for v in exception(status="approved")] == ["permit_not_in_force"]


def test_303_6b_a_sidewalk_permit_does_not_except():
    assert [v.code for v in exception("sidewalk")] == ["not_excepting_kind"]


# --- § 303-6F(1): the roll 60 days after the costs -----------------------------------------------------------


def test_303_6f1_obstruction_charge_not_on_roll_the_59th_day():
    assert ledger_rules.roll_wait_errors("obstruction_removal", date(2026, 5, 1), date(2026, 6, 29))


def test_303_6f1_obstruction_charge_on_roll_the_60th_day():
    assert ledger_rules.roll_wait_errors("obstruction_removal", date(2026, 5, 1), date(2026, 6, 30)) == []


def test_303_6f1_the_60_days_hold_the_roll_date_back_past_delinquency():
    # Billed the day of removal, due 13 days later, delinquent the 14th day: the roll still waits for the 60th.
    assert ledger_rules.roll_ready_on("obstruction_removal", date(2026, 5, 1), date(2026, 5, 15)) == date(2026, 6, 30)
    assert ledger_rules.roll_ready_on("snow_ice", date(2026, 5, 1), date(2026, 5, 15)) == date(2026, 5, 15)


def test_303_6f1_removed_september_16_reaches_that_years_roll():
    ready = ledger_rules.roll_ready_on("obstruction_removal", date(2026, 9, 16), date(2026, 9, 30))
    assert ledger_rules.roll_year_for(ready, "11-15") == 2026


def test_303_6f1_removed_september_17_waits_for_next_years_roll():
    ready = ledger_rules.roll_ready_on("obstruction_removal", date(2026, 9, 17), date(2026, 10, 1))
    assert ledger_rules.roll_year_for(ready, "11-15") == 2027


@pytest.mark.django_db
def test_303_6f1_bill_payable_ten_days_from_receipt():
    # Receipt presumed 3 days after mailing: due mailing + 13, delinquent the day after.
    assert ledger_rules.charge_due_on(date(2026, 5, 1), "obstruction_removal", None) == date(2026, 5, 14)


# --- § 303-9 -------------------------------------------------------------------------------------------------


def test_303_9b_paved_terrace_fails_without_approval():
    assert [v.citation for v in rules.terrace_errors("paved", area_approved=False)] == ["§ 303-9B"]


def test_303_9b_paved_terrace_in_an_approved_area_passes():
    assert rules.terrace_errors("paved", area_approved=True) == []


@pytest.mark.parametrize("thing", ["backstop", "statuary", "structure", "flagpole"])
def test_303_9b_no_approval_covers_backstops_statuary_structures_or_flagpoles(thing):
    assert [v.code for v in rules.terrace_errors(thing, area_approved=True)] == ["terrace_object"]


def test_303_9b_noxious_weeds_fail_even_in_an_approved_area():
    assert rules.terrace_errors("weeds", area_approved=True) != []


def test_303_9c_mailbox_not_cleared_of_snow_fails():
    assert [v.citation for v in rules.terrace_errors("mailbox_snow", area_approved=False)] == ["§ 303-9C"]


# --- § 303-12 and § 303-13 -------------------------------------------------------------------------------------


def test_303_12_snow_pushed_into_the_street_is_dumping():
    assert [v.code for v in rules.dumping_errors("street", permission_from="owner")] == ["public_place"]


def test_303_12_leaves_on_anothers_lot_without_permission_is_dumping():
    assert [v.field for v in rules.dumping_errors("private_property", permission_from="")] == ["permission_from"]


@pytest.mark.parametrize("who", ["owner", "occupant"])
def test_303_12_recorded_permission_of_owner_or_occupant_excepts(who):
    assert rules.dumping_errors("private_property", permission_from=who) == []


def test_303_13_blocked_culvert_fails():
    assert [v.citation for v in rules.drainage_errors("culvert", blocked=True, likely_carried=False)] == ["§ 303-13"]


def test_303_13_matter_likely_carried_into_a_gutter_fails():
    assert rules.drainage_errors("gutter", blocked=False, likely_carried=True) != []


def test_303_13_free_flowing_swale_passes():
    assert rules.drainage_errors("swale", blocked=False, likely_carried=False) == []


# --- § 303-14 --------------------------------------------------------------------------------------------------


def display(**overrides):
    return [v.field for v in rules.number_display_errors(**{**GOOD_DISPLAY, **overrides})]


def test_303_14b_two_and_a_half_inch_numerals_on_three_inch_background_pass():
    assert display() == []


def test_303_14b_two_point_four_inch_numerals_fail():
    assert display(numeral_inches=Decimal("2.4")) == ["numeral_inches"]


def test_303_14b_two_point_nine_inch_background_fails():
    assert display(background_inches=Decimal("2.9")) == ["background_inches"]


def test_303_14b_script_font_and_no_contrast_fail():
    assert display(script_font=True, contrasting=False) == ["contrasting", "script_font"]


def test_303_14b_building_on_an_alley_shows_it_to_the_alley_too():
    assert display(abuts_alley=True) == ["visible_from_alley"]
    assert display(abuts_alley=True, visible_from_alley=True) == []


def test_303_14b_not_by_the_front_entrance_or_not_visible_fails():
    assert display(by_front_entrance=False, visible_from_street=False) == ["by_front_entrance", "visible_from_street"]


@pytest.mark.parametrize(
    ("served_on", "allowed"), [(date(2026, 5, 21), False), (date(2026, 5, 22), True), (date(2026, 5, 23), True)]
)
def test_303_14c_notice_from_may_22_after_neglect_recorded_may_1(served_on, allowed):
    assert rules.number_notice_from(date(2026, 5, 1)) == date(2026, 5, 22)
    assert (rules.number_notice_errors(date(2026, 5, 1), served_on) == []) is allowed


@pytest.mark.parametrize(
    ("referred_on", "allowed"), [(date(2026, 6, 1), False), (date(2026, 6, 2), True), (date(2026, 6, 3), True)]
)
def test_303_14c_referral_from_june_2_after_service_may_22(referred_on, allowed):
    assert rules.number_referral_from(date(2026, 5, 22)) == date(2026, 6, 2)
    errors = rules.number_referral_errors(date(2026, 5, 22), referred_on)
    assert (errors == []) is allowed
    if errors:
        assert "§ 303-14C" in errors[0].message and "§ 1-5" in errors[0].message


def test_1_5_referral_only_after_the_notice_deadline():
    deadline = SERVED + timedelta(days=7)
    assert rules.referral_errors(deadline, deadline - timedelta(minutes=1)) != []
    assert rules.referral_errors(deadline, deadline) == []


def test_303_7f_removal_of_a_lawful_sidewalk_obstruction_does_not_wait_the_303_6f_sixty_days():
    # § 303-7F: the cost goes on "the next annual tax roll"; the 60 days are § 303-6F(1)'s, for § 303-6 obstructions.
    assert ledger_rules.roll_wait_errors("obstruction_removal", date(2026, 5, 1), date(2026, 5, 20), "§ 303-7F") == []
    assert ledger_rules.roll_ready_on("obstruction_removal", date(2026, 5, 1), date(2026, 5, 15), "§ 303-7F") == date(
        2026, 5, 15
    )
    assert ledger_rules.roll_wait_errors("obstruction_removal", date(2026, 5, 1), date(2026, 5, 20), "§ 303-6F(1)")
