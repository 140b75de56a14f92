"""The back office: street privilege records are read-only, and its actions go through the services (which refuse
what the rules refuse)."""

import pytest
from django.urls import reverse

from permits.models import Permit, Status

pytestmark = pytest.mark.django_db


def test_the_clerk_sees_the_records_read_only(client, world, clerk):
    permit = world.walk("approved")
    client.force_login(clerk)
    assert client.get(reverse("admin:permits_streetprivilege_changelist")).status_code == 200
    url = reverse("admin:permits_streetprivilege_change", args=[permit.street_privilege.pk])
    response = client.get(url)
    assert response.status_code == 200 and b'name="bond_amount"' not in response.content
    client.post(url, {"purpose": "move_building"})
    assert Permit.objects.get(pk=permit.pk).street_privilege.purpose == "materials"


def test_the_issue_action_is_refused_until_the_bond_and_fee_are_in(client, world, building_inspector):
    building_inspector.is_staff = True
    building_inspector.save()
    permit = world.walk("approved")
    client.force_login(building_inspector)
    client.post(
        reverse("admin:permits_streetprivilege_changelist"),
        {"action": "issue", "_selected_action": [permit.street_privilege.pk]},
    )
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED
    world.bond_and_pay(permit)
    client.post(
        reverse("admin:permits_streetprivilege_changelist"),
        {"action": "issue", "_selected_action": [permit.street_privilege.pk]},
    )
    assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED
