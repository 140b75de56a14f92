"""§ 303-15 rules at their boundaries (pure functions: no database, no clock)."""

from datetime import date

import pytest

from permits.street_use import rules
from tests.permits.street_use.conftest import at

FRIDAY = date(2026, 5, 15)
SUNDAY = date(2026, 5, 17)
MONDAY = date(2026, 5, 18)


def _codes(violations):
    return [v.code for v in violations]


def test_303_15d_5_friday_0800_to_sunday_2300_passes():
    assert rules.period_violations(starts_at=at(FRIDAY, 8), ends_at=at(SUNDAY, 23)) == []


def test_303_15d_5_friday_to_sunday_midnight_minus_a_minute_passes():
    assert rules.period_violations(starts_at=at(FRIDAY, 0), ends_at=at(SUNDAY, 23, 59)) == []


def test_303_15d_5_friday_to_monday_is_denied_even_under_72_hours():
    errors = rules.period_violations(starts_at=at(FRIDAY, 18), ends_at=at(MONDAY, 1))
    assert _codes(errors) == ["more_than_three_days"]
    assert "§ 303-15D(5)" in errors[0].message and errors[0].field == "ends_at"


def test_303_15d_5_one_day_passes_and_an_end_before_the_start_is_refused():
    assert rules.period_violations(starts_at=at(FRIDAY, 8), ends_at=at(FRIDAY, 9)) == []
    assert _codes(rules.period_violations(starts_at=at(FRIDAY, 9), ends_at=at(FRIDAY, 9))) == ["ends_before_start"]


def test_303_15d_5_days_of_use_counts_calendar_days():
    assert rules.days_of_use(at(FRIDAY, 8), at(SUNDAY, 23)) == 3
    assert rules.days_of_use(at(FRIDAY, 23), at(MONDAY, 0, 30)) == 4


@pytest.mark.parametrize(("roster_size", "needed"), [(20, 15), (7, 6), (4, 3), (1, 1), (3, 3), (8, 6)])
def test_303_15f_seventy_five_percent_rounded_up(roster_size, needed):
    assert rules.signatures_required(roster_size) == needed


def test_303_15f_fifteen_of_twenty_passes():
    assert rules.petition_violations(counted=15, roster_size=20) == []


def test_303_15f_fourteen_of_twenty_fails():
    errors = rules.petition_violations(counted=14, roster_size=20)
    assert _codes(errors) == ["petition_short"] and "14 of the 15" in errors[0].message


def test_303_15f_six_of_seven_passes_five_of_seven_fails():
    assert rules.petition_violations(counted=6, roster_size=7) == []
    assert _codes(rules.petition_violations(counted=5, roster_size=7)) == ["petition_short"]


def test_303_15f_an_empty_roster_is_refused():
    assert _codes(rules.petition_violations(counted=0, roster_size=0)) == ["empty_roster"]


def test_303_15f_unverified_petition_is_refused():
    assert _codes(rules.petition_violations(counted=20, roster_size=20, verified=False)) == ["petition_unverified"]


def test_303_15f_an_undeclared_address_blocks_even_a_full_count():
    errors = rules.petition_violations(counted=20, roster_size=20, undeclared=("102 Henni Street",))
    assert _codes(errors) == ["undeclared_address"] and "102 Henni Street" in errors[0].message


def test_303_15f_the_undeclared_addresses_are_named_five_at_most():
    many = tuple(f"{100 + 2 * i} Henni Street" for i in range(7))
    message = rules.petition_violations(counted=0, roster_size=0, undeclared=many)[0].message
    assert "108 Henni Street" in message and "110 Henni Street" not in message and "and 2 more" in message


def test_303_15f_more_consents_than_declared_blocks():
    errors = rules.petition_violations(counted=20, roster_size=20, over=("102 Henni Street",))
    assert _codes(errors) == ["more_consents_than_declared"]


def test_303_15f_a_petition_without_addresses_is_refused():
    assert _codes(rules.petition_violations(counted=0, roster_size=0, addresses=0)) == ["no_addresses"]


def test_303_15f_no_edit_of_street_portion_or_dates_once_anyone_consented():
    changed = ["street", "location_description", "start_date", "end_date"]
    assert rules.petition_edit_violations(signed=False, changed=changed) == []
    codes = _codes(rules.petition_edit_violations(signed=True, changed=changed))
    assert codes == ["new_petition_needed"] * 4
    assert rules.petition_edit_violations(signed=True, changed=[]) == []


def _complete(**overrides):
    data = {name: "x" for name in rules.ITEMS} | {"expected_attendance": 50, "organization_name": ""}
    return data | overrides


def test_303_15d_4_a_complete_application_passes():
    assert rules.missing_item_violations(_complete()) == []


@pytest.mark.parametrize("field", sorted(rules.ITEMS))
def test_303_15d_4_each_missing_item_is_named_with_its_clause(field):
    errors = rules.missing_item_violations(_complete(**{field: ""}))
    assert [(v.field, v.code) for v in errors] == [(field, "missing_item")]
    assert rules.ITEMS[field][1] in errors[0].message and "§ 303-15D(4)" in errors[0].message


def test_303_15b2_organization_items_only_for_an_organization():
    errors = rules.missing_item_violations(_complete(organization_name="Henni Street Neighbours"))
    assert sorted(v.field for v in errors) == ["organization_address", "organization_heads", "organization_phone"]
    assert all("§ 303-15B(2)" in v.message for v in errors)


def test_303_15b6_zero_persons_is_missing_one_passes():
    assert _codes(rules.missing_item_violations(_complete(expected_attendance=0))) == ["missing_item"]
    assert rules.missing_item_violations(_complete(expected_attendance=1)) == []


def test_303_15b_a_chapter_245_event_needs_no_permit():
    assert rules.chapter_245_violations("") == []
    errors = rules.chapter_245_violations("P-2026-7")
    assert _codes(errors) == ["chapter_245_event"] and "§ 303-15B" in errors[0].message


def test_303_15h_revoked_before_or_terminated_during_the_event_not_a_minute_after():
    start, end = at(FRIDAY, 8), at(SUNDAY, 23)
    ok = dict(starts_at=start, ends_at=end, reason="Fight in the street")
    assert rules.termination_violations(now=at(FRIDAY, 7, 59), **ok) == []  # before the event: the permit is revoked
    assert rules.termination_violations(now=start, **ok) == []
    assert rules.termination_violations(now=end, **ok) == []
    assert _codes(rules.termination_violations(now=at(SUNDAY, 23, 1), **ok)) == ["event_over"]


def test_303_15h_a_reason_is_required():
    errors = rules.termination_violations(
        starts_at=at(FRIDAY, 8), ends_at=at(SUNDAY, 23), now=at(FRIDAY, 9), reason=" "
    )
    assert _codes(errors) == ["reason_required"]


def test_303_15g_what_the_board_required_must_be_on_file():
    assert rules.guarantee_violations(required={"insurance", "bond"}, on_file={"insurance", "bond"}) == []
    errors = rules.guarantee_violations(required={"insurance", "bond", "indemnity"}, on_file={"insurance"})
    assert _codes(errors) == ["indemnity_missing", "bond_missing"]
    assert rules.guarantee_violations(required=set(), on_file=set()) == []
