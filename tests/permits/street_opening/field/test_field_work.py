"""Services of the field half, and who may act."""

import datetime
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied

from permits.models import Notice, Status
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import (
    DefectNotice,
    Guarantee,
    Inspection,
    PavementRestoration,
    PermitteeNotice,
)
from permits.street_opening.field.services import RulesBroken
from permits.street_opening.models import ApplicantRevocation
from tests.permits.street_opening.conftest import complete_work
from tests.permits.street_opening.field.conftest import board_finds_defect, notice_faulty_work

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
CHICAGO = ZoneInfo("America/Chicago")
PASSING_COMPACTION = {"lift_inches": D("12"), "compaction_percent": D("95.0"), "mechanical": True, "flooded": False}
FAILING_COMPACTION = {**PASSING_COMPACTION, "compaction_percent": D("94.9")}


def at(y, m, d, hh=8, mm=0):
    return datetime.datetime(y, m, d, hh, mm, tzinfo=CHICAGO)


# Inspections


def test_inspector_may_log_a_passing_compaction(issued_permit, inspector):
    inspection = field_work.log_inspection(
        permit=issued_permit, kind="compaction", by=inspector, values=PASSING_COMPACTION
    )
    assert inspection.result == "pass" and inspection.failures == []
    issued_permit.refresh_from_db()
    assert issued_permit.status == Status.ACTIVE  # inspected on site: work under way
    assert issued_permit.fee_amount == D("0.00")


def test_303_5e_5_failed_compaction_adds_the_retest_fee_and_holds_the_permit_open(issued_permit, inspector, contractor):
    inspection = field_work.log_inspection(
        permit=issued_permit, kind="compaction", by=inspector, values=FAILING_COMPACTION
    )
    assert inspection.result == "fail" and inspection.citations == ["§ 303-5E(4)"]
    assert inspection.retest_fee_charged
    issued_permit.refresh_from_db()
    assert issued_permit.fee_amount == D("75.00")  # the seeded backfill_retest fee
    assert any("§ 303-5E(5)" in e.reason for e in issued_permit.events.all())
    assert Notice.objects.filter(template="field_inspection_failed", to=contractor.email).exists()
    with pytest.raises(RulesBroken) as broken:
        complete_work(issued_permit, permittee=contractor)
    assert broken.value.violations[0].citation == "§ 303-5E(5)"
    # a later passing retest releases it
    field_work.log_inspection(permit=issued_permit, kind="compaction", by=inspector, values=PASSING_COMPACTION)
    guarantee = complete_work(issued_permit, permittee=contractor, today=datetime.date(2026, 7, 1))
    assert guarantee.ends_on == datetime.date(2027, 7, 1)


def test_dpw_director_may_log_an_inspection(issued_permit, dpw_director):
    inspection = field_work.log_inspection(
        permit=issued_permit,
        kind="trench",
        by=dpw_director,
        values={"excavated_ahead_feet": D("251"), "unfilled_feet": D("10")},
    )
    assert inspection.result == "fail" and inspection.citations == ["§ 303-5B(1)"]


@pytest.mark.parametrize("persona", ["contractor", "clerk", "building_inspector", "outsider", "resident"])
def test_only_dpw_may_log_inspections(issued_permit, persona, request):
    user = request.getfixturevalue(persona)
    with pytest.raises(PermissionDenied):
        field_work.log_inspection(permit=issued_permit, kind="compaction", by=user, values=PASSING_COMPACTION)
    assert not Inspection.objects.exists()


def test_a_draft_permit_cannot_be_inspected(contractor, inspector):
    from tests.factories import PermitFactory

    with pytest.raises(RulesBroken):
        field_work.log_inspection(
            permit=PermitFactory(applicant=contractor), kind="compaction", by=inspector, values=PASSING_COMPACTION
        )


def inspect_pavement(permit, inspector, values):
    return field_work.log_inspection(permit=permit, kind="pavement", by=inspector, values=values)


def test_303_5g_2_pavement_inspection_uses_the_applications_existing_depth(make_issued, inspector):
    permit = make_issued(surface="bituminous", existing_pavement_inches=D("4"))
    inspection = inspect_pavement(
        permit,
        inspector,
        {
            "depth_inches": D("3.5"),
            "base_layer_inches": D("1.5"),
            "top_layer_inches": D("1"),
            "straightedge_deviation_inches": D("0.25"),
            "three_inch_stone_inches": D("4"),
            "three_quarter_stone_inches": D("4"),
        },
    )
    assert inspection.result == "fail"
    assert [f["code"] for f in inspection.failures] == ["bituminous_too_thin"]
    assert inspection.surface == "bituminous" and inspection.existing_pavement_inches == D("4")


def test_303_5g_3_concrete_with_calcium_chloride_fails(make_issued, inspector):
    permit = make_issued(surface="concrete", existing_pavement_inches=D("6"))
    inspection = inspect_pavement(permit, inspector, {"depth_inches": D("7"), "calcium_chloride": True})
    assert [f["citation"] for f in inspection.failures] == ["§ 303-5G(3)"]


# Permittee notices


def _notice(permit, by, **kw):
    """A phoned DPW excavation notice for work at 8:00 on 6/10, given at 8:00 on 6/9 (24 hours ahead, § 303-5B(4))."""
    args = dict(
        permit=permit,
        by=by,
        kind="dpw_excavation",
        planned_work_at=at(2026, 6, 10, 8),
        given_at=at(2026, 6, 9, 8),
        given_to="DPW",
        method="phone",
    )
    return field_work.record_permittee_notice(**{**args, **kw})


def test_contractor_records_a_timely_dpw_notice(issued_permit, contractor):
    notice = _notice(issued_permit, contractor, given_to="Dave Pieper, DPW")
    assert notice.timeliness == "on_time"
    assert notice.due_by == at(2026, 6, 9, 8)


def test_303_5b_4_a_notice_23h59_ahead_is_recorded_late(issued_permit, contractor_staff):
    notice = _notice(issued_permit, contractor_staff, given_at=at(2026, 6, 9, 8, 1))
    assert notice.timeliness == "late"
    assert any("late (§ 303-5B(4))" in e.reason for e in issued_permit.events.all())


def test_303_5b_5_emergency_outage_notice_is_not_required(make_issued, contractor):
    permit = make_issued(emergency=True, utility_interruption=True)
    notice = _notice(
        permit,
        contractor,
        kind="utility_outage",
        given_at=at(2026, 6, 10, 7),
        given_to="Residents of 100-140 Elm",
        method="in_person",
    )
    assert notice.timeliness == "not_required"


@pytest.mark.parametrize("persona", ["outsider", "resident", "building_inspector"])
def test_outsiders_cannot_record_notices(issued_permit, persona, request):
    with pytest.raises(PermissionDenied):
        _notice(issued_permit, request.getfixturevalue(persona))


def test_notice_needs_whom_and_how_all_errors_at_once(issued_permit, contractor):
    with pytest.raises(RulesBroken) as broken:
        _notice(issued_permit, contractor, kind="dpw_backfill", given_to=" ", method="pigeon")
    assert [v.field for v in broken.value.violations] == ["given_to", "method"]
    assert not PermitteeNotice.objects.exists()


def test_planning_the_work_schedules_reminders_and_they_are_sent_once(make_issued, contractor):
    permit = make_issued(utility_interruption=True)
    notices = field_work.schedule_notice_reminders(
        permit=permit, by=contractor, work_starts_at=at(2026, 6, 10, 8), backfill_at=at(2026, 6, 11, 13)
    )
    assert [n.kind for n in notices] == ["dpw_excavation", "affected_parties", "utility_outage", "dpw_backfill"]
    assert field_work.send_due_notice_reminders(now=at(2026, 6, 7, 0)) == (0, 0)
    # dpw 24h: due 6/9 8:00, remind 6/8 8:00; affected: due 6/9 8:00; outage 12h: due 6/9 20:00, remind 6/8 20:00
    assert field_work.send_due_notice_reminders(now=at(2026, 6, 8, 8)) == (2, 2)
    assert field_work.send_due_notice_reminders(now=at(2026, 6, 8, 8)) == (0, 0)
    reminders = Notice.objects.filter(template="field_notice_reminder")
    assert reminders.count() == 2 and reminders[0].subject.startswith("Reminder")
    # planning again moves the pending notices instead of adding more
    field_work.schedule_notice_reminders(permit=permit, by=contractor, work_starts_at=at(2026, 6, 12, 8))
    assert permit.permittee_notices.filter(given_at__isnull=True).count() == 4


def test_giving_a_planned_notice_fills_the_pending_one(issued_permit, contractor):
    field_work.schedule_notice_reminders(permit=issued_permit, by=contractor, work_starts_at=at(2026, 6, 10, 8))
    _notice(issued_permit, contractor, method="email", given_at=at(2026, 6, 8, 9))
    assert issued_permit.permittee_notices.filter(kind="dpw_excavation").count() == 1
    assert field_work.send_due_notice_reminders(now=at(2026, 6, 9, 9)) == (1, 1)  # only affected parties left


# Pavement (§ 303-5G(4))


def test_303_5g_4_permanent_pavement_due_60_days_after_issue(issued_permit):
    assert field_work.restoration_for(issued_permit).permanent_due_on == datetime.date(2026, 7, 31)


def test_303_5g_4_winter_emergency_patch_due_next_june_1(make_issued, contractor):
    permit = make_issued(emergency=True)
    restoration = field_work.record_temporary_pavement(
        permit=permit, by=contractor, placed_on=datetime.date(2026, 12, 3), depth_inches=D("3")
    )
    assert restoration.permanent_due_on == datetime.date(2027, 6, 1)
    with pytest.raises(RulesBroken) as broken:
        complete_work(permit, permittee=contractor)
    assert broken.value.violations[0].citation == "§ 303-5G(4)"


def test_303_5g_4_temporary_patch_refused_outside_a_winter_emergency(issued_permit, contractor):
    with pytest.raises(RulesBroken) as broken:
        field_work.record_temporary_pavement(
            permit=issued_permit, by=contractor, placed_on=datetime.date(2026, 12, 3), depth_inches=D("2")
        )
    assert [v.code for v in broken.value.violations] == ["temporary_not_allowed", "cold_mix_too_thin"]
    assert not PavementRestoration.objects.exists()


# Completion, guarantee, defects, Village repair, revocation


def test_contractor_reports_completion_and_the_guarantee_starts(issued_permit, contractor):
    guarantee = complete_work(issued_permit, permittee=contractor, today=datetime.date(2026, 7, 15))
    issued_permit.refresh_from_db()
    assert issued_permit.status == Status.COMPLETED and issued_permit.completed_on == datetime.date(2026, 7, 15)
    assert guarantee.ends_on == datetime.date(2027, 7, 15)
    assert issued_permit.pavement_restoration.permanent_completed_on == datetime.date(2026, 7, 15)


def test_outsider_cannot_report_completion(issued_permit, outsider):
    with pytest.raises(PermissionDenied):
        field_work.report_completion(permit=issued_permit, by=outsider)


def _completed(permit, contractor, on=datetime.date(2026, 7, 15)):
    complete_work(permit, permittee=contractor, today=on)
    permit.refresh_from_db()
    return permit


def test_303_4h_4_the_boards_finding_is_noticed_to_the_permittee(issued_permit, contractor, clerk):
    permit = _completed(issued_permit, contractor)
    notice = board_finds_defect(permit, clerk)
    assert notice.kind == "board_finding" and notice.finding.carried
    assert notice.addressee_name == "Brandt Excavating LLC" and notice.addressee_email == contractor.email
    [sent] = Notice.objects.filter(template="field_defect_notice")
    assert sent.subject.startswith("Defect notice") and "§ 303-4H(4)" in sent.body and sent.to == contractor.email


def test_303_4h_4_notice_to_a_surety_names_it(issued_permit, contractor, clerk):
    permit = _completed(issued_permit, contractor)
    notice = board_finds_defect(
        permit,
        clerk,
        addressed_to="surety",
        addressee_name="Badger Surety Co",
        addressee_email="claims@badger.example",
    )
    assert notice.addressed_to == "surety"
    sent_to = set(Notice.objects.filter(template="field_defect_notice").values_list("to", flat=True))
    assert sent_to == {"claims@badger.example", contractor.email}


@pytest.mark.parametrize("persona", ["inspector", "clerk", "contractor", "board_member"])
def test_303_4h_2_only_the_dpw_director_gives_notice_of_faulty_work(issued_permit, persona, request):
    with pytest.raises(PermissionDenied):
        notice_faulty_work(issued_permit, request.getfixturevalue(persona))
    assert not DefectNotice.objects.exists()


def test_303_4h_2_the_dpw_director_gives_notice_of_faulty_work_under_way(issued_permit, dpw_director, contractor):
    notice = notice_faulty_work(issued_permit, dpw_director)
    assert (notice.kind, notice.finding, notice.addressee_email) == ("faulty_work", None, contractor.email)
    sent = Notice.objects.get(template="field_defect_notice")
    assert "§ 303-4H(2)" in sent.body


def test_303_4h_2_no_dpw_notice_once_complete(issued_permit, contractor, dpw_director):
    permit = _completed(issued_permit, contractor)
    with pytest.raises(RulesBroken) as broken:
        notice_faulty_work(permit, dpw_director)
    assert [v.code for v in broken.value.violations] == ["not_under_way"]


def test_303_4h_4_defect_after_the_guarantee_year_is_refused(issued_permit, contractor, clerk):
    permit = _completed(issued_permit, contractor)
    with pytest.raises(RulesBroken) as broken:
        board_finds_defect(permit, clerk, served_on=datetime.date(2027, 7, 16), deadline=datetime.date(2027, 8, 1))
    assert broken.value.violations[0].code == "outside_guarantee"
    assert not DefectNotice.objects.exists()


def village_repair(notice, by, repaired_on, costs=("400.00", "250.50", "100.00")):
    """The Village's repair of a defect, its (labor, materials, equipment) costs as typed."""
    labor, materials, equipment = (D(cost) for cost in costs)
    return field_work.record_village_repair(
        notice=notice, by=by, repaired_on=repaired_on, labor=labor, materials=materials, equipment=equipment
    )


def test_303_4h_2_uncorrected_defect_is_flagged_revoked_and_repaired_with_20_percent(
    issued_permit, contractor, dpw_director
):
    permit = _completed(issued_permit, contractor)
    notice = board_finds_defect(permit)
    assert field_work.flag_defects_past_deadline(today=datetime.date(2027, 4, 1)) == (0, 0)  # deadline day: in time
    assert field_work.flag_defects_past_deadline(today=datetime.date(2027, 4, 2)) == (1, 1)
    assert field_work.flag_defects_past_deadline(today=datetime.date(2027, 4, 2)) == (0, 0)  # idempotent
    revocation = ApplicantRevocation.objects.get()
    assert revocation.organization == permit.organization and revocation.until == datetime.date(2028, 4, 2)
    with pytest.raises(RulesBroken):  # the Village repairs only after the deadline
        village_repair(notice, dpw_director, datetime.date(2027, 4, 1), costs=("1", "1", "1"))
    fee_before = permit.fee_amount
    notice = village_repair(notice, dpw_director, datetime.date(2027, 4, 10))
    assert notice.repair_total == D("900.60")
    permit.refresh_from_db()
    assert permit.fee_amount == fee_before + D("900.60")
    # billed once only
    village_repair(notice, dpw_director, datetime.date(2027, 4, 10))
    permit.refresh_from_db()
    assert permit.fee_amount == fee_before + D("900.60")


def test_303_4h_2_defect_corrected_in_time_is_not_flagged(issued_permit, contractor, dpw_director, inspector):
    permit = _completed(issued_permit, contractor)
    notice = board_finds_defect(permit)
    field_work.record_correction(notice=notice, by=inspector, corrected_on=datetime.date(2027, 3, 20))
    assert field_work.flag_defects_past_deadline(today=datetime.date(2027, 4, 2)) == (0, 0)
    assert not ApplicantRevocation.objects.exists()


def test_contractor_cannot_confirm_its_own_correction(issued_permit, contractor, dpw_director):
    notice = board_finds_defect(_completed(issued_permit, contractor))
    with pytest.raises(PermissionDenied):
        field_work.record_correction(notice=notice, by=contractor)


def test_303_4h_3_guarantee_ends_after_the_anniversary_and_the_permit_closes(issued_permit, contractor):
    permit = _completed(issued_permit, contractor)
    assert field_work.end_guarantees(today=datetime.date(2027, 7, 15)) == (0, 0)
    assert field_work.end_guarantees(today=datetime.date(2027, 7, 16)) == (1, 1)
    assert field_work.end_guarantees(today=datetime.date(2027, 7, 16)) == (0, 0)
    permit.refresh_from_db()
    assert permit.status == Status.CLOSED and Guarantee.objects.get().ended


def test_303_4h_3_open_defect_keeps_the_permit_completed_after_the_guarantee_ends(
    issued_permit, contractor, dpw_director
):
    permit = _completed(issued_permit, contractor)
    board_finds_defect(permit, served_on=datetime.date(2027, 7, 1), deadline=datetime.date(2027, 8, 1))
    field_work.end_guarantees(today=datetime.date(2027, 7, 16))
    permit.refresh_from_db()
    assert permit.status == Status.COMPLETED


def test_303_5g_4_pavement_overdue_flagged_the_day_after_60_days_once(issued_permit):
    assert field_work.flag_permanent_pavement_overdue(today=datetime.date(2026, 7, 31)) == (0, 0)
    assert field_work.flag_permanent_pavement_overdue(today=datetime.date(2026, 8, 1)) == (1, 1)
    assert field_work.flag_permanent_pavement_overdue(today=datetime.date(2026, 8, 1)) == (0, 0)
    assert PavementRestoration.objects.get().overdue


def test_303_5g_4_june_1_is_on_time_for_a_winter_patch(make_issued, contractor):
    permit = make_issued(emergency=True)
    field_work.record_temporary_pavement(
        permit=permit, by=contractor, placed_on=datetime.date(2026, 12, 3), depth_inches=D("3.5")
    )
    assert field_work.flag_winter_patches_not_replaced(today=datetime.date(2027, 6, 1)) == (0, 0)
    assert field_work.flag_winter_patches_not_replaced(today=datetime.date(2027, 6, 2)) == (1, 1)
    assert field_work.flag_winter_patches_not_replaced(today=datetime.date(2027, 6, 2)) == (0, 0)


def announce_backfill_on_june_10(permit, contractor):
    """The permittee phones the DPW the day before: backfill at 13:00 on 6/10, the inspector's "today"."""
    with time_machine.travel(at(2026, 6, 9, 9)):
        field_work.record_permittee_notice(
            permit=permit,
            by=contractor,
            kind="dpw_backfill",
            planned_work_at=at(2026, 6, 10, 13),
            given_to="DPW",
            method="phone",
        )


def test_inspector_list_puts_work_announced_today_first(make_issued, contractor):
    first, second = make_issued(), make_issued()
    announce_backfill_on_june_10(second, contractor)
    rows = list(field_work.permits_to_inspect(today=datetime.date(2026, 6, 10)))
    assert [p.number for p in rows] == [second.number, first.number]
    assert rows[0].work_today and not rows[1].work_today
