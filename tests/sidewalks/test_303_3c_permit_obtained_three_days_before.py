"""§ 303-3C: the permit is OBTAINED (issued by the Clerk-Treasurer) at least three days before the work. The three days
run from the day of issue to the pour, not from the application: issued on day -3 passes, day -2 is refused, on every
path (the verb, the admin, the workflow for jobs and the shell), and the inspector's first visit flags work begun too
soon."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits import workflow
from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.services import record_payment
from sidewalks import rules, services
from tests.sidewalks.conftest import GOOD, PASSING, TODAY, at, stand

POUR = TODAY + timedelta(days=10)


@pytest.fixture
def paid(contractor, contractor_org, home, clerk):
    permit = services.apply_for_sidewalk_permit(
        applicant=contractor, organization=contractor_org, parcel=home, today=TODAY, **{**GOOD, "pour_date": POUR}
    )
    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    return stand(permit, clerk)


def status_of(permit):
    return Permit.objects.values_list("status", flat=True).get(pk=permit.pk)


# --- The rule ---------------------------------------------------------------------------------------------------------


def test_303_3c_issued_three_days_before_the_pour_is_enough():
    assert rules.check_lead_time(obtained_on=POUR - timedelta(days=3), pour_date=POUR, village_contract=False) == []


def test_303_3c_issued_two_days_before_the_pour_is_refused_and_says_when_work_may_start():
    issued_on = POUR - timedelta(days=2)
    [v] = rules.check_lead_time(obtained_on=issued_on, pour_date=POUR, village_contract=False)
    assert v.citation == "§ 303-3C" and v.field == "pour_date"
    assert "obtained at least three days before" in v.message
    assert f"{POUR + timedelta(days=1):%B %-d, %Y}" in v.message  # the day work could start


def test_303_3c_issued_the_day_before_the_pour_is_refused():
    assert rules.check_lead_time(obtained_on=POUR - timedelta(days=1), pour_date=POUR, village_contract=False)


def test_303_3c_a_permit_recorded_under_an_old_contract_flag_keeps_it():
    # Permits recorded before the contract became the clerk's record keep their flag; no new application sets it.
    assert rules.check_lead_time(obtained_on=POUR, pour_date=POUR, village_contract=True) == []


# --- The verb, from the day of issue (not of the application) ---------------------------------------------------------


def test_303_3c_permit_applied_for_early_but_issued_the_day_before_the_pour_is_refused(paid, clerk):
    with pytest.raises(RulesBroken) as caught:
        services.issue_sidewalk_permit(permit=paid, by=clerk, today=POUR - timedelta(days=1))
    assert "§ 303-3C" in str(caught.value)
    assert status_of(paid) == Status.SUBMITTED  # the whole issue is refused, not only its last step


def test_303_3c_issued_on_day_minus_2_is_refused(paid, clerk):
    with pytest.raises(RulesBroken):
        services.issue_sidewalk_permit(permit=paid, by=clerk, today=POUR - timedelta(days=2))
    assert status_of(paid) == Status.SUBMITTED


def test_303_3c_issued_on_day_minus_3_passes_and_the_timeline_says_when_work_may_start(paid, clerk):
    services.issue_sidewalk_permit(permit=paid, by=clerk, today=POUR - timedelta(days=3))
    assert status_of(paid) == Status.ISSUED
    assert paid.events.filter(reason__contains=f"work may start on {POUR:%B %-d, %Y}").exists()
    assert services.earliest_work_date_for(Permit.objects.get(pk=paid.pk)) == POUR


def test_303_3c_clerk_moves_the_pour_at_issue_and_the_new_date_is_checked(paid, clerk):
    today = POUR - timedelta(days=1)
    with pytest.raises(RulesBroken):
        services.issue_sidewalk_permit(permit=paid, by=clerk, today=today, pour_date=today + timedelta(days=2))
    assert Permit.objects.get(pk=paid.pk).sidewalk.pour_date == POUR  # nothing partial stored
    services.issue_sidewalk_permit(permit=paid, by=clerk, today=today, pour_date=today + timedelta(days=3))
    permit = Permit.objects.get(pk=paid.pk)
    assert permit.status == Status.ISSUED and permit.sidewalk.pour_date == today + timedelta(days=3)
    assert permit.events.filter(reason__contains="Planned pour moved").exists()


def test_303_3c_the_workflow_refuses_the_issue_on_every_path(paid, clerk):
    day = POUR - timedelta(days=2)
    workflow.transition(paid, Status.UNDER_REVIEW, by=clerk, today=day)
    workflow.transition(paid, Status.APPROVED, by=clerk, today=day)
    with pytest.raises(RulesBroken) as caught:
        workflow.transition(paid, Status.ISSUED, by=None, today=day)  # a job or the shell
    assert any(v.citation == "§ 303-3C" for v in caught.value.violations)
    workflow.transition(paid, Status.ISSUED, by=clerk, today=POUR - timedelta(days=3))
    assert status_of(paid) == Status.ISSUED


def test_303_3c_admin_bulk_issue_the_day_before_the_pour_is_refused(client, paid, clerk):
    workflow.transition(paid, Status.UNDER_REVIEW, by=clerk, today=TODAY)
    workflow.transition(paid, Status.APPROVED, by=clerk, today=TODAY)
    client.force_login(clerk)
    with time_machine.travel(
        datetime.combine(POUR - timedelta(days=1), datetime.min.time()).replace(
            hour=10, tzinfo=ZoneInfo("America/Chicago")
        ),
        tick=False,
    ):
        response = client.post(
            reverse("admin:permits_permit_changelist"),
            {"action": "mark_issued", "_selected_action": [paid.pk]},
            follow=True,
        )
    assert status_of(paid) == Status.APPROVED
    assert "§ 303-3C" in " ".join(str(m) for m in response.context["messages"])


def test_303_3c_issue_page_says_when_work_can_start_and_refuses_a_too_soon_pour(client, paid, clerk):
    client.force_login(clerk)
    with time_machine.travel(datetime(2026, 6, 10, 10, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        page = client.get(reverse("sidewalks:permit", args=[paid.number])).content.decode()
        assert "Saturday, Jun 13, 2026" in page  # issued today (June 10), work from June 13
        assert "too soon" in page  # the pour of June 11 is flagged before the clerk presses the button
        response = client.post(reverse("sidewalks:issue", args=[paid.number]), follow=True)
        assert status_of(paid) == Status.SUBMITTED
        assert "§ 303-3C" in response.content.decode()
        client.post(reverse("sidewalks:issue", args=[paid.number]), {"pour_date": "2026-06-13"})
    assert status_of(paid) == Status.ISSUED


@pytest.mark.parametrize("role", ["contractor", "inspector", "dpw_director", "board_member"])
def test_303_3c_only_the_clerk_treasurer_issues(request, paid, role):
    with pytest.raises(PermissionDenied):
        services.issue_sidewalk_permit(permit=paid, by=request.getfixturevalue(role), today=POUR - timedelta(days=5))


# --- The inspector flags work begun before the third day --------------------------------------------------------------


def test_303_3c_work_seen_before_the_third_day_after_issue_fails_the_inspection(paid, clerk, inspector):
    issued_on = POUR - timedelta(days=5)
    services.issue_sidewalk_permit(permit=paid, by=clerk, today=issued_on)
    early = services.record_inspection(
        permit=paid,
        stage="subgrade",
        by=inspector,
        inspected_at=at(issued_on + timedelta(days=2)),
        **PASSING["subgrade"],
    )
    assert early.result == "failed" and "§ 303-3C" in early.citations
    on_time = services.record_inspection(
        permit=paid,
        stage="subgrade",
        by=inspector,
        inspected_at=at(issued_on + timedelta(days=3)),
        **PASSING["subgrade"],
    )
    assert on_time.result == "passed"


def test_303_3c_earliest_work_day_counts_calendar_days_from_issue():
    assert rules.earliest_work_date(date(2026, 6, 5)) == date(2026, 6, 8)


def test_303_3c_application_cannot_plan_a_pour_sooner_than_three_days_out(contractor, home):
    with pytest.raises(ValidationError):
        services.apply_for_sidewalk_permit(
            applicant=contractor, parcel=home, today=TODAY, **{**GOOD, "pour_date": TODAY + timedelta(days=2)}
        )
    assert Decimal(GOOD["width_feet"]) == Decimal("4")
