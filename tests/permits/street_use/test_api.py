"""The street use API (§ 303-15): token, create-and-submit (prefix SU), the caller's own list, the detail with the
petition's count and the timeline, 400 with every broken rule and its citation."""

import pytest

from permits.models import Permit
from tests.api_clients import token_client
from tests.permits.street_use.conftest import sign

pytestmark = pytest.mark.django_db

URL = "/api/v1/street-use-permits/"


def body(**overrides):
    data = {
        "applicant_name": "Rita Anderson",
        "applicant_address": "102 Henni Street",
        "applicant_phone": "920-555-0110",
        "organization_name": "",
        "responsible_name": "Rita Anderson",
        "responsible_address": "102 Henni Street",
        "responsible_phone": "920-555-0110",
        "starts_at": "2026-05-15T08:00:00-05:00",
        "ends_at": "2026-05-17T23:00:00-05:00",
        "street": "Henni Street",
        "portion_description": "Rock River Road to Mill Street",
        "expected_attendance": 60,
        "proposed_use": "Block party",
        "chapter_245_permit": "",
    }
    return data | overrides


def _client(user):
    return token_client(user.username)


def test_303_15b_create_submits_with_prefix_su(spring, street, resident):
    response = _client(resident).post(URL, body(), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["number"].startswith("SU-") and data["status"] == "submitted"
    assert data["timeline"][0]["to_status"] == "submitted"


def test_303_15d_5_friday_to_monday_is_400_with_the_citation(spring, street, resident):
    response = _client(resident).post(URL, body(ends_at="2026-05-18T01:00:00-05:00"), format="json")
    assert response.status_code == 400
    assert [(e["field"], e["citation"]) for e in response.json()["errors"]] == [("ends_at", "§ 303-15D(5)")]
    assert not Permit.objects.exists()


def test_303_15d_4_every_missing_item_at_once(spring, street, resident):
    response = _client(resident).post(
        URL, body(applicant_phone="", organization_name="Henni Neighbours", expected_attendance=None), format="json"
    )
    fields = sorted(e["field"] for e in response.json()["errors"])
    assert response.status_code == 400
    assert fields == [
        "applicant_phone",
        "expected_attendance",
        "organization_address",
        "organization_heads",
        "organization_phone",
    ]


def test_303_15b_unknown_street_and_bad_datetime_are_named(spring, street, resident):
    response = _client(resident).post(URL, body(street="Nowhere Road", starts_at="soon"), format="json")
    fields = {e["field"] for e in response.json()["errors"]}
    assert response.status_code == 400 and {"street", "starts_at"} <= fields


def test_303_15b_a_chapter_245_event_is_refused_and_not_charged(spring, street, resident):
    response = _client(resident).post(URL, body(chapter_245_permit="P-2026-7"), format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "chapter_245_event"
    assert not Permit.objects.exists()


def test_303_15f_detail_shows_the_count_growing(application, roster, clerk, resident):
    from tests.permits.street_use.conftest import declare_all

    api = _client(resident)
    url = f"{URL}{application.number}/"
    data = api.get(url).json()
    assert (data["signatures_required"], data["adults_declared"], data["addresses_undeclared"]) == (0, 0, 10)
    declare_all(application, clerk)
    data = api.get(url).json()
    assert (data["signatures_counted"], data["signatures_required"], data["adults_declared"]) == (0, 15, 20)
    assert data["addresses_undeclared"] == 0
    sign(application, roster[:6], clerk)
    data = api.get(url).json()
    assert (data["signatures_counted"], data["signatures_required"]) == (6, 15)


def test_the_list_is_the_callers_own(application, outsider, resident):
    assert [p["number"] for p in _client(resident).get(URL).json()["results"]] == [application.number]
    assert _client(outsider).get(URL).json()["results"] == []
    assert _client(outsider).get(f"{URL}{application.number}/").status_code == 404
