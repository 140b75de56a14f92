"""The street opening API: token, create-and-submit, own list, detail with timeline, 400 with every rule."""

import pytest
from rest_framework.test import APIClient

from permits.models import Permit
from permits.street_opening.models import StreetOpening
from tests.api_clients import token_client
from tests.permits.street_opening.conftest import other_org_permit

pytestmark = pytest.mark.django_db

URL = "/api/v1/street-openings/"


def body(**overrides):
    data = {
        "street": "Henni Street",
        "location_description": "In front of 118 Henni Street",
        "work_description": "New sewer lateral",
        "method": "Open cut",
        "start_date": "2026-05-11",
        "end_date": "2026-05-13",
        "surface": "concrete",
        "existing_pavement_inches": "7",
        "emergency": False,
        "utility_interruption": False,
        "insurance_per_person": "500000",
        "insurance_per_accident": "500000",
        "insurance_property_damage": "500000",
        "insurance_expires": "2027-01-31",
        "annual_bond": True,
        "statement_signed_by": "Carl Brandt",
        "diggers_hotline_ticket": "20261234567",
        "diggers_hotline_requested_at": "2026-05-04T09:00:00-05:00",
    }
    data.update(overrides)
    return data


@pytest.fixture
def api(contractor):
    return token_client("contractor")


def test_create_submits_the_application(spring, street, bond, api):
    response = api.post(URL, body(), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["status"] == "submitted" and data["surface"] == "concrete"
    assert data["diggers_hotline_tickets"][0]["verification"] == "entered by applicant"
    assert data["timeline"][0]["to_status"] == "submitted"
    assert data["warnings"] == []
    permit = Permit.objects.get(number=data["number"])
    assert permit.organization.name == "Brandt Excavating LLC"
    assert StreetOpening.objects.get(permit=permit).statement_undertakings  # signing accepts the statement


def test_400_lists_every_broken_rule_with_its_citation(spring, street, bond, api):
    response = api.post(
        URL,
        body(
            insurance_per_person="499999",
            start_date="2026-11-16",
            end_date="2026-11-20",
            statement_signed_by="",
            method="",
            surface="concrete",
            existing_pavement_inches=None,
        ),
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    by_field = {(e["field"], e["citation"]) for e in errors}
    assert ("insurance_per_person", "§ 303-4G") in by_field
    assert ("start_date", "§ 303-5A") in by_field
    assert ("statement_signed_by", "§ 303-4H(1)") in by_field
    assert ("method", "§ 303-4B") in by_field
    assert ("existing_pavement_inches", "§ 303-5G(3)") in by_field
    assert all(set(e) == {"field", "code", "citation", "message"} for e in errors)
    assert not Permit.objects.exists()


def test_a_malformed_field_does_not_hide_the_other_rules(spring, street, bond, api):
    response = api.post(URL, body(start_date="not a date", insurance_per_accident="1"), format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"start_date", "insurance_per_accident"} <= fields


def test_unknown_street_is_refused(spring, street, bond, api):
    response = api.post(URL, body(street="Nowhere Road"), format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_street"


def test_list_shows_only_own_and_company_permits(spring, street, bond, api, contractor_staff):
    own = api.post(URL, body(), format="json").json()["number"]
    other_org_permit(street)
    response = api.get(URL)
    assert [p["number"] for p in response.json()["results"]] == [own]
    staff = APIClient()
    staff.force_authenticate(contractor_staff)
    assert [p["number"] for p in staff.get(URL).json()["results"]] == [own]


def test_another_companys_permit_is_404(spring, street, bond, api):
    rival = other_org_permit(street)
    response = api.get(f"{URL}{rival.number}/")
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


def test_detail_shows_status_and_timeline(application, api):
    data = api.get(f"{URL}{application.number}/").json()
    assert data["status"] == "submitted" and data["timeline"]


def test_unknown_methods_get_405_json(application, api):
    for method in ("put", "patch", "delete"):
        response = getattr(api, method)(f"{URL}{application.number}/")
        assert response.status_code == 405 and "errors" in response.json()
    assert api.delete(URL).status_code == 405


def test_list_query_count_does_not_grow(spring, street, bond, api, django_assert_max_num_queries):
    for _ in range(3):
        api.post(URL, body(), format="json")
    with django_assert_max_num_queries(8):
        api.get(URL)
    for _ in range(6):
        api.post(URL, body(), format="json")
    with django_assert_max_num_queries(8):
        assert api.get(URL).json()["count"] == 9


def test_schema_renders_with_the_street_openings(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/street-openings/" in response.content
