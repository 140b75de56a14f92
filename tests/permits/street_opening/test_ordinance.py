"""Each rule of permits.street_opening.rules at its boundaries: the day before, of and after; the amount below and
at."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from permits.street_opening import rules as o

OK = Decimal(500000)


def codes(violations):
    return [v.code for v in violations]


def insurance(**kw):
    args = {
        "per_person": OK,
        "per_accident": OK,
        "property_damage": OK,
        "expires": date(2026, 7, 31),
        "covered_through": date(2026, 7, 31),
        **kw,
    }
    return o.insurance_violations(**args)


# § 303-4A/B ----------------------------------------------------------------------------------------------------


def test_303_4b_requires_street_location_nature_and_method():
    violations = o.application_violations(street="", location_description=" ", work_description="", method="")
    assert [v.field for v in violations] == ["street", "location_description", "work_description", "method"]
    assert all(v.citation == "§ 303-4B" and "§ 303-4B" in v.message for v in violations)


def test_303_4b_complete_application_passes():
    assert (
        o.application_violations(
            street="Main Street", location_description="100 block", work_description="Water lateral", method="Open cut"
        )
        == []
    )


def test_303_4b_end_before_start_is_refused_and_same_day_is_fine():
    assert codes(o.date_violations(start_date=date(2026, 6, 2), end_date=date(2026, 6, 1))) == ["before_start"]
    assert o.date_violations(start_date=date(2026, 6, 2), end_date=date(2026, 6, 2)) == []


def test_303_4c_village_work_needs_no_permit():
    assert o.permit_required(village_work=True) is False
    assert o.permit_required(village_work=False) is True
    assert "§ 303-4C" in o.VILLAGE_WORK_EXEMPTION


# § 303-4D/E ------------------------------------------------------------------------------------------------------


def test_303_4d_valid_30_days_from_approval():
    assert o.expiry_date(date(2026, 6, 1)) == date(2026, 7, 1)


def test_303_4d_last_valid_day_and_the_day_after():
    assert o.is_expired(date(2026, 7, 1), date(2026, 6, 30)) is False
    assert o.is_expired(date(2026, 7, 1), date(2026, 7, 1)) is False
    assert o.is_expired(date(2026, 7, 1), date(2026, 7, 2)) is True


def test_303_4e_renewal_requires_work_begun():
    assert codes(
        o.renewal_violations(status="issued", work_begun=False, expires_on=date(2026, 7, 1), today=date(2026, 6, 30))
    ) == ["work_not_begun"]


def test_303_4e_renewal_on_the_last_valid_day_is_allowed_and_the_day_after_is_not():
    assert (
        o.renewal_violations(status="active", work_begun=True, expires_on=date(2026, 7, 1), today=date(2026, 7, 1))
        == []
    )
    assert codes(
        o.renewal_violations(status="active", work_begun=True, expires_on=date(2026, 7, 1), today=date(2026, 7, 2))
    ) == ["expired"]


def test_303_4e_renewal_refused_for_a_submitted_application():
    assert "not_renewable" in codes(
        o.renewal_violations(status="submitted", work_begun=True, expires_on=None, today=date(2026, 6, 1))
    )


def test_303_4e_renewal_adds_30_days():
    assert o.renewed_expiry(date(2026, 7, 1)) == date(2026, 7, 31)


# § 303-4G ------------------------------------------------------------------------------------------------------


def test_303_4g_rejects_499_999_per_person():
    violations = insurance(per_person=Decimal(499999))
    assert [(v.field, v.citation) for v in violations] == [("insurance_per_person", "§ 303-4G")]


def test_303_4g_rejects_499_999_99_per_accident_and_property_damage():
    violations = insurance(per_accident=Decimal("499999.99"), property_damage=Decimal("499999.99"))
    assert [v.field for v in violations] == ["insurance_per_accident", "insurance_property_damage"]


def test_303_4g_accepts_exactly_500_000():
    assert insurance() == []


def test_303_4g_insurance_must_last_through_the_permit_period():
    assert codes(insurance(expires=date(2026, 7, 30))) == ["insurance_lapses"]
    assert insurance(expires=date(2026, 7, 31)) == []


def test_303_4g_missing_amounts_and_expiry_are_each_reported():
    violations = o.insurance_violations(
        per_person=None, per_accident=None, property_damage=None, expires=None, covered_through=date(2026, 7, 1)
    )
    assert len(violations) == 4


# § 303-4H --------------------------------------------------------------------------------------------------------

SIGNED = datetime(2026, 5, 1, 15, 0, tzinfo=UTC)


def test_303_4h_1_statement_needs_full_name_every_undertaking_and_time():
    assert o.statement_violations(signed_by="Carl Brandt", undertakings=list(o.UNDERTAKINGS), signed_at=SIGNED) == []
    assert codes(o.statement_violations(signed_by="Carl", undertakings=list(o.UNDERTAKINGS), signed_at=SIGNED)) == [
        "signature_required"
    ]
    missing_one = list(o.UNDERTAKINGS)[1:]
    assert codes(o.statement_violations(signed_by="Carl Brandt", undertakings=missing_one, signed_at=SIGNED)) == [
        "undertakings_missing"
    ]
    assert codes(
        o.statement_violations(signed_by="Carl Brandt", undertakings=list(o.UNDERTAKINGS), signed_at=None)
    ) == ["signature_time_missing"]


def test_303_4h_5_annual_bond_covers_january_1_to_december_31_of_its_year():
    assert o.annual_bond_covers(2026, date(2026, 1, 1)) is True
    assert o.annual_bond_covers(2026, date(2026, 12, 31)) is True
    assert o.annual_bond_covers(2026, date(2025, 12, 31)) is False
    assert o.annual_bond_covers(2026, date(2027, 1, 1)) is False


def test_303_4h_5_work_spanning_new_year_needs_both_years_bonds():
    kw = {
        "annual_bond": True,
        "per_permit_bond_filed": False,
        "start_date": date(2026, 12, 30),
        "end_date": date(2027, 1, 2),
        "at_approval": True,
    }
    assert codes(o.bond_violations(annual_bond_years={2026}, **kw)) == ["no_annual_bond"]
    assert o.bond_violations(annual_bond_years={2026, 2027}, **kw) == []


def test_303_4h_3_per_permit_bond_warns_at_application_and_refuses_at_approval():
    kw = {
        "annual_bond": False,
        "annual_bond_years": set(),
        "per_permit_bond_filed": False,
        "start_date": date(2026, 6, 1),
        "end_date": date(2026, 6, 5),
    }
    [warning] = o.bond_violations(at_approval=False, **kw)
    assert warning.warning
    [error] = o.bond_violations(at_approval=True, **kw)
    assert not error.warning
    filed = {**kw, "per_permit_bond_filed": True}
    # Fail closed: a filed bond counts only once its amount is recorded and the Board has determined one.
    assert [v.code for v in o.bond_violations(at_approval=True, **filed)] == ["guarantee_bond_below_amount"]
    assert [v.code for v in o.bond_violations(at_approval=True, per_permit_bond_amount=5000, **filed)] == [
        "guarantee_bond_below_amount"
    ]
    assert o.bond_violations(at_approval=True, per_permit_bond_amount=5000, guarantee_required=5000, **filed) == []


def test_303_4h_2_revocation_lasts_one_year_to_the_day():
    until = o.revocation_ends(date(2026, 3, 10))
    assert until == date(2027, 3, 10)
    assert codes(o.revocation_violations(revoked_until=until, today=date(2027, 3, 9))) == ["applicant_revoked"]
    assert o.revocation_violations(revoked_until=until, today=date(2027, 3, 10)) == []
    assert o.revocation_violations(revoked_until=until, today=date(2027, 3, 11)) == []


def test_303_4h_2_revocation_from_february_29_ends_february_28():
    assert o.revocation_ends(date(2028, 2, 29)) == date(2029, 2, 28)


# § 303-5A ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "closed"),
    [
        pytest.param(date(2026, 11, 14), False, id="november_14_is_open"),
        pytest.param(date(2026, 11, 15), True, id="november_15_is_closed"),
        pytest.param(date(2026, 11, 16), True, id="november_16_is_closed"),
        pytest.param(date(2027, 3, 31), True, id="march_31_is_closed"),
        pytest.param(date(2027, 4, 1), True, id="april_1_is_closed"),
        pytest.param(date(2027, 4, 2), False, id="april_2_is_open"),
    ],
)
def test_303_5a_frozen_ground_season(day, closed):
    assert o.in_frozen_ground_season(day) is closed


def winter(start, end, **kw):
    args = {"emergency": False, "determination_recorded": False, "at_approval": False, **kw}
    return o.winter_violations(start_date=start, end_date=end, **args)


def test_303_5a_work_ending_on_november_15_is_refused():
    assert codes(winter(date(2026, 11, 10), date(2026, 11, 15))) == ["frozen_ground"]
    assert winter(date(2026, 11, 10), date(2026, 11, 14)) == []


def test_303_5a_emergency_warns_at_application_and_refuses_at_approval_until_determined():
    [w] = winter(date(2026, 12, 1), date(2026, 12, 2), emergency=True)
    assert w.warning and w.citation == "§ 303-5A"
    [e] = winter(date(2026, 12, 1), date(2026, 12, 2), emergency=True, at_approval=True)
    assert not e.warning
    assert (
        winter(date(2026, 12, 1), date(2026, 12, 2), emergency=True, determination_recorded=True, at_approval=True)
        == []
    )


# § 303-5H ----------------------------------------------------------------------------------------------------------


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5h_emergency_begun_friday_is_due_monday():
    assert o.emergency_filing_deadline(date(2026, 6, 5)) == date(2026, 6, 8)


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5h_emergency_before_a_holiday_is_due_after_it():
    # Wednesday November 25, 2026; Thanksgiving is the 26th.
    assert o.emergency_filing_deadline(date(2026, 11, 25)) == date(2026, 11, 27)


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5h_filing_on_the_next_business_day_is_on_time_and_the_day_after_is_late():
    began = date(2026, 6, 5)
    assert o.is_late_emergency_filing(work_began_on=began, filed_on=date(2026, 6, 8)) is False
    assert o.is_late_emergency_filing(work_began_on=began, filed_on=date(2026, 6, 9)) is True
    [w] = o.emergency_violations(emergency=True, work_began_on=began, filed_on=date(2026, 6, 9))
    assert w.warning and w.code == "late_emergency_filing"


# § 303-5I ----------------------------------------------------------------------------------------------------------


def test_303_5i_board_decision_at_least_30_days_before_work():
    assert o.board_decision_violations(decided_on=date(2026, 5, 1), work_begins_on=date(2026, 5, 31)) == []
    assert codes(o.board_decision_violations(decided_on=date(2026, 5, 1), work_begins_on=date(2026, 5, 30))) == [
        "decision_too_late"
    ]


def test_303_5i_moratorium_lasts_five_years_from_repaving():
    repaved = date(2021, 6, 1)
    assert o.is_in_moratorium(repaved_on=repaved, day=date(2026, 5, 31)) is True
    assert o.is_in_moratorium(repaved_on=repaved, day=date(2026, 6, 1)) is False
    assert o.is_in_moratorium(repaved_on=repaved, day=date(2021, 5, 31)) is False


def test_303_5i_moratorium_warns_before_submission_and_refuses_approval_without_exception():
    kw = {
        "repaved_on": date(2024, 6, 1),
        "planned_repaving": None,
        "start_date": date(2026, 6, 1),
        "end_date": date(2026, 6, 2),
    }
    [w] = o.moratorium_violations(exception_recorded=False, at_approval=False, **kw)
    assert w.warning and w.citation == "§ 303-5I"
    [e] = o.moratorium_violations(exception_recorded=False, at_approval=True, **kw)
    assert not e.warning
    assert o.moratorium_violations(exception_recorded=True, at_approval=True, **kw) == []


def test_303_5i_planned_repaving_warns_when_work_ends_after_the_30_day_deadline():
    kw = {
        "repaved_on": None,
        "planned_repaving": (date(2026, 5, 1), date(2026, 6, 15)),
        "start_date": date(2026, 5, 20),
        "exception_recorded": False,
        "at_approval": False,
    }
    # May 1 + 30 is Sunday May 31: the 30 days run through Monday June 1 (Wis. Stat. § 990.001(4))
    assert o.moratorium_violations(end_date=date(2026, 6, 1), **kw) == []
    assert codes(o.moratorium_violations(end_date=date(2026, 6, 2), **kw)) == ["repaving_planned"]
    kw["planned_repaving"] = (date(2026, 5, 4), date(2026, 6, 15))  # a Monday: the 30th day is Wednesday June 3
    kw["start_date"] = date(2026, 5, 20)
    assert o.moratorium_violations(end_date=date(2026, 6, 3), **kw) == []
    assert codes(o.moratorium_violations(end_date=date(2026, 6, 4), **kw)) == ["repaving_planned"]


# § 303-5C(2) ------------------------------------------------------------------------------------------------------


def test_303_5c_2_nearby_patches_must_be_listed():
    assert codes(o.nearby_openings_violations(near_existing_patch=True, nearby_openings="")) == ["required"]
    assert o.nearby_openings_violations(near_existing_patch=True, nearby_openings="Patch at 110 Main") == []
    assert o.nearby_openings_violations(near_existing_patch=False, nearby_openings="") == []


# § 303-5G: the existing pavement thickness sets the replacement -----------------------------------------------


def test_303_5g_paved_surface_needs_existing_thickness():
    assert codes(o.pavement_violations(surface="concrete", existing_pavement_inches=None)) == ["required"]
    assert o.pavement_violations(surface="concrete", existing_pavement_inches=Decimal(7)) == []
    assert o.pavement_violations(surface="terrace", existing_pavement_inches=None) == []
    assert codes(o.pavement_violations(surface="marble", existing_pavement_inches=None)) == ["invalid"]


# Wis. Stat. § 182.0175 and § 303-5E(3) ----------------------------------------------------------------------------

REQUESTED = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)  # Monday


def ticket(start, **kw):
    args = {
        "ticket_number": "20261234567",
        "requested_at": REQUESTED,
        "legal_start": None,
        "emergency": False,
        "at_approval": False,
        **kw,
    }
    return o.diggers_ticket_violations(start_date=start, **args)


def test_182_0175_legal_start_is_three_working_days_after_request():
    assert o.diggers_legal_start(date(2026, 6, 1)) == date(2026, 6, 4)
    assert o.diggers_legal_start(date(2026, 6, 4)) == date(2026, 6, 9)  # Thursday: over the weekend


def test_182_0175_start_before_legal_start_is_refused():
    assert codes(ticket(date(2026, 6, 3))) == ["before_legal_start"]
    assert ticket(date(2026, 6, 4)) == []


def test_182_0175_legal_start_entered_too_early_is_refused():
    assert "legal_start_too_early" in codes(ticket(date(2026, 6, 5), legal_start=date(2026, 6, 3)))


def test_182_0175_start_10_days_after_legal_start_is_fine_and_11_days_warns():
    assert ticket(date(2026, 6, 14)) == []
    [w] = ticket(date(2026, 6, 15))
    assert w.warning and w.code == "ticket_stale"


def test_182_0175_no_approval_without_a_ticket():
    [e] = ticket(date(2026, 6, 15), ticket_number="", at_approval=True)
    assert e.code == "ticket_missing" and not e.warning and e.citation == "Wis. Stat. § 182.0175"


def test_182_0175_emergency_may_add_the_ticket_afterwards():
    assert ticket(date(2026, 6, 1), ticket_number="", emergency=True) == []
    assert ticket(date(2026, 6, 1), emergency=True) == []  # and may start before its legal start


def test_182_0175_missing_ticket_warns_at_application():
    [w] = ticket(date(2026, 6, 15), ticket_number="")
    assert w.warning


# § 303-1C ----------------------------------------------------------------------------------------------------------


def underground(depth, **kw):
    args = {"underground_utility": True, "plans_filed": True, "plans_approved": True, "at_approval": True, **kw}
    return o.underground_violations(depth_feet=depth, **args)


def test_303_1c_1_rejects_2_99_feet_below_grade():
    assert codes(underground(Decimal("2.99"))) == ["too_shallow"]


def test_303_1c_1_accepts_exactly_3_feet():
    assert underground(Decimal(3)) == []


def test_303_1c_3_plans_filed_and_approved_before_construction():
    assert codes(underground(Decimal(4), plans_filed=False)) == ["plans_missing"]
    assert codes(underground(Decimal(4), plans_approved=False)) == ["plans_not_approved"]
    [w] = underground(Decimal(4), plans_filed=False, at_approval=False)
    assert w.warning


def test_303_1c_does_not_apply_to_other_work():
    assert (
        o.underground_violations(
            underground_utility=False, depth_feet=None, plans_filed=False, plans_approved=False, at_approval=True
        )
        == []
    )


def test_every_message_cites_its_section():
    violations = [
        *insurance(per_person=Decimal(0)),
        *winter(date(2026, 12, 1), date(2026, 12, 1)),
        *ticket(date(2026, 6, 2)),
        *underground(Decimal(1)),
    ]
    assert all(v.citation and v.citation in v.message for v in violations)


def test_a_long_period_crossing_winter_is_caught():
    assert codes(winter(date(2026, 10, 1), date(2026, 12, 31) + timedelta(days=200))) == ["frozen_ground"]


def test_303_4g_certificate_of_insurance_must_be_on_file():
    [e] = o.insurance_certificate_violations(certificate_filed=False)
    assert e.citation == "§ 303-4G" and not e.warning
    assert o.insurance_certificate_violations(certificate_filed=True) == []


def test_303_5h_an_emergency_without_the_day_it_began_is_refused():
    [error] = o.emergency_violations(emergency=True, work_began_on=None, filed_on=date(2026, 5, 4))
    assert (error.field, error.code, error.warning) == ("emergency_began_on", "required", False)
    assert "§ 303-5H" in error.message
    assert o.emergency_violations(emergency=False, work_began_on=None, filed_on=date(2026, 5, 4)) == []
