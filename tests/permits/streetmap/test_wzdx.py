"""The WZDx 4.2 feed validates against the official 4.2 schemas (resolved by their $ids, offline) and holds only
active or scheduled lane and sidewalk closures."""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from jsonschema import Draft7Validator, FormatChecker
from referencing import Registry, Resource

from permits.models import Status
from permits.streetmap.feeds import wzdx
from tests.permits.streetmap.conftest import TODAY, opening

pytestmark = pytest.mark.django_db
SCHEMAS = Path(__file__).parent / "schemas"


def _validator():
    resources = []
    for path in [*sorted((SCHEMAS / "wzdx-4.2").glob("*.json")), *sorted((SCHEMAS / "geojson").glob("*.json"))]:
        contents = json.loads(path.read_text())
        resources.append((contents["$id"], Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    root = json.loads((SCHEMAS / "wzdx-4.2" / "WorkZoneFeed.json").read_text())
    return Draft7Validator(root, registry=registry, format_checker=FormatChecker())


def _feed(client):
    response = client.get(reverse("streetmap:wzdx"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/geo+json"
    return json.loads(response.content)


def test_the_schemas_are_the_shared_4_2_copies():
    shared = Path("/work/shared/standards/wzdx-4.2")
    if not shared.exists():
        pytest.skip("the shared standards folder is not on this machine")
    for path in shared.glob("*.json"):
        assert json.loads(path.read_text()) == json.loads((SCHEMAS / "wzdx-4.2" / path.name).read_text())


def test_the_validator_catches_a_broken_feed():
    errors = list(_validator().iter_errors({"type": "FeatureCollection", "features": [{"id": "x"}]}))
    assert errors


def test_feed_validates_against_wzdx_4_2(grid, monday, client):
    opening(grid["highland"], location="250 Highland Avenue", end=TODAY + timedelta(days=3))
    opening(grid["highland"], location="150 Highland Avenue", end=TODAY + timedelta(days=3), lanes=0, traffic="flagman")
    opening(grid["milwaukee"], location="150 Milwaukee Street", end=TODAY + timedelta(days=3), surface="sidewalk")
    opening(
        grid["highland"],
        status=Status.APPROVED,
        location="Highland Avenue",
        start=TODAY + timedelta(days=7),
        end=TODAY + timedelta(days=9),
        lanes=0,
    )
    body = _feed(client)
    errors = [f"{list(e.path)}: {e.message}" for e in _validator().iter_errors(body)]
    assert errors == []
    assert len(body["features"]) == 1 + 1 + 1 + 2  # the scheduled one is on both blocks of Highland Avenue


def test_lanes_come_from_the_lane_closure_of_303_5b3(grid, monday, client):
    flagged = opening(grid["highland"], location="150 Highland Avenue", end=TODAY, lanes=0, traffic="flagman")
    event = _feed(client)["features"][0]["properties"]
    assert event["core_details"]["name"] == flagged.number
    assert event["vehicle_impact"] == "flagging"
    assert [lane["status"] for lane in event["lanes"]] == ["alternating-flow", "closed"]
    assert event["beginning_cross_street"] == "Church Street" and event["ending_cross_street"] == "Milwaukee Street"


def test_no_lane_open_and_no_traffic_control_is_a_road_closure(grid, monday):
    opening(grid["highland"], location="150 Highland Avenue", end=TODAY, lanes=0)
    event = wzdx.feed(today=TODAY)["features"][0]["properties"]
    assert event["vehicle_impact"] == "all-lanes-closed"


def test_a_sidewalk_opening_closes_the_sidewalk_lane(grid, monday):
    opening(grid["highland"], location="150 Highland Avenue", end=TODAY, surface="sidewalk")
    event = wzdx.feed(today=TODAY)["features"][0]["properties"]
    assert event["lanes"] == [{"order": 1, "type": "sidewalk", "status": "closed"}]


def test_terrace_work_with_every_lane_open_is_not_in_the_feed(grid, monday):
    opening(grid["highland"], location="150 Highland Avenue", end=TODAY, surface="terrace")
    assert wzdx.feed(today=TODAY)["features"] == []


@pytest.mark.parametrize(
    "status", [Status.SUBMITTED, Status.UNDER_REVIEW, Status.COMPLETED, Status.CLOSED, Status.REVOKED, Status.EXPIRED]
)
def test_only_approved_issued_and_active_permits_are_in_the_feed(grid, monday, status):
    opening(grid["highland"], status=status, location="150 Highland Avenue", end=TODAY)
    assert wzdx.feed(today=TODAY)["features"] == []


def test_work_that_ended_yesterday_is_not_in_the_feed_and_work_ending_today_is(grid, monday):
    opening(
        grid["highland"], location="150 Highland Avenue", start=TODAY - timedelta(days=3), end=TODAY - timedelta(days=1)
    )
    assert wzdx.feed(today=TODAY)["features"] == []
    opening(grid["highland"], location="160 Highland Avenue", start=TODAY - timedelta(days=3), end=TODAY)
    assert len(wzdx.feed(today=TODAY)["features"]) == 1


def test_scheduled_work_is_planned_and_started_work_is_active(grid, monday):
    opening(
        grid["highland"],
        status=Status.APPROVED,
        location="150 Highland Avenue",
        start=TODAY + timedelta(days=1),
        end=TODAY + timedelta(days=2),
    )
    opening(grid["highland"], status=Status.ISSUED, location="250 Highland Avenue", start=TODAY, end=TODAY)
    statuses = sorted(f["properties"]["event_status"] for f in wzdx.feed(today=TODAY)["features"])
    assert statuses == ["active", "planned"]


def test_dates_are_whole_days_in_central_time(grid, monday):
    opening(grid["highland"], location="150 Highland Avenue", start=TODAY, end=TODAY)
    event = wzdx.feed(today=TODAY)["features"][0]["properties"]
    assert event["start_date"] == "2026-05-04T05:00:00Z"  # midnight CDT
    assert event["end_date"] == "2026-05-05T04:59:59Z"


def test_the_feed_names_no_person(grid, monday, client):
    opening(grid["highland"], location="150 Highland Avenue", end=TODAY)
    text = client.get(reverse("streetmap:wzdx")).content.decode()
    assert "Privatename" not in text and "rita.private" not in text
