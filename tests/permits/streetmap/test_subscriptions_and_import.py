""" "Tell me about my street" (verified email, told once per permit) and the GeoJSON import of segments."""

import json
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import Notice, Status
from permits.streetmap.models import StreetSegment, StreetSubscription
from permits.streetmap.services import import_segments, notify_subscribers
from tests.permits.streetmap.conftest import TODAY, opening

pytestmark = pytest.mark.django_db


def _subscribe(client, street, **extra):
    return client.post(reverse("streetmap:subscribe"), {"email": "neighbour@example.com", "street": street.pk, **extra})


def test_a_resident_subscribes_and_confirms_by_email(grid, monday, client):
    response = _subscribe(client, grid["highland"])
    assert response.status_code == 200 and "Check your email" in response.content.decode()
    sub = StreetSubscription.objects.get()
    assert sub.verified_at is None
    notice = Notice.objects.get(to="neighbour@example.com")
    assert str(sub.token) in notice.body
    client.get(reverse("streetmap:subscription", args=[sub.token]))
    sub.refresh_from_db()
    assert sub.verified_at is not None


def test_a_bad_email_is_refused_naming_the_field(grid, client):
    response = client.post(reverse("streetmap:subscribe"), {"email": "not-an-email", "street": grid["highland"].pk})
    assert response.status_code == 400 and 'href="#id_email"' in response.content.decode()
    assert not StreetSubscription.objects.exists()


def _issued_today(grid, **kw):
    work = opening(grid["highland"], end=TODAY + timedelta(days=2), **kw)
    work.issued_on = TODAY
    type(work).objects.filter(pk=work.pk).update(issued_on=TODAY)
    return work


def _verified(grid, client, **extra):
    _subscribe(client, grid["highland"], **extra)
    sub = StreetSubscription.objects.get()
    client.get(reverse("streetmap:subscription", args=[sub.token]))
    sub.refresh_from_db()
    type(sub).objects.filter(pk=sub.pk).update(last_notified_on=TODAY - timedelta(days=1))
    return sub


def _told(work):
    return Notice.objects.filter(template="streetmap_issued", subject__contains=work.number).count()


def test_a_verified_subscriber_is_told_once_of_a_permit_issued_on_the_street(grid, monday, client):
    _verified(grid, client)
    work = _issued_today(grid)
    assert notify_subscribers(today=TODAY) == (1, 1)
    assert notify_subscribers(today=TODAY) == (1, 0)
    assert _told(work) == 1


def test_an_unverified_subscriber_is_told_nothing(grid, monday, client):
    _subscribe(client, grid["highland"])
    work = _issued_today(grid)
    assert notify_subscribers(today=TODAY) == (0, 0)
    assert _told(work) == 0


def test_an_address_subscription_is_told_only_of_its_block(grid, monday, client):
    _verified(grid, client, address_number=120)
    east = _issued_today(grid, location="250 Highland Avenue")
    west = _issued_today(grid, location="150 Highland Avenue")
    notify_subscribers(today=TODAY)
    assert _told(west) == 1 and _told(east) == 0


def test_a_permit_on_another_street_is_not_told(grid, monday, client):
    _verified(grid, client)
    other = opening(grid["milwaukee"], location="150 Milwaukee Street", end=TODAY)
    type(other).objects.filter(pk=other.pk).update(issued_on=TODAY)
    notify_subscribers(today=TODAY)
    assert _told(other) == 0


def test_unsubscribing_ends_it(grid, monday, client):
    sub = _verified(grid, client)
    client.post(reverse("streetmap:subscription", args=[sub.token]))
    assert not StreetSubscription.objects.exists()


def test_the_subscriber_email_is_not_on_the_permit_timeline(grid, monday, client):
    _verified(grid, client)
    work = _issued_today(grid)
    notify_subscribers(today=TODAY)
    assert not work.events.filter(reason__contains="neighbour@example.com").exists()


# --- import -------------------------------------------------------------------------------------------------------


def _collection(*features):
    return json.dumps({"type": "FeatureCollection", "features": list(features)})


def _feature(street="Highland Avenue", coordinates=((-88.46, 43.51), (-88.45, 43.51)), **props):
    return {
        "type": "Feature",
        "properties": {"street": street, "from": "A Street", "to": "B Street", **props},
        "geometry": {"type": "LineString", "coordinates": [list(c) for c in coordinates]},
    }


def test_the_clerk_imports_segments_and_a_reimport_updates_them(grid, clerk):
    before = StreetSegment.objects.count()
    assert import_segments(data=_collection(_feature(id="h-1", address_from=300, address_to=399)), by=clerk) == {
        "created": 1,
        "updated": 0,
    }
    assert import_segments(data=_collection(_feature(id="h-1", address_from=300, address_to=398)), by=clerk) == {
        "created": 0,
        "updated": 1,
    }
    assert StreetSegment.objects.count() == before + 1
    assert StreetSegment.objects.get(source_id="h-1").address_to == 398


def test_a_bad_import_lists_every_problem_and_stores_nothing(grid, clerk):
    before = StreetSegment.objects.count()
    data = _collection(
        _feature(id="ok"),
        _feature(street="Nowhere Street"),
        _feature(coordinates=((43.51, -188.46), (43.51, -88.45))),
        _feature(address_from=300, address_to=200),
    )
    with pytest.raises(RulesBroken) as error:
        import_segments(data=data, by=clerk)
    messages = [v.message for v in error.value.violations]
    assert len(messages) == 3
    assert any("Feature 2" in m and "Nowhere Street" in m for m in messages)
    assert StreetSegment.objects.count() == before


def test_an_import_that_is_not_geojson_is_refused(clerk):
    with pytest.raises(RulesBroken, match="not valid JSON"):
        import_segments(data=b"\xff\xfe", by=clerk)


@pytest.mark.parametrize("persona", ["inspector", "police_chief", "board_member", "resident"])
def test_only_the_clerk_and_the_dpw_director_import_segments(persona, request):
    with pytest.raises(PermissionDenied):
        import_segments(data=_collection(_feature()), by=request.getfixturevalue(persona))


def test_the_dpw_director_imports_creating_missing_streets(dpw_director):
    assert (
        import_segments(data=_collection(_feature(street="New Road")), by=dpw_director, create_streets=True)["created"]
        == 1
    )


def test_an_issued_status_is_what_subscribers_hear_about(grid, monday, client):
    _verified(grid, client)
    approved = opening(grid["highland"], status=Status.APPROVED, end=TODAY)
    notify_subscribers(today=TODAY)
    assert _told(approved) == 0


def test_the_subscriber_job_statements_do_not_grow_with_the_permits(grid, monday, client):
    """Set-based, a few statements per chunk of (subscriber, permit) pairs, not per pair."""
    sub = _verified(grid, client)
    _issued_today(grid, location="150 Highland Avenue")
    with CaptureQueriesContext(connection) as small:
        assert notify_subscribers(today=TODAY) == (1, 1)
    type(sub).objects.filter(pk=sub.pk).update(last_notified_on=TODAY - timedelta(days=1))
    works = [_issued_today(grid, location=f"{150 + k} Highland Avenue") for k in range(5)]
    with CaptureQueriesContext(connection) as large:
        assert notify_subscribers(today=TODAY) == (1, 5)
    assert len(large) == len(small)
    assert all(_told(work) == 1 for work in works)
    assert notify_subscribers(today=TODAY) == (1, 0)  # a second run tells nothing
    assert Notice.objects.filter(template="streetmap_issued").count() == 6
