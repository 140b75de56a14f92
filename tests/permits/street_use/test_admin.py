"""The street use back office: the register of adult residents is the clerk's alone; the application is read-only
and its actions call the services (the same rules as the pages)."""

import pytest
from django.urls import reverse

from permits.models import Status
from permits.street_use.models import RegisteredResident
from tests.permits.street_use.conftest import sign

pytestmark = pytest.mark.django_db


def test_303_15f_the_clerk_keeps_the_register(client, clerk, parcels):
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_registeredresident_add"),
        {"parcel": parcels[0].pk, "name": "Lee Newcomer", "birth_date": "1990-02-03", "email": "", "resides_until": ""},
    )
    assert response.status_code == 302
    assert RegisteredResident.objects.get(name="Lee Newcomer").recorded_by == clerk


@pytest.mark.parametrize("persona", ["police_chief", "president", "board_member", "dpw_director", "inspector"])
def test_303_15f_nobody_else_sees_the_register_or_the_signatures(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("admin:permits_registeredresident_changelist")).status_code == 403
    assert client.get(reverse("admin:permits_petitionsignature_changelist")).status_code == 403


def test_the_application_cannot_be_added_or_edited_in_the_admin(client, clerk, application):
    client.force_login(clerk)
    assert client.get(reverse("admin:permits_streetuse_add")).status_code == 403
    url = reverse("admin:permits_streetuse_change", args=[application.street_use.pk])
    response = client.post(url, {"applicant_name": "Someone else"})
    application.street_use.refresh_from_db()
    assert response.status_code in (200, 403) and application.street_use.applicant_name == "Rita Anderson"


def test_303_15f_the_verify_action_applies_the_rule(client, clerk, application, roster):
    client.force_login(clerk)
    url = reverse("admin:permits_streetuse_changelist")
    action = {"action": "verify_petition", "_selected_action": [application.street_use.pk]}
    client.post(url, action)
    application.refresh_from_db()
    assert application.status == Status.SUBMITTED  # 0 of 20
    sign(application, roster[:15], clerk)
    client.post(url, action)
    application.refresh_from_db()
    assert application.status == Status.UNDER_REVIEW
