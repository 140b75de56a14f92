"""The public map and its list: no login, only approved/issued/active works, filters by type and date, no private
data, and a constant number of queries whatever the number of permits."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from permits.models import PermitKind, Status
from tests.factories import OrganizationFactory
from tests.permits.streetmap.conftest import TODAY, opening, street_use

pytestmark = pytest.mark.django_db


def _numbers(client, name="streetmap:list", **params):
    response = client.get(reverse(name), params)
    assert response.status_code == 200
    return {w.number for w, _phase in response.context["works"]}


def test_anyone_opens_the_map_and_the_list_without_logging_in(grid, monday, client):
    work = opening(grid["highland"], location="250 Highland Avenue", end=TODAY + timedelta(days=2))
    for name in ("streetmap:map", "streetmap:list"):
        page = client.get(reverse(name)).content.decode()
        assert work.number in page and "Highland Avenue, Milwaukee Street to Main Street" in page
        assert reverse("permits:public_status", args=[work.public_token]) in page


def test_the_list_only_page_has_no_map(grid, monday, client):
    assert 'id="works-map"' not in client.get(reverse("streetmap:list")).content.decode()
    assert 'id="works-map"' in client.get(reverse("streetmap:map")).content.decode()


@pytest.mark.parametrize(
    ("status", "shown"),
    [
        (Status.SUBMITTED, False),
        (Status.UNDER_REVIEW, False),
        (Status.APPROVED, True),
        (Status.ISSUED, True),
        (Status.ACTIVE, True),
        (Status.COMPLETED, False),
        (Status.DENIED, False),
    ],
)
def test_only_approved_issued_and_active_works_are_public(grid, monday, client, status, shown):
    work = opening(grid["highland"], status=status, end=TODAY)
    assert (work.number in _numbers(client)) is shown


def test_no_private_data_on_the_map_the_list_or_the_map_data(grid, monday, client):
    org = OrganizationFactory(name="Brandt Excavating LLC", phone="920-555-0142")
    opening(grid["highland"], end=TODAY, organization=org)
    for name in ("streetmap:map", "streetmap:list", "streetmap:map_data"):
        text = client.get(reverse(name)).content.decode()
        assert "Privatename" not in text and "rita.private@example.com" not in text and "920-555-0142" not in text
    assert "Brandt Excavating LLC" in client.get(reverse("streetmap:list")).content.decode()


def test_filter_by_type(grid, monday, client):
    work = opening(grid["highland"], end=TODAY)
    party = street_use(grid["highland"])
    assert _numbers(client, kinds=PermitKind.STREET_USE) == {party.number}
    assert _numbers(client, kinds=PermitKind.STREET_OPENING) == {work.number}


def test_filter_by_street(grid, monday, client):
    on_highland = opening(grid["highland"], end=TODAY)
    opening(grid["milwaukee"], location="150 Milwaukee Street", end=TODAY)
    assert _numbers(client, street=grid["highland"].pk) == {on_highland.number}


def test_from_date_keeps_work_ending_that_day_and_drops_work_ending_the_day_before(grid, monday, client):
    ends_4 = opening(grid["highland"], start=TODAY - timedelta(days=5), end=TODAY)
    opening(grid["highland"], start=TODAY - timedelta(days=5), end=TODAY - timedelta(days=1))
    assert _numbers(client, date_from=TODAY.isoformat()) == {ends_4.number}


def test_to_date_keeps_work_beginning_that_day_and_drops_work_beginning_the_day_after(grid, monday, client):
    week_end = TODAY + timedelta(days=6)
    begins_then = opening(grid["highland"], status=Status.APPROVED, start=week_end, end=week_end)
    opening(
        grid["highland"], status=Status.APPROVED, start=week_end + timedelta(days=1), end=week_end + timedelta(days=1)
    )
    assert _numbers(client, date_from=TODAY.isoformat(), date_to=week_end.isoformat()) == {begins_then.number}


def test_a_to_date_before_the_from_date_is_refused_naming_the_field(grid, monday, client):
    response = client.get(reverse("streetmap:list"), {"date_from": "2026-05-10", "date_to": "2026-05-09"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'href="#id_date_to"' in page and "before the “From” date" in page


def test_the_map_data_is_geojson_with_the_village_streets(grid, monday, client):
    work = opening(grid["highland"], end=TODAY, point=(-88.4505, 43.5155))
    body = json.loads(client.get(reverse("streetmap:map_data")).content)
    feature = body["features"][0]
    assert feature["properties"]["number"] == work.number
    kinds = [g["type"] for g in feature["geometry"]["geometries"]]
    assert kinds == ["MultiLineString", "Point"]
    assert len(body["streets"]["features"]) == 4


def test_the_list_pages(grid, monday, client):
    for n in range(27):
        opening(grid["highland"], location=f"{200 + n} Highland Avenue", end=TODAY)
    first = client.get(reverse("streetmap:list"))
    assert len(first.context["works"]) == 25
    assert len(client.get(reverse("streetmap:list"), {"page": 2}).context["works"]) == 2


def _count_queries(client, django_assert_max_num_queries, url, limit):
    with django_assert_max_num_queries(limit):
        response = client.get(url)
        assert response.status_code == 200
        if response.streaming:
            b"".join(response.streaming_content)


@pytest.mark.parametrize(
    ("url_name", "args", "limit"),
    [
        ("streetmap:map", (), 10),
        ("streetmap:list", (), 10),
        ("streetmap:map_data", (), 6),
        ("streetmap:wzdx", (), 6),
        ("streetmap:blds_permits", ("csv",), 3),
        ("streetmap:blds_permits", ("json",), 3),
        ("streetmap:blds_status_changes", ("csv",), 3),
    ],
)
def test_query_counts_do_not_grow_with_the_number_of_permits(
    grid, monday, client, django_assert_max_num_queries, url_name, args, limit
):
    url = reverse(url_name, args=args)
    for n in range(3):
        opening(grid["highland"], location=f"{200 + n} Highland Avenue", end=TODAY, organization=OrganizationFactory())
        street_use(grid["highland"])
    _count_queries(client, django_assert_max_num_queries, url, limit)
    for n in range(12):
        opening(
            grid["milwaukee"],
            location=f"{100 + n} Milwaukee Street",
            end=TODAY,
            lanes=0,
            organization=OrganizationFactory(),
        )
        street_use(grid["milwaukee"])
    _count_queries(client, django_assert_max_num_queries, url, limit)


def test_street_calendar_query_count_is_constant(grid, monday, client, django_assert_max_num_queries):
    url = reverse("streetmap:street_calendar", args=[grid["highland"].pk])
    opening(grid["highland"], end=TODAY)
    _count_queries(client, django_assert_max_num_queries, url, 6)
    for n in range(10):
        opening(grid["highland"], location=f"{200 + n} Highland Avenue", end=TODAY)
    _count_queries(client, django_assert_max_num_queries, url, 6)
