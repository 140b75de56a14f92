"""The regression corpus of hostile requests: each once gave a 500 (or took seconds). Every one must now answer
below 500, and a form or API request must answer 400 naming the field it refuses (OWASP ASVS V5.1 input validation)."""

import json
from urllib.parse import urlencode

import pytest

from permits.input_limits import has_lone_surrogate
from tests.hostile.conftest import api, web
from tests.permits.street_opening.test_api import body as so_body
from tests.permits.street_opening.test_pages import form_data as so_form
from tests.sidewalks.conftest import POSTED

pytestmark = pytest.mark.django_db

SO_API = "/api/v1/street-openings/"
SW_API = "/api/v1/sidewalk-permits/"
SO_WEB = "/street-openings/apply/"
SW_WEB = "/sidewalks/apply/"

SW_BODY = {**POSTED, "concrete_psi": "4000", "sacks_per_cubic_yard": "6", "pour_date": "2026-05-11"}

# The street opening form as the page tests post it, on a concrete street with no undertakings ticked.
SO_WEB_CHANGES = dict(
    surface="concrete",
    existing_pavement_inches="7",
    statement_undertakings=[],
    lanes_open_each_way="1",
    traffic_control="none",
)

BIG = "x" * 1_000_001
SO_DATES = ["start_date", "end_date", "insurance_expires", "emergency_began_on", "diggers_hotline_legal_start"]
HOSTILE_FIELDS = {
    # (field, value): the field named in the 400
    **{(f, d): f for f in SO_DATES for d in ("9999-12-31", "0001-01-01")},
    ("diggers_hotline_requested_at", "9999-12-31T23:59:00"): "diggers_hotline_requested_at",
    ("diggers_hotline_requested_at", "0001-01-01T00:00:00"): "diggers_hotline_requested_at",
    ("surface", "\ud800"): "surface",
    ("traffic_control", "\ud800"): "traffic_control",
    ("work_description", "\ud800"): "work_description",
    ("method", "bad \ud800 text"): "method",
    ("statement_signed_by", "\udfff"): "statement_signed_by",
    ("work_description", BIG): "work_description",
    ("method", BIG): "method",
    ("nearby_openings", BIG): "nearby_openings",
    ("work_description", "nul\x00byte"): "work_description",
    ("location_description", "nul\x00byte"): "location_description",
    ("map_latitude", "91"): "map_latitude",
    ("map_latitude", "-90.000001"): "map_latitude",
    ("map_longitude", "180.5"): "map_longitude",
    ("map_longitude", "-181"): "map_longitude",
    ("underground_depth_feet", "-3"): "underground_depth_feet",
    ("existing_pavement_inches", "-1"): "existing_pavement_inches",
    ("insurance_per_person", "-500000"): "insurance_per_person",
    ("insurance_per_person", "1e400"): "insurance_per_person",
    ("insurance_per_accident", "99999999999999999999"): "insurance_per_accident",
    ("lanes_open_each_way", "99999999999999999999"): "lanes_open_each_way",
}


def assert_refused_by_name(response, field, value):
    """A NUL is refused before any view (permits.middleware), on a page naming the field; anything else by the form."""
    if "\x00" in value:
        assert f"{field}: contains a NUL character" in response.content.decode()
    else:
        assert field in response.context["form"].errors, response.context["form"].errors


def post_json(client, url, data):
    """As a client sends it: JSON with \\u escapes, so a lone surrogate travels as the six characters \\ud800."""
    return client.post(url, json.dumps(data), content_type="application/json")


def _ids(cases):
    return [f"{field}={value[:20]!r}" for field, value in cases]


@pytest.mark.parametrize(("field", "value"), list(HOSTILE_FIELDS), ids=_ids(HOSTILE_FIELDS))
def test_street_opening_api_refuses_hostile_field_with_400_naming_it(spring, street, bond, contractor, field, value):
    response = post_json(api(contractor), SO_API, so_body(**{field: value}))
    assert response.status_code == 400, response.content[:300]
    assert HOSTILE_FIELDS[(field, value)] in {e["field"] for e in response.json()["errors"]}


@pytest.mark.parametrize(("field", "value"), list(HOSTILE_FIELDS), ids=_ids(HOSTILE_FIELDS))
def test_street_opening_form_refuses_hostile_field_naming_it(spring, street, bond, contractor, field, value):
    if field.startswith("diggers_hotline_requested_at"):
        value = value[:16]
    if has_lone_surrogate(value):
        pytest.skip("a form post cannot carry a lone surrogate: see test_form_post_with_surrogate_bytes_is_a_400")
    response = web(contractor).post(SO_WEB, {**so_form(street, **SO_WEB_CHANGES), field: value})
    assert response.status_code == 400, response.status_code
    assert_refused_by_name(response, field, value)


SW_HOSTILE = {
    ("pour_date", "9999-12-31"): "pour_date",
    ("pour_date", "0001-01-01"): "pour_date",
    ("work", "\ud800"): "work",
    ("material", "\ud800"): "material",
    ("parcel", "\ud800"): "parcel",
    ("parcel", "266\x00-1116"): "parcel",
    ("work_description", "\ud800"): "work_description",
    ("work_description", BIG): "work_description",
    ("concrete_psi", "99999999999999999999"): "concrete_psi",
    ("frontage_feet", "-1"): "frontage_feet",
    ("width_feet", "1e400"): "width_feet",
}


@pytest.mark.parametrize(("field", "value"), list(SW_HOSTILE), ids=_ids(SW_HOSTILE))
def test_sidewalk_api_refuses_hostile_field_with_400_naming_it(spring, home, resident, field, value):
    response = post_json(api(resident), SW_API, {**SW_BODY, field: value})
    assert response.status_code == 400, response.content[:300]
    assert SW_HOSTILE[(field, value)] in {e["field"] for e in response.json()["errors"]}


@pytest.mark.parametrize(("field", "value"), list(SW_HOSTILE), ids=_ids(SW_HOSTILE))
def test_sidewalk_form_refuses_hostile_field_naming_it(spring, home, resident, field, value):
    if has_lone_surrogate(value):
        pytest.skip("a form post cannot carry a lone surrogate: see test_form_post_with_surrogate_bytes_is_a_400")
    response = web(resident).post(SW_WEB, {**SW_BODY, field: value})
    assert response.status_code == 400, response.status_code
    assert_refused_by_name(response, field, value)


NOT_OBJECTS = [
    "[]",
    "[1, 2]",
    '"text"',
    "42",
    "null",
    "true",
    "[" * 5000 + "]" * 5000,
    '{"a":' * 5000 + "1" + "}" * 5000,
]


@pytest.mark.parametrize("url", [SO_API, SW_API])
@pytest.mark.parametrize("raw", NOT_OBJECTS, ids=[r[:12] for r in NOT_OBJECTS])
def test_api_refuses_a_body_that_is_not_a_json_object(spring, street, home, contractor, url, raw):
    response = api(contractor).post(url, raw, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["errors"]


QUERIES = [
    ("clerk", "/office/?status=sub%00mitted"),
    ("clerk", "/office/?q=a%00b"),
    ("clerk", "/admin/permits/permit/?q=a%00b"),
    ("clerk", "/admin/permits/parcel/?q=a%00b"),
    ("clerk", "/charges/?q=a%00b"),
    ("clerk", "/charges/?status=a%00b"),
    ("resident", "/api/v1/parcels/?search=a%00b"),
    ("clerk", "/api/v1/permits/?search=a%00b"),
    ("clerk", "/hearings/?year=-1"),
    ("clerk", "/hearings/?year=0"),
    ("clerk", "/hearings/?year=99999"),
    ("clerk", "/hearings/?year=abc"),
    ("clerk", "/hearings/?year=%00"),
    ("clerk", "/tax-roll/0/"),
    ("clerk", "/tax-roll/99999/"),
    ("clerk", "/tax-roll/-1/"),
    ("clerk", "/tax-roll/99999/special-charges.csv"),
    ("clerk", "/sidewalks/parcels/?q=a%00b"),
    ("clerk", "/sidewalks/parcels/?q=%ED%A0%80"),
    ("clerk", "/charges/?q=%ED%A0%80"),
    ("clerk", "/charges/?page=99999999999999999999"),
]


@pytest.mark.parametrize(("who", "url"), QUERIES, ids=[u for _, u in QUERIES])
def test_hostile_query_string_is_never_a_500(request, spring, street, home, who, url):
    user = request.getfixturevalue(who)
    response = web(user).get(url)
    assert response.status_code in (200, 400, 404), (url, response.status_code)  # answered by the view, not a 500


@pytest.mark.parametrize("url", [SO_WEB, SW_WEB])
def test_form_post_with_surrogate_bytes_is_a_400(spring, street, home, contractor, url):
    """The UTF-8 form of a lone surrogate (ED A0 80) is not UTF-8: Django reads it as U+FFFD, and the form refuses
    the choice by name, never a 500."""
    body = so_form(street, **SO_WEB_CHANGES) if url == SO_WEB else dict(SW_BODY)
    raw = urlencode(body, doseq=True) + "&surface=%ED%A0%80&work=%ED%A0%80&material=%ED%A0%80"
    response = web(contractor).post(url, raw, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert ("surface" in errors) if url == SO_WEB else ({"work", "material"} <= set(errors)), errors
