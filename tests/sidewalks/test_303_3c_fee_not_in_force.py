"""§ 303-3C: "The fee charged for such permits shall be as prescribed in Chapter 167, Fees." With no `sidewalk` fee in
force, an application is refused cleanly, citing § 303-3C, and nothing is stored (it was a 500)."""

import pytest
from django.urls import reverse

from permits.models import FeeItem, Permit
from sidewalks.models import SidewalkPermit
from tests.sidewalks.test_api import api, payload
from tests.sidewalks.test_views import apply_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen")]


@pytest.fixture
def no_sidewalk_fee(db):
    FeeItem.objects.filter(code="sidewalk").delete()


def test_303_3c_web_application_without_a_fee_in_force_is_refused_and_stores_nothing(
    client, contractor, contractor_org, home, no_sidewalk_fee
):
    client.force_login(contractor)
    response = client.post(reverse("sidewalks:apply"), apply_data(organization=contractor_org.pk))
    assert response.status_code == 400
    [message] = response.context["form"].non_field_errors()
    assert "No fee 'sidewalk' is in force on June 1, 2026" in message and message.endswith("(§ 303-3C)")
    assert "§ 303-3C" in response.content.decode()
    assert not Permit.objects.exists() and not SidewalkPermit.objects.exists()


def test_303_3c_api_application_without_a_fee_in_force_is_a_400_with_the_rule(
    contractor, contractor_org, home, no_sidewalk_fee
):
    response = api(contractor).post(
        "/api/v1/sidewalk-permits/", payload(organization=contractor_org.name), format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] is None and error["code"] == "fee_not_configured" and error["citation"] == "§ 303-3C"
    assert "No fee 'sidewalk' is in force" in error["message"]
    assert not Permit.objects.exists() and not SidewalkPermit.objects.exists()
