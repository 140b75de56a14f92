"""The sidewalk permit API and the parcel search: token auth, create, list own, 400 bodies, staff-only addresses."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from permits.models import Permit
from tests.factories import ParcelFactory, UserFactory
from tests.sidewalks.conftest import POSTED

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen")]

URL = "/api/v1/sidewalk-permits/"


def api(user=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def payload(**kw):
    return {**POSTED, "pour_date": "2026-06-04", "village_contract": False, **kw}


def test_token_is_obtained_with_username_and_password(contractor):
    response = APIClient().post("/api/v1/auth/token/", {"username": "contractor", "password": "correct-horse-battery"})
    assert response.status_code == 200 and response.json()["token"]


def test_contractor_creates_a_sidewalk_permit(contractor, contractor_org, home):
    response = api(contractor).post(URL, payload(organization=contractor_org.name), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"].startswith("SW-2026-") and body["status"] == "submitted"
    assert body["parcel"] == "266-1116-0001" and body["land_use"] == "residential" and body["width_feet"] == "4.00"
    assert body["fee_amount"] == "25.00" and body["timeline"][0]["to_status"] == "submitted"
    assert Permit.objects.get().organization == contractor_org


def test_list_shows_only_the_callers_own(contractor, resident, home):
    api(contractor).post(URL, payload(), format="json")
    api(resident).post(URL, payload(), format="json")
    mine = api(resident).get(URL).json()
    assert mine["count"] == 1 and mine["results"][0]["parcel"] == "266-1116-0001"
    number = mine["results"][0]["number"]
    assert api(resident).get(f"{URL}{number}/").status_code == 200
    assert api(UserFactory(username="nosy")).get(f"{URL}{number}/").status_code == 404


def test_400_lists_every_broken_rule_with_its_citation(resident, shop):
    bad = payload(parcel=shop.tax_key, material="bituminous", pour_date="2026-06-03", concrete_psi=3000)
    response = api(resident).post(URL, bad, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    by_field = {e["field"]: e for e in errors}
    assert set(by_field) == {
        "pour_date",
        "material",
        "concrete_psi",
        "width_feet",
        "thickness_inches",
        "driveway_thickness_inches",
    }
    assert by_field["pour_date"]["citation"] == "§ 303-3C"
    assert by_field["material"]["citation"] == "§ 303-3D(4)" and by_field["material"]["code"] == "not_concrete"
    assert by_field["width_feet"]["citation"] == "§ 303-3D(8)(b)"
    assert all(e["message"] for e in errors)
    assert not Permit.objects.exists()


def test_malformed_field_does_not_hide_the_other_rules(resident, home):
    response = api(resident).post(URL, payload(width_feet="wide", material="bituminous", work="paint"), format="json")
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"width_feet", "material", "work"} <= fields


def test_unknown_parcel_is_reported(resident, home):
    errors = api(resident).post(URL, payload(parcel="000"), format="json").json()["errors"]
    assert errors[0]["field"] == "parcel" and "000" in errors[0]["message"]


def test_repair_may_keep_the_existing_narrower_width(resident, home):
    response = api(resident).post(URL, payload(work="repair", width_feet="3", existing_width_feet="3"), format="json")
    assert response.status_code == 201


def test_list_query_count_does_not_grow(resident, home, django_assert_max_num_queries):
    client = api(resident)
    client.post(URL, payload(), format="json")
    with CaptureQueriesContext(connection) as one:
        client.get(URL)
    baseline = len(one.captured_queries)  # read now: each request resets the query log
    for _ in range(5):
        client.post(URL, payload(), format="json")
    with django_assert_max_num_queries(baseline):
        assert client.get(URL).json()["count"] == 6


# --- Parcels ---------------------------------------------------------------------------------------------------------


def test_parcel_search_by_address_owner_or_tax_key(resident, home, shop):
    for q in ("101 elm", "olsen", "266-1116-0001"):
        results = api(resident).get("/api/v1/parcels/", {"search": q}).json()["results"]
        assert [r["tax_key"] for r in results] == ["266-1116-0001"]
        assert results[0]["address"] == "101 Elm Street" and results[0]["land_use"] == "residential"


def test_owner_mailing_address_is_for_staff_only(resident, clerk, home):
    public = api(resident).get("/api/v1/parcels/", {"search": "101"}).json()["results"][0]
    assert "owner_mailing_address" not in public
    staff = api(clerk).get("/api/v1/parcels/", {"search": "101"}).json()["results"][0]
    assert staff["owner_mailing_address"] == "PO Box 9, Theresa, WI 53091"


def test_parcel_search_is_paginated_with_a_fixed_query_count(resident, elm, django_assert_max_num_queries):
    for n in range(60):
        ParcelFactory(street=elm, site_address=f"{n} Elm Street")
    client = api(resident)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/parcels/", {"search": "Elm"}).json()
    assert body["count"] == 60 and len(body["results"]) == 50 and body["next"]


def test_parcel_search_needs_a_signed_in_user():
    assert api().get("/api/v1/parcels/").status_code == 401


def test_a_body_that_is_not_an_object_is_a_400_not_a_crash(resident):
    response = api(resident).post(URL, [1, 2], format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["message"]


def test_sidewalk_permits_cannot_be_changed_or_deleted_through_the_api(resident, home):
    number = api(resident).post(URL, payload(), format="json").json()["number"]
    assert api(resident).put(f"{URL}{number}/", payload(), format="json").status_code == 405
    assert api(resident).delete(f"{URL}{number}/").status_code == 405


def test_list_counts_its_pages_without_joining_the_sidewalk_details(resident, home):
    """The join to the details would make every page's count hash every sidewalk
    permit; a sidewalk permit has its details from the moment it is created."""
    client = api(resident)
    for _ in range(3):
        client.post(URL, payload(), format="json")
    with CaptureQueriesContext(connection) as queries:
        listed = client.get(URL).json()
    assert listed["count"] == 3 and all(row["parcel"] == home.tax_key for row in listed["results"])
    [count] = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert "sidewalks_sidewalkpermit" not in count
    number = listed["results"][0]["number"]
    assert client.get(f"{URL}{number}/").json()["number"] == number  # the detail keeps its checks
