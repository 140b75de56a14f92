"""POST /api/v1/street-privilege-permits/: token auth, create-and-submit, every broken rule at once with its
citation, the caller's own list, the detail with status, timeline and (once issued) terminates_on; the schema."""

import pytest

from permits.models import Permit
from tests.api_clients import token_client
from tests.permits.street_privilege.conftest import materials_data

pytestmark = pytest.mark.django_db

URL = "/api/v1/street-privilege-permits/"


def body(**overrides):
    data = {
        "purpose": "materials",
        "street": "Main Street",
        "location_description": "In front of 204 Main Street",
        "start_date": "2027-03-15",
        "end_date": "2027-04-15",
        "building_permit_number": "B-2027-014",
        "occupied_street_feet": "12.0",
        "sidewalk_occupied": False,
        "lighted_at_night": True,
    }
    data.update(overrides)
    return data


@pytest.fixture
def api(contractor):
    return token_client("contractor")


def test_create_submits_the_application(api, main_street):
    response = api.post(URL, body(), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["number"].startswith("SP-") and data["status"] == "submitted"
    assert data["terminates_on"] is None
    assert data["timeline"][0]["to_status"] == "submitted"


def test_303_7d1_a_width_the_applicant_types_is_not_read(api, main_street):
    """The register says 36.0 ft: 12.1 ft is more than a third whatever width the applicant sends."""
    response = api.post(URL, body(street_width_feet="100.0", occupied_street_feet="12.1"), format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "occupied_street_feet" and error["citation"] == "§ 303-7D(1)"


def test_303_7d1_a_street_with_no_width_on_record_is_refused(api, main_street):
    main_street.width_feet = main_street.traveled_width_feet = None
    main_street.save()
    response = api.post(URL, body(), format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "no_street_width" and "/obstructions/registers/streets/" in error["message"]
    assert not Permit.objects.filter(kind="street_privilege").exists()


def test_every_broken_rule_at_once_each_with_its_citation(api, main_street):
    response = api.post(
        URL,
        body(
            occupied_street_feet="12.1",
            lighted_at_night=False,
            sidewalk_occupied=True,
            temporary_walk_width_feet="3.9",
            fence_height_feet="4.0",
            fenced_both_sides=True,
        ),
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    by_field = {e["field"]: e["citation"] for e in errors}
    assert by_field["occupied_street_feet"] == "§ 303-7D(1)"
    assert by_field["lighted_at_night"] == "§ 303-7D(2)"
    assert by_field["temporary_walk_width_feet"] == "§ 303-7D(3)"
    # § 303-6B(2)'s half of the sidewalk is not a § 303-7 permit's condition: § 303-7D(3) is
    assert "§ 303-6B(2)" not in {e["citation"] for e in errors}
    assert not Permit.objects.filter(kind="street_privilege").exists()


def test_a_move_missing_its_route_and_a_malformed_width(api, main_street):
    response = api.post(URL, body(purpose="move_building", occupied_street_feet="wide"), format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"occupied_street_feet", "building_description", "route_description"} <= fields


def test_unknown_street_is_named(api, main_street):
    response = api.post(URL, body(street="Nowhere Road"), format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_street"


def test_list_shows_only_the_callers_own(api, world, main_street, outsider):
    mine = world.walk("submitted")
    response = api.get(URL)
    assert [row["number"] for row in response.json()["results"]] == [mine.number]
    other = token_client("outsider")
    assert other.get(URL).json()["results"] == []
    assert other.get(f"{URL}{mine.number}/").status_code == 404


def test_detail_once_issued_shows_terminates_on(api, world):
    permit = world.walk("issued")
    data = api.get(f"{URL}{permit.number}/").json()
    assert data["status"] == "issued" and data["terminates_on"] == "2027-06-10"
    assert {r["office"] for r in data["recommendations"]} == {"dpw", "police"}
    assert [e["to_status"] for e in data["timeline"] if e["to_status"]][-1] == "issued"


def test_the_schema_lists_the_endpoint(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/street-privilege-permits/" in response.content


def test_list_query_count_is_constant_in_rows(api, world, main_street, django_assert_max_num_queries):
    for n in range(6):
        world.apply(materials_data(main_street, location_description=f"At {300 + n} Main Street"))
    with django_assert_max_num_queries(8):
        assert api.get(URL).json()["count"] == 6


def test_an_empty_form_body_is_every_missing_field_not_a_500(api):
    """schemathesis: an empty multipart body. Each rule the missing fields break comes back at once."""
    response = api.post(URL, data=b"--b--\r\n", content_type="multipart/form-data; boundary=b")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"purpose", "street"} <= fields
    assert not Permit.objects.exists()
