"""§ 303-5B(3) (lanes kept open each way, traffic control) and § 303-1C(7) (emergency underground construction
approved by the DPW afterwards): the rules at their boundaries, the services, who may act, the pages and the API."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.urls import reverse
from rest_framework.test import APIClient

from permits.errors import RulesBroken
from permits.models import Status
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.field import services as field_work
from tests.permits.street_opening.conftest import complete_work, file_certificate, valid_data

pytestmark = pytest.mark.django_db


def codes(violations):
    return {v.code for v in violations}


# § 303-5B(3): the rule ---------------------------------------------------------------------------------------------


def lanes(n, control="none", approved=False, at_approval=True):
    return ordinance.lanes_violations(
        lanes_open_each_way=n, traffic_control=control, closure_approved=approved, at_approval=at_approval
    )


def test_303_5b_3_one_lane_each_way_is_enough():
    assert lanes(1) == [] and lanes(2) == [] and lanes(1, at_approval=False) == []


def test_303_5b_3_no_lanes_without_dpw_approval_is_refused_at_approval():
    (v,) = lanes(0)
    assert v.code == "lanes_closed" and v.field == "lanes_open_each_way" and not v.warning
    assert v.citation == "§ 303-5B(3)" and "(§ 303-5B(3))" in v.message


def test_303_5b_3_no_lanes_is_a_warning_at_application():
    violations = lanes(0, at_approval=False)
    assert codes(violations) == {"lanes_closed", "traffic_control_required"}
    assert all(v.warning for v in violations)
    assert codes(lanes(0, "flagman", at_approval=False)) == {"lanes_closed"}


def test_303_5b_3_approved_closure_needs_a_flagman_or_temporary_signal():
    (v,) = lanes(0, "none", approved=True)
    assert v.code == "traffic_control_required" and v.field == "traffic_control" and not v.warning
    assert lanes(0, "flagman", approved=True) == []
    assert lanes(0, "temporary_signal", approved=True) == []


def test_303_5b_3_missing_lane_count_defaults_to_one_lane_each_way():
    assert lanes(None) == []


# § 303-5B(3): the services ----------------------------------------------------------------------------------------


@pytest.fixture
def closure_review(spring, street, contractor, contractor_org, bond, clerk):
    def make(control):
        permit = so.apply_for_street_opening(
            applicant=contractor,
            organization=contractor_org,
            data=valid_data(street, lanes_open_each_way=0, traffic_control=control),
        )
        file_certificate(permit, contractor)
        return so.begin_review(permit=permit, by=clerk)

    return make


def test_303_5b_3_application_defaults_to_one_lane_and_no_traffic_control(application):
    detail = application.street_opening
    assert detail.lanes_open_each_way == 1 and detail.traffic_control == "none"


def test_303_5b_3_closure_is_accepted_at_application_with_the_warning_on_the_timeline(closure_review):
    permit = closure_review("flagman")
    assert permit.street_opening.lanes_open_each_way == 0
    assert permit.events.filter(reason__contains="(§ 303-5B(3))").exists()


def test_303_5b_3_dpw_approval_of_a_closure_is_recorded_as_a_condition(closure_review, dpw_director):
    permit = closure_review("temporary_signal")
    with pytest.raises(so.RulesBroken) as refused:
        so.approve_street_opening(permit=permit, by=dpw_director)
    assert codes(refused.value.violations) == {"lanes_closed"}
    so.approve_street_opening(permit=permit, by=dpw_director, conditions="Work 9 to 3", approve_lane_closure=True)
    permit.refresh_from_db()
    detail = permit.street_opening
    assert permit.status == Status.APPROVED
    assert detail.lane_closure_approved_by == dpw_director and detail.lane_closure_approved_at is not None
    assert detail.dpw_conditions.startswith("Work 9 to 3\nLane closure approved by ")
    assert "temporary traffic signal required (§ 303-5B(3))" in detail.dpw_conditions


def test_303_5b_3_approved_closure_without_traffic_control_is_refused(closure_review, dpw_director):
    permit = closure_review("none")
    with pytest.raises(so.RulesBroken) as refused:
        so.approve_street_opening(permit=permit, by=dpw_director, approve_lane_closure=True)
    assert codes(refused.value.violations) == {"traffic_control_required"}
    permit.refresh_from_db()
    assert permit.status == Status.UNDER_REVIEW and permit.street_opening.lane_closure_approved_at is None


@pytest.mark.parametrize("persona", ["clerk", "inspector", "contractor", "board_member"])
def test_303_5b_3_only_the_dpw_approves_a_closure(closure_review, persona, request):
    permit = closure_review("flagman")
    with pytest.raises(PermissionDenied):
        so.approve_street_opening(permit=permit, by=request.getfixturevalue(persona), approve_lane_closure=True)
    permit.refresh_from_db()
    assert permit.street_opening.lane_closure_approved_at is None


def test_303_5b_3_lanes_on_the_form_page_detail_and_pdf(closure_review, client, contractor, dpw_director, clerk):
    permit = closure_review("flagman")
    client.force_login(dpw_director)
    client.post(reverse("permits:street_opening_act", args=[permit.number, "approve"]), {"approve_lane_closure": "on"})
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED
    client.force_login(contractor)
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "Lanes open each way" in page and "closure approved by" in page and "(§ 303-5B(3))" in page
    html = render_to_string(
        "pdf/street_opening_permit.html",
        {"permit": permit, "so": permit.street_opening, "tickets": [], "renewals": [], "SITE_URL": ""},
    )
    assert "0 open in each direction; traffic control: flagman" in html
    apply_page = client.get(reverse("permits:street_opening_apply")).content.decode()
    assert "Lanes of traffic kept open in each direction" in apply_page and "§ 303-5B(3)" in apply_page


# § 303-5B(3) through the API ---------------------------------------------------------------------------------------


@pytest.fixture
def api(contractor):
    client = APIClient()
    client.force_authenticate(contractor)
    return client


def api_body(**overrides):
    from tests.permits.street_opening.test_api import body

    return body(**overrides)


def test_303_5b_3_api_defaults_and_warning(spring, street, bond, api):
    created = api.post("/api/v1/street-openings/", api_body(), format="json").json()
    assert created["lanes_open_each_way"] == 1 and created["traffic_control"] == "none"
    closed = api.post(
        "/api/v1/street-openings/", api_body(lanes_open_each_way=0, traffic_control="flagman"), format="json"
    )
    assert closed.status_code == 201
    assert [w["citation"] for w in closed.json()["warnings"]] == ["§ 303-5B(3)"]


def test_303_5b_3_api_refuses_a_negative_lane_count_and_unknown_control(spring, street, bond, api):
    response = api.post(
        "/api/v1/street-openings/", api_body(lanes_open_each_way=-1, traffic_control="cones"), format="json"
    )
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} >= {"lanes_open_each_way", "traffic_control"}


# § 303-1C(7): the rule ---------------------------------------------------------------------------------------------


def test_303_1c_7_emergency_underground_needs_no_prior_plan_approval():
    common = {
        "underground_utility": True,
        "depth_feet": Decimal(3),
        "plans_filed": False,
        "plans_approved": False,
        "at_approval": True,
    }
    assert codes(ordinance.underground_violations(**common)) == {"plans_missing"}
    assert ordinance.underground_violations(**common, emergency=True) == []
    # the depth of § 303-1C(1) still applies in an emergency
    shallow = {**common, "depth_feet": Decimal("2.99")}
    assert codes(ordinance.underground_violations(**shallow, emergency=True)) == {"too_shallow"}


def test_303_1c_7_completion_waits_for_the_dpw_approval_of_the_work():
    (v,) = ordinance.emergency_underground_violations(emergency=True, underground_utility=True, work_approved=False)
    assert v.code == "emergency_work_not_approved" and v.citation == "§ 303-1C(7)" and "(§ 303-1C(7))" in v.message
    assert (
        ordinance.emergency_underground_violations(emergency=True, underground_utility=True, work_approved=True) == []
    )
    assert (
        ordinance.emergency_underground_violations(emergency=False, underground_utility=True, work_approved=False) == []
    )
    assert (
        ordinance.emergency_underground_violations(emergency=True, underground_utility=False, work_approved=False) == []
    )


# § 303-1C(7): the services -----------------------------------------------------------------------------------------


@pytest.fixture
def emergency_underground(spring, street, contractor, contractor_org, bond, clerk, contractor_owns_a_utility):
    """An emergency water main repair begun Friday May 1, filed Monday May 4 (the next business day), no plans."""
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(
            street,
            emergency=True,
            emergency_began_on=date(2026, 5, 1),
            start_date=date(2026, 5, 1),
            end_date=date(2026, 5, 6),
            underground_utility=True,
            underground_depth_feet=Decimal(4),
        ),
    )
    file_certificate(permit, contractor)
    return so.begin_review(permit=permit, by=clerk)


def test_303_1c_7_emergency_underground_application_is_approved_without_plans(emergency_underground, dpw_director):
    assert not emergency_underground.documents.filter(kind="plans").exists()
    so.approve_street_opening(permit=emergency_underground, by=dpw_director)
    emergency_underground.refresh_from_db()
    assert emergency_underground.status == Status.APPROVED
    assert emergency_underground.street_opening.emergency_work_approved_at is None


def test_303_1c_7_non_emergency_underground_still_needs_its_plans(
    spring, street, contractor, contractor_org, bond, clerk, dpw_director
):
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(street, underground_utility=True, underground_depth_feet=Decimal(4)),
    )
    file_certificate(permit, contractor)
    so.begin_review(permit=permit, by=clerk)
    with pytest.raises(so.RulesBroken) as refused:
        so.approve_street_opening(permit=permit, by=dpw_director)
    assert "plans_missing" in codes(refused.value.violations)


def _issued(permit, dpw_director, clerk, **approval):
    from permits import services

    so.approve_street_opening(permit=permit, by=dpw_director, **approval)
    permit.refresh_from_db()
    services.record_payment(permit=permit, amount=permit.balance_due, method="cash", by=clerk)
    permit.refresh_from_db()
    return so.issue_street_opening(permit=permit, by=clerk)


def test_303_1c_7_permit_cannot_be_completed_until_the_dpw_approves_the_work(
    emergency_underground, dpw_director, clerk, contractor
):
    permit = _issued(emergency_underground, dpw_director, clerk)
    assert codes(field_work.completion_blockers(permit)) == {"emergency_work_not_approved"}
    with pytest.raises(RulesBroken) as refused:
        complete_work(permit, permittee=contractor, today=date(2026, 5, 8))
    assert "§ 303-1C(7)" in {v.citation for v in refused.value.violations}
    permit.refresh_from_db()
    assert permit.status == Status.ACTIVE  # inspected, not completed
    so.approve_emergency_underground_work(permit=permit, by=dpw_director)
    permit.refresh_from_db()
    detail = permit.street_opening
    assert detail.emergency_work_approved_by == dpw_director and detail.emergency_work_approved_at is not None
    assert permit.events.filter(reason__contains="(§ 303-1C(7))").exists()
    complete_work(permit, permittee=contractor, today=date(2026, 5, 8))
    permit.refresh_from_db()
    assert permit.status == Status.COMPLETED


def test_303_1c_7_dpw_may_approve_the_work_with_the_permit(emergency_underground, dpw_director):
    so.approve_street_opening(permit=emergency_underground, by=dpw_director, approve_emergency_work=True)
    emergency_underground.refresh_from_db()
    assert emergency_underground.street_opening.emergency_work_approved_by == dpw_director


def test_303_1c_7_approval_is_recorded_once(emergency_underground, dpw_director):
    first = so.approve_emergency_underground_work(
        permit=emergency_underground, by=dpw_director
    ).emergency_work_approved_at
    second = so.approve_emergency_underground_work(permit=emergency_underground, by=dpw_director)
    assert second.emergency_work_approved_at == first


def test_303_1c_7_only_emergency_underground_work_is_approved_after_the_fact(application, dpw_director):
    with pytest.raises(so.RulesBroken) as refused:
        so.approve_emergency_underground_work(permit=application, by=dpw_director)
    assert codes(refused.value.violations) == {"not_emergency_underground"}


@pytest.mark.parametrize("persona", ["clerk", "inspector", "contractor", "board_member", "president"])
def test_303_1c_7_only_the_dpw_approves_the_emergency_work(emergency_underground, persona, request):
    with pytest.raises(PermissionDenied):
        so.approve_emergency_underground_work(permit=emergency_underground, by=request.getfixturevalue(persona))
    emergency_underground.refresh_from_db()
    assert emergency_underground.street_opening.emergency_work_approved_at is None


def test_303_1c_7_flagged_on_the_pages_and_approved_from_the_manage_page(
    emergency_underground, dpw_director, clerk, contractor, client
):
    permit = _issued(emergency_underground, dpw_director, clerk)
    client.force_login(contractor)
    assert "Not yet approved by the Director of Public Works" in client.get(permit.get_absolute_url()).content.decode()
    field_page = client.get(reverse("permits:field_permit", args=[permit.number])).content.decode()
    assert "Holding the permit open" in field_page and "(§ 303-1C(7))" in field_page
    client.force_login(clerk)
    client.post(reverse("permits:street_opening_act", args=[permit.number, "emergency_work"]))
    permit.refresh_from_db()
    assert permit.street_opening.emergency_work_approved_at is None  # the clerk may not
    client.force_login(dpw_director)
    manage = client.get(reverse("permits:street_opening_manage", args=[permit.number])).content.decode()
    assert "Approve the emergency underground construction" in manage
    client.post(reverse("permits:street_opening_act", args=[permit.number, "emergency_work"]))
    permit.refresh_from_db()
    assert permit.street_opening.emergency_work_approved_by == dpw_director
    html = render_to_string(
        "pdf/street_opening_permit.html",
        {"permit": permit, "so": permit.street_opening, "tickets": [], "renewals": [], "SITE_URL": ""},
    )
    assert "Emergency underground work" in html and "(§ 303-1C(7))" in html
