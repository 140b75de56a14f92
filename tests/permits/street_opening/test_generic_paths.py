"""A street opening goes through every generic path (admin bulk actions, the admin status page, the API, the shell)
and is refused exactly where its own verbs refuse it: the rules live in the workflow (permits/street_opening/
workflow.py), not in the verbs."""

from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits import services, workflow
from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.street_opening import services as so
from permits.street_opening.field import services as field_work
from tests.permits.street_opening.conftest import complete_work, valid_data

FAILING_COMPACTION = {"lift_inches": D("12"), "compaction_percent": D("94.9"), "mechanical": True, "flooded": False}


def status_of(permit) -> str:
    return Permit.objects.values_list("status", flat=True).get(pk=permit.pk)


def admin_status_post(client, user, permit, to, reason="Back office"):
    client.force_login(user)
    return client.post(reverse("admin:permits_permit_status", args=[permit.pk]), {"to": to, "reason": reason})


def admin_bulk(client, user, permit, action):
    client.force_login(user)
    return client.post(
        reverse("admin:permits_permit_changelist"),
        {"action": action, "_selected_action": [permit.pk]},
        follow=True,
    )


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


@pytest.fixture
def without_certificate(spring, street, contractor, contractor_org, bond, clerk):
    """Under review with no certificate of insurance uploaded: § 303-4G refuses approval."""
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    return so.begin_review(permit=permit, by=clerk)


# --- § 303-4G / § 182.0175: approval ------------------------------------------------------------------------


def test_303_4g_admin_status_page_refuses_approval_without_a_certificate_as_the_verb_does(
    client, without_certificate, dpw_director
):
    with pytest.raises(RulesBroken) as verb:
        so.approve_street_opening(permit=without_certificate, by=dpw_director)
    response = admin_status_post(client, dpw_director, without_certificate, Status.APPROVED)
    assert status_of(without_certificate) == Status.UNDER_REVIEW
    shown = messages_of(client.get(response.url)) if response.status_code == 302 else messages_of(response)
    for violation in verb.value.violations:
        assert violation.message in shown
    assert "§ 303-4G" in shown


def test_303_4g_shell_transition_refuses_what_the_verb_refuses(without_certificate, dpw_director):
    with pytest.raises(RulesBroken) as verb:
        so.approve_street_opening(permit=without_certificate, by=dpw_director)
    with pytest.raises(RulesBroken) as shell:
        workflow.transition(without_certificate, Status.APPROVED, by=dpw_director)
    assert {v.code for v in shell.value.violations} == {v.code for v in verb.value.violations}
    with pytest.raises(RulesBroken):  # the system (a job, the shell with by=None) gets the same refusal
        workflow.transition(without_certificate, Status.APPROVED, by=None)
    assert status_of(without_certificate) == Status.UNDER_REVIEW


def test_303_4d_approval_through_the_admin_stamps_the_30_day_validity(client, under_review, dpw_director):
    response = admin_status_post(client, dpw_director, under_review, Status.APPROVED)
    assert response.status_code == 302
    permit = Permit.objects.get(pk=under_review.pk)
    assert permit.status == Status.APPROVED and permit.approved_on is not None
    assert permit.expires_on is not None and (permit.expires_on - permit.approved_on).days == 30


def test_303_4a_building_inspector_cannot_approve_even_through_the_admin(client, under_review, building_inspector):
    admin_status_post(client, building_inspector, under_review, Status.APPROVED)
    assert status_of(under_review) == Status.UNDER_REVIEW
    with pytest.raises(workflow.IllegalTransition):
        workflow.transition(under_review, Status.APPROVED, by=building_inspector)


def test_303_4a_the_clerk_approves_through_the_admin_without_the_dpw(client, under_review, clerk):
    admin_status_post(client, clerk, under_review, Status.APPROVED)
    assert status_of(under_review) == Status.APPROVED


# --- § 303-4B: review --------------------------------------------------------------------------------------


def test_303_4b_building_inspector_cannot_start_review_through_the_admin(
    client, application, building_inspector, clerk
):
    with pytest.raises(PermissionDenied):
        so.begin_review(permit=application, by=building_inspector)
    admin_bulk(client, building_inspector, application, "mark_under_review")
    assert status_of(application) == Status.SUBMITTED
    admin_status_post(client, building_inspector, application, Status.UNDER_REVIEW)
    assert status_of(application) == Status.SUBMITTED
    admin_bulk(client, clerk, application, "mark_under_review")
    assert status_of(application) == Status.UNDER_REVIEW


# --- § 303-4F(2): issue ------------------------------------------------------------------------------------


def test_303_4f_2_admin_bulk_issue_refuses_an_unpaid_fee_as_the_verb_does(client, approved, clerk):
    assert approved.balance_due > 0
    with pytest.raises(RulesBroken) as verb:
        so.issue_street_opening(permit=approved, by=clerk)
    response = admin_bulk(client, clerk, approved, "mark_issued")
    assert status_of(approved) == Status.APPROVED
    assert verb.value.violations[0].message in messages_of(response)
    assert "§ 303-4F(2)" in messages_of(response)


def test_303_4f_2_admin_bulk_issue_works_once_the_fee_is_paid_to_the_cent(client, approved, clerk):
    services.record_payment(permit=approved, amount=approved.balance_due - D("0.01"), method="cash", by=clerk)
    admin_bulk(client, clerk, approved, "mark_issued")
    assert status_of(approved) == Status.APPROVED  # one cent short
    services.record_payment(permit=approved, amount=D("0.01"), method="cash", by=clerk)
    admin_bulk(client, clerk, approved, "mark_issued")
    assert status_of(approved) == Status.ISSUED


# --- § 303-5E(5): completion -------------------------------------------------------------------------------


def test_303_5e_5_admin_cannot_complete_after_a_failed_compaction_test(
    client, issued, inspector, dpw_director, contractor
):
    field_work.log_inspection(permit=issued, kind="compaction", by=inspector, values=FAILING_COMPACTION)
    with pytest.raises(RulesBroken) as verb:
        complete_work(issued, permittee=contractor)
    response = admin_status_post(client, dpw_director, Permit.objects.get(pk=issued.pk), Status.COMPLETED)
    assert status_of(issued) == Status.ACTIVE
    shown = messages_of(client.get(response.url)) if response.status_code == 302 else messages_of(response)
    assert verb.value.violations[0].message in shown and "§ 303-5E(5)" in shown


# --- § 303-4H(3): closing ------------------------------------------------------------------------------------


def test_303_4h_3_admin_cannot_close_a_completed_permit_during_its_guarantee(client, issued, clerk, contractor):
    complete_work(issued, permittee=contractor)
    admin_bulk(client, clerk, issued, "mark_closed")
    assert status_of(issued) == Status.COMPLETED


# --- The API --------------------------------------------------------------------------------------------------


def test_api_offers_no_way_around_the_workflow(client, application, clerk):
    """The API creates applications and reads permits; a status is changed only by the workflow's verbs."""
    client.force_login(clerk)
    for name in ("permit-detail", "street-opening-detail"):
        url = reverse(name, args=[application.number])
        assert client.get(url).status_code == 200
        for method in (client.put, client.patch, client.delete):
            response = method(url, {"status": "issued"}, content_type="application/json")
            assert response.status_code == 405, (name, method)
    assert status_of(application) == Status.SUBMITTED
