"""What a street opening permit's 30 days govern, approvals that hold, completion requested by
the permittee and confirmed by the DPW, and written renewals paid before they take effect.

§ 303-4D with § 303-5G: the 30 days are for opening the street; a permit whose street was opened keeps its
restoration duties, inspections, completion and guarantee. § 303-4D: no permit approved to lapse before its work.
§ 303-1C(8), § 303-4F(1), § 303-4H(3): completion after a passed final inspection, the guarantee from that date.
§ 303-4E with § 303-5A: a written request, the renewal fee paid first, no renewal into the frozen-ground season.
"""

import datetime
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from permits import services, workflow
from permits.errors import RulesBroken
from permits.models import Notice, Permit, Status
from permits.state import history_of
from permits.street_opening import lifecycle, validity
from permits.street_opening import services as so
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import Guarantee
from permits.street_opening.models import EmergencyDetermination, Renewal, StreetOpening
from permits.tasks import expire_lapsed
from tests.factories import PermitFactory
from tests.permits.street_opening.conftest import file_certificate, valid_data
from tests.permits.street_opening.field.conftest import add_detail, issue

pytestmark = pytest.mark.django_db

PASSING_TRENCH = {"excavated_ahead_feet": Decimal("100"), "unfilled_feet": Decimal("200")}
FAILING_TRENCH = {"excavated_ahead_feet": Decimal("300"), "unfilled_feet": Decimal("200")}


def codes(error) -> set[str]:
    return {v.code for v in error.value.violations}


def fresh(permit) -> Permit:
    return Permit.objects.get(pk=permit.pk)


@pytest.fixture
def issued_on(contractor, contractor_org):
    """A street opening issued (and approved) on a given day, valid 30 days from it (§ 303-4D)."""

    def make(on: date, **detail) -> Permit:
        permit = PermitFactory(
            applicant=contractor, organization=contractor_org, start_date=on, end_date=on + datetime.timedelta(days=2)
        )
        add_detail(permit, **detail)
        return issue(permit, on=on)

    return make


# --- Item 1. § 303-4D with § 303-5G: the validity is for opening the street ----------------------------------------


def test_303_4D_a_permit_never_opened_is_valid_on_day_30_and_expires_on_day_31(issued_on):
    permit = issued_on(date(2026, 6, 1))  # valid through July 1
    assert expire_lapsed(today=date(2026, 7, 1)) == (0, 0)
    assert fresh(permit).status == Status.ISSUED
    assert expire_lapsed(today=date(2026, 7, 2)) == (1, 1)
    assert fresh(permit).status == Status.EXPIRED
    assert "street never opened (§ 303-4D)" in fresh(permit).events.last().reason


def test_303_4D_303_5G_an_opened_permit_keeps_its_restoration_past_day_30(issued_on, inspector, contractor):
    permit = issued_on(date(2026, 6, 1))
    field_work.log_inspection(permit=permit, kind="trench", by=inspector, values=PASSING_TRENCH)
    assert expire_lapsed(today=date(2026, 7, 1)) == (0, 0)
    assert expire_lapsed(today=date(2026, 7, 2)) == (1, 1)
    permit = fresh(permit)
    assert permit.status == Status.ACTIVE  # not expired: inspectable and completable
    assert permit.street_opening.opening_lapsed_on == date(2026, 7, 2)
    assert (
        "right to open the street ended July 2, 2026 (§ 303-4D)"
        in permit.events.filter(reason__startswith="The right to open").get().reason
    )
    assert Notice.objects.filter(template="street_opening_opening_lapsed", to=contractor.email).count() == 1
    assert expire_lapsed(today=date(2026, 7, 3)) == (1, 0)  # recorded once
    assert fresh(permit).status == Status.ACTIVE


def test_303_4D_work_begun_counts_as_opened(issued_on):
    permit = issued_on(date(2026, 6, 1))
    StreetOpening.objects.filter(permit=permit).update(work_begun_on=date(2026, 6, 20))
    expire_lapsed(today=date(2026, 7, 2))
    assert fresh(permit).status == Status.ISSUED


def test_303_5G_4_permanent_pavement_deadline_day_60_then_inspected_and_completed(issued_on, inspector, contractor):
    permit = issued_on(date(2026, 6, 1))  # permanent pavement due within 60 days: July 31
    field_work.log_inspection(permit=permit, kind="trench", by=inspector, values=PASSING_TRENCH)
    expire_lapsed(today=date(2026, 7, 2))
    assert field_work.flag_permanent_pavement_overdue(today=date(2026, 7, 31)) == (0, 0)
    assert field_work.flag_permanent_pavement_overdue(today=date(2026, 8, 1)) == (1, 1)
    expire_lapsed(today=date(2026, 8, 1))
    permit = fresh(permit)
    assert permit.status == Status.ACTIVE
    field_work.log_inspection(permit=permit, kind="final", by=inspector, values={"surface_restored": True})
    lifecycle.request_completion(permit=permit, by=contractor)
    guarantee = lifecycle.confirm_completion(permit=fresh(permit), by=inspector, today=date(2026, 8, 3))
    assert guarantee.completed_on == date(2026, 8, 3) and guarantee.ends_on == date(2027, 8, 3)


def test_303_5G_4_winter_patch_due_june_1_outlives_the_validity(issued_on, inspector, contractor):
    permit = issued_on(date(2026, 12, 1), emergency=True)  # valid through December 31
    field_work.record_temporary_pavement(
        permit=permit, by=contractor, placed_on=date(2026, 12, 3), depth_inches=Decimal("3")
    )
    assert fresh(permit).pavement_restoration.permanent_due_on == date(2027, 6, 1)
    for day in (date(2027, 1, 1), date(2027, 5, 31), date(2027, 6, 1), date(2027, 6, 2)):
        expire_lapsed(today=day)
        assert fresh(permit).status == Status.ISSUED, day
    assert field_work.flag_winter_patches_not_replaced(today=date(2027, 6, 1)) == (0, 0)
    assert field_work.flag_winter_patches_not_replaced(today=date(2027, 6, 2)) == (1, 1)
    field_work.record_permanent_pavement(permit=fresh(permit), by=contractor, completed_on=date(2027, 6, 3))
    field_work.log_inspection(permit=fresh(permit), kind="final", by=inspector, values={"surface_restored": True})
    lifecycle.request_completion(permit=fresh(permit), by=contractor)
    guarantee = lifecycle.confirm_completion(permit=fresh(permit), by=inspector, today=date(2027, 6, 4))
    assert fresh(permit).status == Status.COMPLETED and guarantee.completed_on == date(2027, 6, 4)


def test_303_4D_lapse_outcome_rule_boundaries():
    expires = date(2026, 7, 1)
    assert validity.lapse_outcome(expires_on=expires, today=expires, opened=False) is None
    assert validity.lapse_outcome(expires_on=expires, today=date(2026, 7, 2), opened=False) == "expire"
    assert validity.lapse_outcome(expires_on=expires, today=date(2026, 7, 2), opened=True) == "opening_lapsed"


# --- Item 2. § 303-4D: no permit dead before its work ---------------------------------------------------------------


def test_303_4D_approval_can_come_30_days_before_the_last_planned_day():
    assert validity.approval_can_come_on(start_date=date(2027, 4, 12), end_date=date(2027, 4, 14)) == date(2027, 3, 15)
    # work longer than the validity: the day before it starts (a renewal carries the rest)
    assert validity.approval_can_come_on(start_date=date(2027, 5, 1), end_date=date(2027, 6, 30)) == date(2027, 4, 30)


def test_303_4D_approval_refused_the_day_before_it_can_come_and_allowed_that_day():
    start, end = date(2027, 4, 12), date(2027, 4, 14)
    [refusal] = validity.validity_before_work_violations(approving_on=date(2027, 3, 14), start_date=start, end_date=end)
    assert refusal.citation == "§ 303-4D" and not refusal.warning
    assert (
        "valid through April 13, 2027" in refusal.message
        and "Hold the approval until March 15, 2027" in refusal.message
    )
    assert (
        validity.validity_before_work_violations(approving_on=date(2027, 3, 15), start_date=start, end_date=end) == []
    )
    assert validity.validity_before_work_violations(approving_on=date(2026, 12, 1), start_date=start, end_date=end)


def test_303_4D_work_longer_than_the_validity_is_approved_with_a_renewal_warning():
    [warning] = validity.validity_before_work_violations(
        approving_on=date(2027, 4, 30), start_date=date(2027, 5, 1), end_date=date(2027, 6, 30)
    )
    assert warning.warning and "renewal" in warning.message


@pytest.fixture
def july_application(spring, street, contractor, contractor_org, bond, clerk):
    """Applied May 4, 2026 for work July 20 to 22: approval can come June 22."""
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(street, start_date=date(2026, 7, 20), end_date=date(2026, 7, 22)),
    )
    file_certificate(permit, contractor)
    return so.begin_review(permit=permit, by=clerk)


def test_303_4D_approval_refused_when_the_validity_ends_before_the_planned_work(july_application, dpw_director):
    with pytest.raises(RulesBroken) as refused:
        so.approve_street_opening(permit=july_application, by=dpw_director)
    assert "validity_ends_before_work" in codes(refused)
    assert fresh(july_application).status == Status.UNDER_REVIEW and fresh(july_application).expires_on is None


def test_303_4D_the_admin_cannot_approve_around_the_rule(client, july_application, dpw_director):
    client.force_login(dpw_director)
    client.post(
        reverse("admin:permits_permit_status", args=[july_application.pk]), {"to": "approved", "reason": "Office"}
    )
    assert fresh(july_application).status == Status.UNDER_REVIEW


def test_303_4D_hold_the_approval_queue_it_and_tell_the_applicant(
    client, july_application, dpw_director, contractor, django_assert_max_num_queries
):
    held = lifecycle.hold_approval(permit=july_application, by=dpw_director)
    assert held.approval_held_until == date(2026, 6, 22)
    assert Notice.objects.filter(template="street_opening_approval_held", to=contractor.email).exists()
    client.force_login(dpw_director)
    with django_assert_max_num_queries(20):
        page = client.get(reverse("permits:street_opening_held_approvals")).content.decode()
    assert july_application.number in page and "Jun 22, 2026" in page
    client.force_login(contractor)
    detail = client.get(july_application.get_absolute_url()).content.decode()
    assert "Approval can come on June 22, 2026" in detail


def test_303_4D_held_approvals_page_queries_do_not_grow_with_rows(
    client, july_application, dpw_director, street, contractor, contractor_org, clerk, django_assert_max_num_queries
):
    lifecycle.hold_approval(permit=july_application, by=dpw_director)
    client.force_login(dpw_director)
    url = reverse("permits:street_opening_held_approvals")
    with django_assert_max_num_queries(20) as one:
        client.get(url)
    for n in range(4):
        permit = so.apply_for_street_opening(
            applicant=contractor,
            organization=contractor_org,
            data=valid_data(
                street, start_date=date(2026, 8, 1), end_date=date(2026, 8, 3), location_description=f"#{n}"
            ),
        )
        file_certificate(permit, contractor)
        so.begin_review(permit=permit, by=clerk)
        lifecycle.hold_approval(permit=permit, by=dpw_director)
    with django_assert_max_num_queries(len(one.captured_queries)):
        client.get(url)


def test_303_4D_applicant_told_at_filing_when_approval_can_come(
    spring, client, street, contractor, contractor_org, bond
):
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(street, start_date=date(2026, 7, 20), end_date=date(2026, 7, 22)),
    )
    assert permit.street_opening.approval_can_come_later == date(2026, 6, 22)
    api = APIClient()
    api.force_authenticate(contractor)
    assert api.get(f"/api/v1/street-openings/{permit.number}/").json()["approval_can_come_on"] == "2026-06-22"


@pytest.mark.parametrize("persona", ["clerk", "inspector", "contractor"])
def test_303_4D_only_the_dpw_holds_an_approval(july_application, persona, request):
    with pytest.raises(PermissionDenied):
        lifecycle.hold_approval(permit=july_application, by=request.getfixturevalue(persona))


def test_303_4D_nothing_to_hold_when_the_approval_can_come_today(under_review, dpw_director):
    with pytest.raises(RulesBroken) as refused:
        lifecycle.hold_approval(permit=under_review, by=dpw_director)
    assert codes(refused) == {"nothing_to_hold"}


def test_303_4D_held_approval_given_on_its_day(july_application, dpw_director, spring):
    lifecycle.hold_approval(permit=july_application, by=dpw_director)
    spring.move_to(datetime.datetime(2026, 6, 22, 10, 0, tzinfo=timezone.get_current_timezone()))
    so.approve_street_opening(permit=fresh(july_application), by=dpw_director)
    permit = fresh(july_application)
    assert permit.status == Status.APPROVED and permit.expires_on == date(2026, 7, 22) == permit.end_date


def test_303_4D_approve_with_dates_the_validity_covers(july_application, dpw_director, contractor):
    lifecycle.approve_with_dates(
        permit=july_application, by=dpw_director, start_date=date(2026, 5, 20), end_date=date(2026, 5, 22)
    )
    permit = fresh(july_application)
    assert permit.status == Status.APPROVED and (permit.start_date, permit.end_date) == (
        date(2026, 5, 20),
        date(2026, 5, 22),
    )
    assert permit.expires_on == date(2026, 6, 3) >= permit.end_date
    assert permit.events.filter(reason__contains="were July 20 to July 22, 2026").exists()
    assert Notice.objects.filter(template="street_opening_dates_set", to=contractor.email).exists()


def test_303_4D_approve_with_dates_past_the_validity_is_refused(july_application, dpw_director):
    with pytest.raises(RulesBroken) as refused:
        lifecycle.approve_with_dates(
            permit=july_application, by=dpw_director, start_date=date(2026, 5, 20), end_date=date(2026, 6, 4)
        )
    assert codes(refused) == {"end_after_validity"}
    permit = fresh(july_application)
    assert permit.status == Status.UNDER_REVIEW and permit.start_date == date(2026, 7, 20)


def test_303_4D_approval_page_offers_the_hold_and_the_dates(client, july_application, dpw_director):
    client.force_login(dpw_director)
    page = client.get(reverse("permits:street_opening_manage", args=[july_application.number])).content.decode()
    assert "The validity would end before the work" in page
    assert "Hold the approval until June 22, 2026" in page and "Approve with these planned dates" in page
    client.post(reverse("permits:street_opening_act", args=[july_application.number, "hold"]))
    assert StreetOpening.objects.get(permit=july_application).approval_held_until == date(2026, 6, 22)


# --- Item 3. § 303-1C(8), § 303-4F(1), § 303-4H(3): completion after the inspected work ----------------------------


@pytest.fixture
def working(issued_on, inspector):
    permit = issued_on(date(2026, 6, 1))
    field_work.log_inspection(permit=permit, kind="trench", by=inspector, values=PASSING_TRENCH)
    return fresh(permit)


def test_303_4H_3_the_permittee_requests_and_nothing_completes(working, contractor, inspector):
    lifecycle.request_completion(permit=working, by=contractor)
    permit = fresh(working)
    assert permit.status == Status.ACTIVE and not Guarantee.objects.filter(permit=permit).exists()
    assert permit in field_work.permits_to_inspect(today=date(2026, 6, 10))  # still on the inspector's list
    assert Notice.objects.filter(template="street_opening_completion_requested", to=inspector.email).exists()


def test_303_1C_8_completion_refused_without_a_passed_final_inspection(working, contractor, inspector):
    lifecycle.request_completion(permit=working, by=contractor)
    with pytest.raises(RulesBroken) as refused:
        lifecycle.confirm_completion(permit=fresh(working), by=inspector)
    assert codes(refused) == {"final_inspection_not_passed"}
    field_work.log_inspection(permit=working, kind="final", by=inspector, values={"surface_restored": False})
    with pytest.raises(RulesBroken) as refused:
        lifecycle.confirm_completion(permit=fresh(working), by=inspector)
    assert codes(refused) == {"final_inspection_not_passed"}
    assert fresh(working).status == Status.ACTIVE


def test_303_4F_1_completion_refused_while_an_inspection_failure_is_open(working, contractor, inspector):
    lifecycle.request_completion(permit=working, by=contractor)
    field_work.log_inspection(permit=working, kind="trench", by=inspector, values=FAILING_TRENCH)
    field_work.log_inspection(permit=working, kind="final", by=inspector, values={"surface_restored": True})
    with pytest.raises(RulesBroken) as refused:
        lifecycle.confirm_completion(permit=fresh(working), by=inspector)
    assert codes(refused) == {"inspection_failure_open"} and "§ 303-4F(1)" in str(refused.value)
    field_work.log_inspection(permit=working, kind="trench", by=inspector, values=PASSING_TRENCH)
    lifecycle.confirm_completion(permit=fresh(working), by=inspector)
    assert fresh(working).status == Status.COMPLETED


def test_303_4H_3_completion_refused_without_the_permittees_request(working, inspector):
    field_work.log_inspection(permit=working, kind="final", by=inspector, values={"surface_restored": True})
    with pytest.raises(RulesBroken) as refused:
        lifecycle.confirm_completion(permit=fresh(working), by=inspector)
    assert codes(refused) == {"completion_not_requested"}


@pytest.mark.parametrize("persona", ["inspector", "dpw_director"])
def test_303_4H_3_the_guarantee_starts_on_the_confirmation_date(working, contractor, persona, request):
    confirmer = request.getfixturevalue(persona)
    lifecycle.request_completion(permit=working, by=contractor, today=date(2026, 6, 10))
    field_work.log_inspection(permit=working, kind="final", by=confirmer, values={"surface_restored": True})
    guarantee = lifecycle.confirm_completion(permit=fresh(working), by=confirmer, today=date(2026, 6, 12))
    assert guarantee.completed_on == date(2026, 6, 12) == fresh(working).completed_on
    assert guarantee.ends_on == date(2027, 6, 12)
    assert Notice.objects.filter(template="street_opening_completion_confirmed", to=contractor.email).exists()
    assert fresh(working) not in field_work.permits_to_inspect(today=date(2026, 6, 12))


@pytest.mark.parametrize("persona", ["contractor", "clerk", "building_inspector", "board_member"])
def test_303_1C_8_who_may_not_confirm_completion(working, contractor, inspector, persona, request):
    lifecycle.request_completion(permit=working, by=contractor)
    field_work.log_inspection(permit=working, kind="final", by=inspector, values={"surface_restored": True})
    with pytest.raises(PermissionDenied):
        lifecycle.confirm_completion(permit=fresh(working), by=request.getfixturevalue(persona))
    assert fresh(working).status == Status.ACTIVE


def test_303_1C_8_the_admin_cannot_complete_before_the_final_inspection(client, working, contractor, dpw_director):
    lifecycle.request_completion(permit=working, by=contractor)
    client.force_login(dpw_director)
    response = client.post(
        reverse("admin:permits_permit_status", args=[working.pk]), {"to": "completed", "reason": "Office"}, follow=True
    )
    assert fresh(working).status == Status.ACTIVE
    assert "§ 303-1C(8)" in response.content.decode()


def test_303_1C_8_refused_completion_tells_the_permittee_why(working, contractor, inspector):
    lifecycle.request_completion(permit=working, by=contractor)
    lifecycle.refuse_completion(permit=working, by=inspector, reason="Patch edges not sealed")
    assert StreetOpening.objects.get(permit=working).completion_requested_at is None
    notice = Notice.objects.get(template="street_opening_completion_refused", to=contractor.email)
    assert "Patch edges not sealed" in notice.body


def test_303_4H_3_api_completion_request_is_a_request(working, contractor):
    api = APIClient()
    api.force_authenticate(contractor)
    response = api.post(f"/api/v1/street-openings/{working.number}/completion-request/")
    assert response.status_code == 200 and response.json()["completion_requested_at"]
    assert fresh(working).status == Status.ACTIVE


def test_303_4H_3_only_the_permittee_requests_completion(working, outsider, inspector):
    with pytest.raises(PermissionDenied):
        lifecycle.request_completion(permit=working, by=inspector)


# --- Item 4. § 303-4E with § 303-5A: renewal --------------------------------------------------------------------------


@pytest.fixture
def begun(issued_on, fees):
    """Issued June 1, 2026, valid through July 1; work began June 3."""
    permit = issued_on(date(2026, 6, 1))
    StreetOpening.objects.filter(permit=permit).update(work_begun_on=date(2026, 6, 3))
    return fresh(permit)


def ask(permit, by, today=date(2026, 6, 20), reason="The main is deeper than the plans showed"):
    return lifecycle.request_renewal(permit=permit, by=by, work_begun_on=date(2026, 6, 3), reason=reason, today=today)


def test_303_4E_renewal_refused_until_fee_paid(begun, contractor, clerk):
    ask(begun, contractor)
    renewal = so.renew_street_opening(permit=fresh(begun), by=clerk, today=date(2026, 6, 21))
    permit = fresh(begun)
    assert renewal.took_effect_at is None and permit.expires_on == date(2026, 7, 1)
    assert Notice.objects.filter(template="street_opening_renewal_granted", to=contractor.email).exists()
    services.record_payment(permit=permit, amount=Decimal("24.99"), method="cash", by=clerk)
    assert fresh(begun).expires_on == date(2026, 7, 1)  # one cent short: not in effect
    services.record_payment(permit=fresh(begun), amount=Decimal("0.01"), method="cash", by=clerk)
    assert fresh(begun).expires_on == date(2026, 7, 31)
    assert Renewal.objects.get(pk=renewal.pk).took_effect_at is not None


def test_303_4E_unpaid_renewal_lets_the_right_to_open_lapse_until_paid(begun, contractor, clerk):
    ask(begun, contractor)
    so.renew_street_opening(permit=fresh(begun), by=clerk, today=date(2026, 6, 21))
    expire_lapsed(today=date(2026, 7, 2))
    permit = fresh(begun)
    assert permit.status == Status.ISSUED and permit.street_opening.opening_lapsed_on == date(2026, 7, 2)
    services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)
    permit = fresh(begun)
    assert permit.expires_on == date(2026, 7, 31) and permit.street_opening.opening_lapsed_on is None


def test_303_4E_a_written_request_needs_its_reason_and_a_past_start(begun, contractor):
    with pytest.raises(RulesBroken) as refused:
        ask(begun, contractor, reason=" ")
    assert codes(refused) == {"required"}
    with pytest.raises(RulesBroken) as refused:
        lifecycle.request_renewal(
            permit=begun, by=contractor, work_begun_on=date(2026, 6, 21), reason="x", today=date(2026, 6, 20)
        )
    assert codes(refused) == {"work_begun_future"}


def test_303_4E_only_the_permittee_asks(begun, outsider, clerk):
    for person in (outsider, clerk):
        with pytest.raises(PermissionDenied):
            ask(begun, person)


def test_303_4E_no_grant_without_a_written_request(begun, clerk):
    with pytest.raises(RulesBroken) as refused:
        so.renew_street_opening(permit=begun, by=clerk, today=date(2026, 6, 21))
    assert codes(refused) == {"renewal_not_requested"}


@pytest.mark.parametrize(
    "persona,may", [("clerk", True), ("dpw_director", True), ("inspector", False), ("contractor", False)]
)
def test_303_4E_who_may_grant(begun, contractor, persona, may, request):
    ask(begun, contractor)
    by = request.getfixturevalue(persona)
    if may:
        assert so.renew_street_opening(permit=fresh(begun), by=by, today=date(2026, 6, 21))
    else:
        with pytest.raises(PermissionDenied):
            so.renew_street_opening(permit=fresh(begun), by=by, today=date(2026, 6, 21))


def test_303_4E_refused_request_is_told_to_the_permittee(begun, contractor, dpw_director):
    ask(begun, contractor)
    lifecycle.refuse_renewal(permit=begun, by=dpw_director, reason="Work has stopped")
    assert "Work has stopped" in Notice.objects.get(template="street_opening_renewal_refused").body
    ask(begun, contractor)  # a new request may follow


def test_303_4E_each_decision_on_a_renewal_request_is_audited(begun, contractor, clerk, dpw_director):
    refused = ask(begun, contractor)
    lifecycle.refuse_renewal(permit=begun, by=dpw_director, reason="Work has stopped")
    granted = ask(begun, contractor)
    so.renew_street_opening(permit=fresh(begun), by=clerk, today=date(2026, 6, 21))
    for request, to, by in ((refused, "refused", dpw_director), (granted, "granted", clerk)):
        (change,) = history_of(request)
        assert (change.field, change.from_state, change.to_state, change.actor) == ("state", "pending", to, by)
        assert "§ 303-4E" in change.reason


def test_303_5A_renewal_into_november_15_refused_and_november_14_allowed(issued_on, contractor, fees):
    ok = issued_on(date(2026, 9, 15))  # valid through October 15; renewed through November 14
    StreetOpening.objects.filter(permit=ok).update(work_begun_on=date(2026, 9, 20))
    ask(ok, contractor, today=date(2026, 10, 10))
    late = issued_on(date(2026, 9, 16))  # valid through October 16; renewed through November 15
    with pytest.raises(RulesBroken) as refused:
        ask(late, contractor, today=date(2026, 10, 10))
    assert codes(refused) == {"renewal_into_winter"} and "§ 303-5A" in str(refused.value)


def test_303_5A_renewal_into_winter_allowed_with_the_boards_emergency_determination(
    issued_on, contractor, board_member, clerk, fees
):
    permit = issued_on(date(2026, 10, 20), emergency=True)
    EmergencyDetermination.objects.create(
        street_opening=permit.street_opening, determined_by=board_member, determined_at=timezone.now(), reason="Main"
    )
    ask(permit, contractor, today=date(2026, 11, 10))
    assert so.renew_street_opening(permit=fresh(permit), by=clerk, today=date(2026, 11, 10))


def test_303_4E_api_written_request(begun, contractor, spring):
    api = APIClient()
    api.force_authenticate(contractor)
    url = f"/api/v1/street-openings/{begun.number}/renewal-request/"
    missing = api.post(url, {"work_begun_on": "2026-05-01"}, format="json")
    assert missing.status_code == 400
    assert {e["citation"] for e in missing.json()["errors"]} == {"§ 303-4E"}
    created = api.post(url, {"work_begun_on": "2026-05-01", "reason": "Rain"}, format="json")
    assert created.status_code == 201 and created.json()["state"] == "pending"


@pytest.mark.slow
def test_demo_shows_a_held_approval_a_pending_renewal_request_and_a_completion_request(db):
    import io

    import time_machine
    from django.core.management import call_command

    from permits.street_opening.models import RenewalRequest

    with time_machine.travel(datetime.datetime(2026, 12, 1, 10, 0, tzinfo=timezone.get_current_timezone())):
        call_command("load_demo", stdout=io.StringIO())
    assert StreetOpening.objects.filter(approval_held_until__isnull=False, permit__status=Status.UNDER_REVIEW).exists()
    assert RenewalRequest.objects.filter(state=RenewalRequest.State.PENDING).exists()
    assert StreetOpening.objects.filter(completion_requested_at__isnull=False).exists()


def test_303_4D_no_new_excavation_announced_after_the_right_to_open_ended(issued_on, inspector, contractor):
    permit = issued_on(date(2026, 6, 1))
    field_work.log_inspection(permit=permit, kind="trench", by=inspector, values=PASSING_TRENCH)
    expire_lapsed(today=date(2026, 7, 2))
    tz = timezone.get_current_timezone()

    def phone_the_dpw(kind, work_on, given_on):  # the notice at 8:00 on given_on, for work at 8:00 on work_on
        at_8 = datetime.time(8, 0)
        return field_work.record_permittee_notice(
            permit=fresh(permit),
            by=contractor,
            kind=kind,
            planned_work_at=datetime.datetime.combine(work_on, at_8, tzinfo=tz),
            given_to="DPW",
            method="phone",
            given_at=datetime.datetime.combine(given_on, at_8, tzinfo=tz),
        )

    with pytest.raises(RulesBroken) as refused:
        phone_the_dpw("dpw_excavation", date(2026, 7, 2), date(2026, 6, 30))
    assert codes(refused) == {"opening_lapsed"}
    # the day before it ended, excavation was still allowed
    phone_the_dpw("dpw_excavation", date(2026, 7, 1), date(2026, 6, 29))
    phone_the_dpw("dpw_backfill", date(2026, 7, 3), date(2026, 7, 2))  # restoration goes on


def test_303_5G_not_even_the_system_expires_an_opened_permit(issued_on, inspector):
    permit = issued_on(date(2026, 6, 1))
    field_work.log_inspection(permit=permit, kind="trench", by=inspector, values=PASSING_TRENCH)
    after_validity = fresh(permit).expires_on + datetime.timedelta(days=1)
    with pytest.raises(RulesBroken) as refused:
        workflow.transition(fresh(permit), Status.EXPIRED, by=None, today=after_validity)
    assert codes(refused) == {"restoration_running"} and fresh(permit).status == Status.ACTIVE
    unopened = issued_on(date(2026, 6, 1))
    workflow.transition(fresh(unopened), Status.EXPIRED, by=None, today=after_validity)
    assert fresh(unopened).status == Status.EXPIRED


def test_303_4d_the_clerk_cannot_expire_a_permit_in_the_admin(client, issued_on, clerk):
    permit = issued_on(date(2026, 6, 1))
    client.force_login(clerk)
    page = client.get(reverse("admin:permits_permit_status", args=[permit.pk])).content.decode()
    assert 'value="expired"' not in page
    client.post(reverse("admin:permits_permit_status", args=[permit.pk]), {"to": "expired", "reason": "Office"})
    assert fresh(permit).status == Status.ISSUED


def test_held_approvals_queue_is_capped_and_indexed(client, july_application, dpw_director):
    """The queue reads the held rows through a partial index, and its count is capped (40 pages)."""
    from permits.paging import CappedPaginator
    from permits.street_opening.models import StreetOpening

    lifecycle.hold_approval(permit=july_application, by=dpw_director)
    client.force_login(dpw_director)
    response = client.get(reverse("permits:street_opening_held_approvals"), {"page": 100000})
    assert isinstance(response.context["page"].paginator, CappedPaginator)
    assert july_application.number in response.content.decode()
    index = next(i for i in StreetOpening._meta.indexes if i.name == "so_approval_held_until_idx")
    assert index.fields == ["approval_held_until"] and index.condition is not None
