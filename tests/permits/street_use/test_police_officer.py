"""§ 303-15H: "a law enforcement officer" is any sworn officer of the Village. The Police Officer role ends a street
use event or revokes its permit as the Chief does, and holds none of the Chief's other powers."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits import kinds, workflow
from permits.models import PermitKind, Status
from permits.roles import Role, has_role
from permits.street_privilege import services as street_privilege
from permits.street_use import services
from tests.factories import PermitFactory

pytestmark = pytest.mark.django_db


def test_303_15h_the_officer_is_a_terminator_and_the_clerk_is_not():
    assert Role.POLICE_OFFICER in services.TERMINATORS
    assert Role.POLICE_OFFICER in kinds.registry()[PermitKind.STREET_USE].authority[Status.REVOKED]
    assert Role.CLERK not in services.TERMINATORS


def test_303_15h_the_officer_sees_the_events_in_progress(client, police_officer):
    client.force_login(police_officer)
    assert client.get(reverse("permits:street_use_in_progress")).status_code == 200


@pytest.mark.parametrize(
    "chief_only",
    [
        pytest.param(set(street_privilege.RECOMMENDERS), id="303-7A recommendation"),
        pytest.param(set(street_privilege.REVOKERS), id="303-7 revocation"),
        pytest.param(workflow.AUTHORITY[Status.REVOKED], id="revoking other permits"),
    ],
)
def test_the_officer_holds_none_of_the_chiefs_other_powers(police_officer, chief_only):
    assert Role.POLICE_CHIEF in chief_only
    assert not has_role(police_officer, *chief_only)


def test_303_7a_the_officer_may_not_recommend_a_street_privilege(police_officer):
    permit = PermitFactory(kind=PermitKind.STREET_PRIVILEGE)  # the role is asked before anything else
    with pytest.raises(PermissionDenied):
        street_privilege.record_recommendation(permit=permit, by=police_officer, recommended=True)


def test_the_officer_sees_nothing_in_the_back_office(client, police_officer):
    client.force_login(police_officer)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200 and response.context["app_list"] == []


def test_303_15h_the_officers_work_list_links_the_events_in_progress(client, police_officer):
    client.force_login(police_officer)
    response = client.get(reverse("permits:workspace"))
    assert response.status_code == 200
    assert reverse("permits:street_use_in_progress") in response.content.decode()
