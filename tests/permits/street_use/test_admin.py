"""The street use back office: the petition's addresses, households and consents are the clerk's alone, read-only;
the application is read-only and its actions call the services (the same rules as the pages)."""

import pytest
from django.urls import reverse

from permits.models import Status
from tests.permits.street_use.conftest import sign

pytestmark = pytest.mark.django_db


def test_303_15f_the_clerk_reads_the_petition_in_the_back_office_and_cannot_edit_it(client, clerk, application):
    client.force_login(clerk)
    for model in ("petitionaddress", "petitionsignature", "petitionpage", "householdcontact"):
        assert client.get(reverse(f"admin:permits_{model}_changelist")).status_code == 200
        assert client.get(reverse(f"admin:permits_{model}_add")).status_code == 403
    address = application.street_use.addresses.first()
    url = reverse("admin:permits_petitionaddress_change", args=[address.pk])
    client.post(url, {"unit": "Upper"})
    address.refresh_from_db()
    assert address.unit == "" and address.adults_declared is None


@pytest.mark.parametrize(
    "persona", ["police_chief", "police_officer", "president", "board_member", "dpw_director", "inspector"]
)
def test_303_15f_nobody_else_sees_the_households_or_the_consents(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    for model in ("petitionaddress", "petitionsignature", "petitionpage", "householdcontact"):
        assert client.get(reverse(f"admin:permits_{model}_changelist")).status_code == 403


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
    assert application.status == Status.SUBMITTED  # nothing declared, nobody consented
    sign(application, roster[:15], clerk)
    client.post(url, action)
    application.refresh_from_db()
    assert application.status == Status.UNDER_REVIEW
