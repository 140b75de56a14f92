"""The enforcement cases through their services: who may act, the clocks, the bill and the roll (§ 303-6F)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from obstructions import services
from obstructions.models import Case, CaseStep
from permits.errors import RulesBroken
from permits.ledger import services as ledger
from permits.ledger import tax_roll
from permits.ledger.models import SpecialCharge
from permits.models import Notice
from permits.state import history_of
from tests.obstructions.conftest import GOOD_DISPLAY, at
from tests.upload_samples import JPEG

SEEN = at(2026, 5, 4, 8, 0)
SERVED = at(2026, 5, 4, 9, 30)


def open_seen(kind, by, parcel, what, **extra):
    """The official opens the case on the spot, at SEEN."""
    with time_machine.travel(SEEN, tick=False):
        return services.open_case(kind=kind, address=parcel.site_address, what=what, seen_at=SEEN, by=by, **extra)


def open_obstruction(by, parcel, **extra):
    return open_seen(Case.Kind.OBSTRUCTION_SIDEWALK, by, parcel, "Pallets of bricks across the sidewalk", **extra)


def served(case, by, served_to="owner", when=SERVED):
    with time_machine.travel(when, tick=False):
        return services.serve_notice(case=case, served_to=served_to, served_how="personal", served_at=when, by=by)


@pytest.fixture
def case(inspector, house):
    return served(open_obstruction(inspector, house), inspector)


# --- Opening, exceptions ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "building_inspector", "police_chief"])
def test_303_6d_enforcement_officials_may_open_a_case(persona, house, request):
    case = open_obstruction(request.getfixturevalue(persona), house)
    assert case.status == Case.Status.OPEN and case.number.startswith("EC-2026-")


@pytest.mark.parametrize("persona", ["clerk", "board_member", "resident", "contractor"])
def test_303_6d_others_may_not_open_a_case(persona, house, request):
    with pytest.raises(PermissionDenied):
        open_obstruction(request.getfixturevalue(persona), house)
    assert not Case.objects.exists()


def test_303_6c3_bench_leaving_three_feet_is_closed_as_excepted(inspector, shop):
    case = open_obstruction(inspector, shop, is_fixture=True, clear_width_feet="3.0")
    assert case.status == Case.Status.EXCEPTED
    assert "§ 303-6C" in history_of(case).last().reason


def test_303_6c3_bench_leaving_two_point_nine_feet_is_a_violation(inspector, shop):
    case = open_obstruction(inspector, shop, is_fixture=True, clear_width_feet="2.9")
    assert case.status == Case.Status.OPEN
    assert "§ 303-6C(3)" in case.steps.get(kind=CaseStep.Kind.NOTE).note


def test_303_6c1_bench_at_a_house_is_a_violation(inspector, house):
    case = open_obstruction(inspector, house, is_fixture=True, clear_width_feet="5.0")
    assert case.status == Case.Status.OPEN


def test_303_6b_unknown_permit_number_refused_naming_the_field(inspector, house):
    with pytest.raises(ValidationError) as error:
        open_obstruction(inspector, house, excepting_permit="SO-1999-0001")
    assert "excepting_permit" in error.value.message_dict
    assert not Case.objects.exists()


def test_unknown_address_refused_naming_the_field(inspector, house):
    with pytest.raises(ValidationError) as error:
        with time_machine.travel(SEEN, tick=False):
            services.open_case(kind="terrace", address="9 Nowhere Road", what="Weeds", seen_at=SEEN, by=inspector)
    assert "address" in error.value.message_dict


def test_photo_is_stored_on_the_timeline(inspector, house):
    case = open_obstruction(inspector, house, photos=[SimpleUploadedFile("p.jpg", JPEG, content_type="image/jpeg")])
    assert case.steps.filter(kind=CaseStep.Kind.PHOTO, photo_type="image/jpeg").count() == 1


def test_html_posing_as_a_photo_refused_and_nothing_stored(inspector, house):
    bad = SimpleUploadedFile("p.jpg", b"\xff\xd8\xff<script>alert(1)</script>", content_type="image/jpeg")
    with pytest.raises(ValidationError):
        open_obstruction(inspector, house, photos=[bad])
    assert not Case.objects.exists()


# --- The notice -------------------------------------------------------------------------------------------------


def test_303_6d_notice_to_the_owner_sets_the_24_hour_deadline_and_writes_the_letter(case, house):
    assert case.status == Case.Status.NOTICED
    assert case.deadline_at == SERVED + timedelta(hours=24)
    letter = Notice.objects.get(template="enforcement_notice")
    assert letter.channel == Notice.Channel.MAIL and letter.recipient_name == "Klein, Joan"
    assert "24 hours" in letter.body


def test_303_6e_street_obstruction_notice_to_the_occupant_refused(inspector, house):
    case = open_seen(Case.Kind.OBSTRUCTION_STREET, inspector, house, "Boat trailer")
    with pytest.raises(RulesBroken) as error:
        served(case, inspector, served_to="occupant")
    assert "§ 303-6E" in str(error.value)
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN and not Notice.objects.exists()


def test_notice_served_in_the_future_refused(inspector, house):
    case = open_obstruction(inspector, house)
    with time_machine.travel(SEEN, tick=False):
        with pytest.raises(ValidationError) as error:
            services.serve_notice(case=case, served_to="owner", served_how="personal", served_at=SERVED, by=inspector)
    assert "served_at" in error.value.message_dict


def test_resident_may_not_serve_a_notice(inspector, resident, house):
    case = open_obstruction(inspector, house)
    with pytest.raises(PermissionDenied):
        served(case, resident)


# --- Removal, the bill, the roll -------------------------------------------------------------------------------


def remove(case, by, when, cost="185.00"):
    with time_machine.travel(when, tick=False):
        return services.record_removal(
            case=case,
            removed_at=when,
            cost=cost,
            description="Bricks hauled to the DPW yard",
            by=by,
            today=when.date(),
        )


def test_303_6f1_removal_a_minute_before_24_hours_refused(case, inspector):
    with pytest.raises(RulesBroken) as error:
        remove(case, inspector, SERVED + timedelta(hours=23, minutes=59))
    assert "§ 303-6F(1)" in str(error.value)
    assert not SpecialCharge.objects.exists()


def test_303_6f1_removal_at_24h00_bills_the_owner(case, inspector, house):
    remove(case, inspector, SERVED + timedelta(hours=24))
    charge = SpecialCharge.objects.get()
    assert (charge.parcel, charge.amount, charge.source) == (house, Decimal("185.00"), "obstruction_removal")
    assert charge.status == SpecialCharge.Status.BILLED
    # § 303-6F(2): a bill by letter falls due whether or not it is mailed: 10 days from receipt (mailing + 3).
    assert charge.due_on == date(2026, 5, 18)
    case.refresh_from_db()
    assert case.status == Case.Status.ABATED and case.abatement_cost == Decimal("185.00")


def test_303_6f1_negative_cost_refused_naming_the_field(case, inspector):
    with pytest.raises(ValidationError) as error:
        remove(case, inspector, SERVED + timedelta(days=2), cost="-1")
    assert "cost" in error.value.message_dict


def test_clerk_may_not_record_a_removal(case, clerk):
    with pytest.raises(PermissionDenied):
        remove(case, clerk, SERVED + timedelta(days=2))


def test_303_6f1_unpaid_bill_is_delinquent_then_on_the_roll_60_days_after_the_costs(case, inspector, settings):
    settings.TAX_ROLL_CUTOFF = "11-15"
    remove(case, inspector, SERVED + timedelta(hours=24))  # costs incurred May 5
    charge = SpecialCharge.objects.get()
    ledger.mark_delinquent_charges(today=date(2026, 5, 18))
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.BILLED
    ledger.mark_delinquent_charges(today=date(2026, 5, 19))
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.DELINQUENT
    # Delinquent May 19, but not on the roll before July 4 (May 5 + 60 days).
    plan = tax_roll.plan_roll(year=2026, today=date(2026, 7, 3))
    assert [c for c, _ in plan.held_back] == [charge] and "§ 303-6F(1)" in plan.held_back[0][1][0]
    plan = tax_roll.plan_roll(year=2026, today=date(2026, 7, 4))
    assert plan.eligible == [charge]


def test_303_6f2_bill_never_mailed_still_reaches_the_roll(case, inspector, settings):
    settings.TAX_ROLL_CUTOFF = "11-15"
    remove(case, inspector, SERVED + timedelta(hours=24))
    assert Notice.objects.filter(template="special_charge_bill", mailed_on__isnull=True).exists()
    ledger.mark_delinquent_charges(today=date(2026, 7, 4))
    assert tax_roll.plan_roll(year=2026, today=date(2026, 7, 4)).eligible == [SpecialCharge.objects.get()]


# --- Re-inspection, referral ---------------------------------------------------------------------------------


def test_reinspection_complied_closes_the_case(case, inspector):
    with time_machine.travel(SERVED + timedelta(hours=25), tick=False):
        services.record_reinspection(case=case, at=SERVED + timedelta(hours=25), complied=True, by=inspector)
    case.refresh_from_db()
    assert case.status == Case.Status.COMPLIED
    assert case.steps.filter(kind=CaseStep.Kind.REINSPECTION).exists()


def test_1_5_referral_before_the_deadline_refused(case, police_chief):
    with time_machine.travel(SERVED + timedelta(hours=23), tick=False):
        with pytest.raises(RulesBroken):
            services.refer_for_forfeiture(case=case, referred_at=SERVED + timedelta(hours=23), by=police_chief)


def test_1_5_referral_after_the_deadline(case, police_chief):
    with time_machine.travel(SERVED + timedelta(hours=24), tick=False):
        services.refer_for_forfeiture(case=case, referred_at=SERVED + timedelta(hours=24), by=police_chief)
    case.refresh_from_db()
    assert case.status == Case.Status.REFERRED
    assert "§ 1-5" in history_of(case).last().reason


def test_flag_cases_past_deadline_once(case):
    assert services.flag_cases_past_deadline(now=SERVED + timedelta(hours=24)) == (1, 1)
    assert services.flag_cases_past_deadline(now=SERVED + timedelta(hours=25)) == (1, 0)
    case.refresh_from_db()
    assert case.attention == Case.Attention.PAST_DEADLINE


def test_flag_cases_not_before_the_deadline(case):
    assert services.flag_cases_past_deadline(now=SERVED + timedelta(hours=23, minutes=59)) == (0, 0)


# --- §§ 303-9, 303-12, 303-13 -------------------------------------------------------------------------------------


def test_303_9b_terrace_in_an_approved_area_is_closed_as_excepted(inspector, house, clerk):
    from obstructions.registers.services import record_terrace_approval
    from tests.board_world import vote

    # Without an approval on record, a paved terrace is a violation: no official's say-so excepts it.
    assert open_seen("terrace", inspector, house, "Pavers", detail="paved").status == Case.Status.OPEN
    motion = vote(clause="303-9", ayes=5, held_on=SEEN.date() - timedelta(days=30), number="2026-9", clerk=clerk)
    record_terrace_approval(parcel=house, area="Pavers by the drive", motion=motion, by=clerk, today=SEEN.date())
    case = open_seen("terrace", inspector, house, "Pavers", detail="paved")
    assert case.status == Case.Status.EXCEPTED


def test_303_9b_an_approval_ended_before_the_day_seen_excepts_nothing(inspector, house, clerk):
    from obstructions.registers.services import record_terrace_approval
    from tests.board_world import vote

    motion = vote(clause="303-9", ayes=5, held_on=SEEN.date() - timedelta(days=30), number="2026-9", clerk=clerk)
    record_terrace_approval(
        parcel=house, area="Pavers", motion=motion, by=clerk, ends_on=SEEN.date() - timedelta(days=1), today=SEEN.date()
    )
    assert open_seen("terrace", inspector, house, "Pavers", detail="paved").status == Case.Status.OPEN


@pytest.mark.parametrize("persona", ["inspector", "police_chief", "board_member"])
def test_303_9b_only_the_board_or_its_designee_approves(persona, house, request):
    from django.core.exceptions import PermissionDenied

    from obstructions.registers.services import record_terrace_approval

    with pytest.raises(PermissionDenied):
        record_terrace_approval(parcel=house, area="Pavers", by=request.getfixturevalue(persona))


def test_303_12_recorded_permission_excepts_dumping(inspector, house):
    permission = {"permission_from": "owner", "permission_note": "Owner said yes by phone"}
    case = open_seen("dumping", inspector, house, "Fill dirt", detail="private_property", **permission)
    assert case.status == Case.Status.EXCEPTED and case.permission_note == "Owner said yes by phone"


def test_303_13_blocked_culvert_notice_gives_the_chosen_days(inspector, house):
    case = open_seen("drainage", inspector, house, "Brush in culvert", detail="culvert")
    with time_machine.travel(SERVED, tick=False):
        services.serve_notice(
            case=case, served_to="occupant", served_how="posted", served_at=SERVED, by=inspector, days=3
        )
    case.refresh_from_db()
    assert case.deadline_at == at(2026, 5, 8, 0, 0)


def test_303_13_removal_is_not_billed_for_drainage(inspector, house):
    case = open_seen("drainage", inspector, house, "Brush", detail="swale")
    served(case, inspector)
    with pytest.raises(ValidationError):
        remove(case, inspector, SERVED + timedelta(days=9))


# --- § 303-14 ------------------------------------------------------------------------------------------------------


def test_303_14a_clerk_assigns_the_official_number(clerk, house):
    number = services.assign_street_number(parcel=house, number=305, map_reference="Sheet 3, grid C4", by=clerk)
    assert str(number) == "305 Main Street"


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "building_inspector", "board_member", "resident"])
def test_303_14a_only_the_clerk_assigns_numbers(persona, house, request):
    with pytest.raises(PermissionDenied):
        services.assign_street_number(
            parcel=house, number=305, map_reference="Sheet 3", by=request.getfixturevalue(persona)
        )


def test_303_14a_number_used_once_on_a_street(clerk, house, shop):
    services.assign_street_number(parcel=house, number=305, map_reference="Sheet 3", by=clerk)
    with pytest.raises(ValidationError) as error:
        services.assign_street_number(parcel=shop, number=305, map_reference="Sheet 3", by=clerk)
    assert "number" in error.value.message_dict


def test_303_14a_map_reference_required(clerk, house):
    with pytest.raises(ValidationError) as error:
        services.assign_street_number(parcel=house, number=305, map_reference=" ", by=clerk)
    assert "map_reference" in error.value.message_dict


def number_case(by, parcel, what="No number on the house", display=None):
    with time_machine.travel(at(2026, 5, 1, 10, 0), tick=False):
        return services.open_case(
            kind="street_number",
            address=parcel.site_address,
            what=what,
            seen_at=at(2026, 5, 1, 9, 0),
            by=by,
            neglect_recorded_on=date(2026, 5, 1),
            display=display,
        )


def test_303_14c_notice_refused_may_21(clerk, house):
    case = number_case(clerk, house)
    with pytest.raises(RulesBroken) as error:
        served(case, clerk, when=at(2026, 5, 21, 16, 0))
    assert "May 22, 2026" in str(error.value)


def test_303_14c_notice_may_22_then_referral_june_2_not_june_1(clerk, house):
    case = number_case(clerk, house)
    served(case, clerk, when=at(2026, 5, 22, 9, 0))
    case.refresh_from_db()
    assert case.deadline_at == at(2026, 6, 2, 0, 0)
    with time_machine.travel(at(2026, 6, 1, 23, 59), tick=False):
        with pytest.raises(RulesBroken):
            services.refer_for_forfeiture(case=case, referred_at=at(2026, 6, 1, 23, 59), by=clerk)
    with time_machine.travel(at(2026, 6, 2, 0, 1), tick=False):
        services.refer_for_forfeiture(case=case, referred_at=at(2026, 6, 2, 0, 1), by=clerk)
    case.refresh_from_db()
    assert case.status == Case.Status.REFERRED


def test_303_14c_timers_flag_the_notice_from_may_22(clerk, house):
    case = number_case(clerk, house)
    assert services.flag_street_number_timers(today=date(2026, 5, 21)) == (0, 0)
    assert services.flag_street_number_timers(today=date(2026, 5, 22)) == (1, 1)
    assert services.flag_street_number_timers(today=date(2026, 5, 23)) == (1, 0)
    case.refresh_from_db()
    assert case.attention == Case.Attention.NOTICE_DUE


def test_303_14c_timers_flag_the_referral_from_june_2(clerk, house):
    case = number_case(clerk, house)
    served(case, clerk, when=at(2026, 5, 22, 16, 0))
    assert services.flag_street_number_timers(today=date(2026, 6, 1)) == (0, 0)
    assert services.flag_street_number_timers(today=date(2026, 6, 2)) == (1, 1)
    case.refresh_from_db()
    assert case.attention == Case.Attention.REFERRAL_DUE


def test_303_14c_street_number_case_may_not_be_worked_by_a_resident(resident, house):
    with pytest.raises(PermissionDenied):
        number_case(resident, house)


def test_303_6a_obstruction_without_a_permit_or_standard_is_a_violation(inspector, house):
    case = open_obstruction(inspector, house)
    assert case.status == Case.Status.OPEN
    assert "§ 303-6A" in case.steps.get().note


def display(**overrides):
    return {**GOOD_DISPLAY, **overrides}


def test_303_14b_numbers_meeting_the_standard_close_the_case(clerk, house):
    assert number_case(clerk, house, "Numbers by the door", display()).status == Case.Status.EXCEPTED


def test_303_14b_two_point_four_inch_numerals_open_a_case(clerk, house):
    case = number_case(clerk, house, "Numbers by the door", display(numeral_inches=Decimal("2.4")))
    assert case.status == Case.Status.OPEN and "2 1/2 inches" in case.steps.get().note
