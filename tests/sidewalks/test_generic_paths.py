"""A sidewalk permit goes through the generic paths (admin bulk actions, the admin status page, the shell) and is
refused exactly where its own verbs refuse it (sidewalks/workflow.py)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits import workflow
from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.services import record_payment
from sidewalks import services
from tests.sidewalks.conftest import TODAY


def status_of(permit) -> str:
    return Permit.objects.values_list("status", flat=True).get(pk=permit.pk)


def admin_bulk(client, user, permit, action):
    client.force_login(user)
    return client.post(
        reverse("admin:permits_permit_changelist"), {"action": action, "_selected_action": [permit.pk]}, follow=True
    )


@time_machine.travel(datetime(2026, 6, 1, 15, tzinfo=ZoneInfo("America/Chicago")), tick=False)
def test_303_3c_admin_issue_of_an_unpaid_sidewalk_permit_is_refused_as_the_verb_does(client, submitted, clerk):
    with pytest.raises(ValidationError):
        services.issue_sidewalk_permit(permit=submitted, by=clerk, today=TODAY)
    workflow.transition(submitted, Status.UNDER_REVIEW, by=clerk, today=TODAY)
    workflow.transition(submitted, Status.APPROVED, by=clerk, today=TODAY)
    response = admin_bulk(client, clerk, submitted, "mark_issued")
    assert status_of(submitted) == Status.APPROVED
    assert "§ 303-3C" in " ".join(str(m) for m in response.context["messages"])
    with pytest.raises(RulesBroken):
        workflow.transition(submitted, Status.ISSUED, by=None, today=TODAY)
    record_payment(permit=submitted, amount=submitted.fee_amount, method="cash", by=clerk)
    admin_bulk(client, clerk, submitted, "mark_issued")
    assert status_of(submitted) == Status.ISSUED


def test_303_3c_only_the_clerk_reviews_sidewalk_permits_through_the_admin(
    client, submitted, dpw_director, building_inspector
):
    for user in (dpw_director, building_inspector):
        admin_bulk(client, user, submitted, "mark_under_review")
        assert status_of(submitted) == Status.SUBMITTED
        with pytest.raises(workflow.IllegalTransition):
            workflow.transition(submitted, Status.UNDER_REVIEW, by=user, today=TODAY)


def test_303_3d_admin_cannot_complete_before_every_inspection_passed(client, issued, clerk, inspector):
    with pytest.raises(ValidationError) as verb:
        services.complete_sidewalk_permit(permit=issued, by=inspector, today=TODAY)
    client.force_login(clerk)
    client.post(reverse("admin:permits_permit_status", args=[issued.pk]), {"to": Status.COMPLETED, "reason": "x"})
    assert status_of(issued) == Status.ISSUED
    with pytest.raises(RulesBroken) as shell:
        workflow.transition(issued, Status.COMPLETED, by=clerk, today=TODAY)
    assert "not inspected yet" in str(shell.value) and "not inspected yet" in " ".join(verb.value.messages)


def test_a_role_the_ordinance_does_not_name_cannot_complete_a_sidewalk_permit(issued, police_chief):
    with pytest.raises((workflow.IllegalTransition, PermissionDenied)):
        workflow.transition(issued, Status.COMPLETED, by=police_chief, today=TODAY)
    assert status_of(issued) == Status.ISSUED
