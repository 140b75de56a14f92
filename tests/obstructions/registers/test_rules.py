"""The registers' pure rules at their boundaries, named after their sections."""

from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from obstructions.registers import rules
from permits.street_opening.field import rules as field_rules
from sidewalks import rules as sidewalk_rules

CHICAGO = ZoneInfo("America/Chicago")


# --- § 303-1A, § 303-1B ---


def test_303_1a_1_a_street_without_a_recorded_grade_is_refused():
    [v] = rules.grade_violations(street_name="Henni Street", way="street", grade_recorded=False)
    assert v.citation == "§ 303-1A(1)" and not v.warning
    assert "§ 303-1A(1)" in v.message and "Henni Street" in v.message


def test_303_1a_1_a_street_with_a_recorded_grade_passes():
    assert rules.grade_violations(street_name="Henni Street", way="street", grade_recorded=True) == []


def test_303_1a_1_an_emergency_without_a_grade_is_warned_not_refused():
    [v] = rules.grade_violations(street_name="Henni Street", way="street", grade_recorded=False, emergency=True)
    assert v.warning and v.citation == "§ 303-1A(1)"


def test_303_1a_1_a_sidewalk_follows_the_street_grade_where_no_sidewalk_grade_is_set():
    assert rules.sidewalk_grade(sidewalk_grade=None, street_grade="street") == "street"
    assert rules.sidewalk_grade(sidewalk_grade="walk", street_grade="street") == "walk"
    assert rules.sidewalk_grade(sidewalk_grade=None, street_grade=None) is None


def test_303_1a_2_an_owners_application_needs_the_street_grade_and_no_sidewalk_grade():
    assert rules.sidewalk_grade_application_violations(street_grade_recorded=True, sidewalk_grade_recorded=False) == []
    codes = {
        v.code
        for v in rules.sidewalk_grade_application_violations(street_grade_recorded=False, sidewalk_grade_recorded=True)
    }
    assert codes == {"no_street_grade", "sidewalk_grade_exists"}


@pytest.mark.parametrize(
    ("by_board_motion", "authorizer_is_dpw", "refused"),
    [(True, False, False), (False, True, False), (False, False, True)],
)
def test_303_1b_only_the_board_or_the_dpw_authorizes_an_alteration(by_board_motion, authorizer_is_dpw, refused):
    found = rules.grade_alteration_authority_violations(
        by_board_motion=by_board_motion, authorizer_is_dpw=authorizer_is_dpw
    )
    assert bool(found) is refused
    assert all(v.citation == "§ 303-1B" for v in found)


# --- § 303-11 ---


def test_303_11_september_15_at_any_hour_is_for_the_following_year():
    assert rules.consideration_year(datetime(2026, 9, 15, 0, 0, tzinfo=CHICAGO)) == 2027
    assert rules.consideration_year(datetime(2026, 9, 15, 23, 59, 59, tzinfo=CHICAGO)) == 2027


def test_303_11_september_14_is_for_the_following_year():
    assert rules.consideration_year(datetime(2026, 9, 14, 12, 0, tzinfo=CHICAGO)) == 2027


def test_303_11_september_16_is_for_the_year_after_next():
    assert rules.consideration_year(datetime(2026, 9, 16, 0, 0, tzinfo=CHICAGO)) == 2028


def test_303_11_the_village_clock_decides_not_utc():
    # 11:30 p.m. on September 15 in Theresa is 04:30 UTC on September 16: still in time.
    late = datetime(2026, 9, 16, 4, 30, tzinfo=UTC)
    assert rules.consideration_year(late) == 2027
    # 00:30 on September 16 in Theresa is 05:30 UTC: too late for 2027.
    assert rules.consideration_year(datetime(2026, 9, 16, 5, 30, tzinfo=UTC)) == 2028


def test_303_11_january_1_is_for_the_following_year():
    assert rules.consideration_year(datetime(2027, 1, 1, 0, 0, tzinfo=CHICAGO)) == 2028


def test_303_11_a_naive_instant_is_refused():
    with pytest.raises(ValueError):
        rules.consideration_year(datetime(2026, 9, 15, 12, 0))  # noqa: DTZ001 (the point of the test)


# --- § 303-3D(11) ---


def test_303_3d_11_a_walk_exactly_at_the_higher_standard_passes():
    assert (
        rules.higher_standard_violations(
            width_feet=Decimal("6"), thickness_inches=Decimal("6"), min_width_feet=6, min_thickness_inches=6
        )
        == []
    )


def test_303_3d_11_a_hundredth_below_the_higher_width_fails_citing_the_section():
    [v] = rules.higher_standard_violations(
        width_feet=Decimal("5.99"), thickness_inches=Decimal("6"), min_width_feet=6, resolution="2026-14"
    )
    assert v.field == "width_feet" and v.citation == "§ 303-3D(11)"
    assert "2026-14" in v.message and "§ 303-3D(11)" in v.message


def test_303_3d_11_thickness_and_driveway_thickness_are_held_to_the_standard():
    found = rules.higher_standard_violations(
        width_feet=Decimal("6"),
        thickness_inches=Decimal("5.5"),
        driveway_thickness_inches=Decimal("7.9"),
        min_thickness_inches=6,
        min_driveway_thickness_inches=8,
    )
    assert {v.field for v in found} == {"thickness_inches", "driveway_thickness_inches"}


def test_303_3d_11_a_minimum_the_board_did_not_set_is_not_checked():
    assert rules.higher_standard_violations(width_feet=Decimal("4"), thickness_inches=Decimal("4")) == []


# --- § 303-10 ---


def test_303_10_a_vault_or_cistern_under_the_sidewalk_is_refused():
    [v] = sidewalk_rules.check_no_vault_or_cistern(True)
    assert v.field == "vault_or_cistern" and v.citation == "§ 303-10" and "§ 303-10" in v.message


def test_303_10_no_vault_or_cistern_passes():
    assert sidewalk_rules.check_no_vault_or_cistern(False) == []


def test_303_10_a_board_waiver_does_not_lift_the_vault_prohibition():
    found = sidewalk_rules.check_application(
        applied_on=datetime(2026, 5, 1, tzinfo=CHICAGO).date(),
        land_use="commercial",
        work="new",
        width_feet=Decimal("4"),
        thickness_inches=Decimal("4"),
        pour_date=datetime(2026, 5, 10, tzinfo=CHICAGO).date(),
        width_waived=True,
        vault_or_cistern=True,
    )
    assert [v.citation for v in found] == ["§ 303-10"]


# --- § 303-13, § 303-5D(1) ---


def test_303_13_a_spoil_pile_blocking_a_gutter_fails_under_303_13_and_303_5d1():
    found = field_rules.inspection_violations(
        "trench", {"excavated_ahead_feet": 10, "unfilled_feet": 10, "spoil_blocks_gutter": True}
    )
    assert {v.citation for v in found} == {"§ 303-5D(1)", "§ 303-13"}


def test_303_5d_1_a_clear_gutter_passes_the_trench_record():
    assert field_rules.inspection_violations("trench", {"excavated_ahead_feet": 10, "unfilled_feet": 10}) == []


def test_303_5d_1_special_permission_does_not_excuse_a_blocked_gutter():
    found = field_rules.inspection_violations(
        "trench",
        {"excavated_ahead_feet": 900, "unfilled_feet": 900, "special_permission": True, "spoil_blocks_gutter": True},
    )
    assert {v.citation for v in found} == {"§ 303-5D(1)", "§ 303-13"}
