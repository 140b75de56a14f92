"""A resident, as a new user would: opens the public map without logging in, finds what is dug up on Highland Avenue
this week on the map and in the list, and subscribes to the street. Zero axe-core violations on every page."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import Status
from permits.streetmap.models import StreetSubscription
from permits.streetmap.services import recompute_adjoining
from tests.factories import OrganizationFactory, StreetFactory
from tests.permits.streetmap.conftest import opening, segment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def highland_this_week(db):
    today = timezone.localdate()
    highland = StreetFactory(name="Highland Avenue")
    milwaukee = StreetFactory(name="Milwaukee Street")
    segment(highland, "Church Street", "Milwaukee Street", [[-88.455, 43.5155], [-88.452, 43.5155]], 100, 199)
    segment(highland, "Milwaukee Street", "Main Street", [[-88.452, 43.5155], [-88.449, 43.5155]], 200, 299)
    segment(milwaukee, "Theresa Lane", "Highland Avenue", [[-88.452, 43.514], [-88.452, 43.5155]], 100, 199)
    recompute_adjoining()
    dug = opening(
        highland,
        location="In front of 250 Highland Avenue",
        start=today,
        end=today + timedelta(days=2),
        organization=OrganizationFactory(name="Rock River Gas & Electric"),
        point=(-88.4505, 43.5155),
    )
    opening(
        milwaukee,
        status=Status.APPROVED,
        location="150 Milwaukee Street",
        start=today + timedelta(days=30),
        end=today + timedelta(days=31),
    )
    return dug


def test_resident_finds_highland_avenue_works_on_the_map_and_list_and_subscribes(
    page, live_server, axe_check, highland_this_week
):
    dug = highland_this_week
    page.goto(live_server.url + "/map/")
    page.wait_for_selector("#works-map[data-loaded]")
    assert page.locator("#works-map").get_attribute("data-loaded") == "2"
    axe_check(page, "public map")

    page.get_by_role("link", name="This week").click()
    page.get_by_label("Street", exact=True).select_option(label="Highland Avenue")
    page.get_by_role("button", name="Show").click()
    page.wait_for_selector("#works-map[data-loaded]")
    assert page.locator("#works-map").get_attribute("data-loaded") == "1"
    rows = page.locator("#works-list tbody tr")
    assert rows.count() == 1
    assert dug.number in rows.first.inner_text()
    assert "Milwaukee Street to Main Street" in rows.first.inner_text()
    axe_check(page, "map filtered to Highland Avenue this week")

    # The map's own popup says the same thing as the list.
    page.locator("#works-map path.leaflet-interactive").last.click(force=True)
    page.wait_for_selector(".leaflet-popup-content")
    assert dug.number in page.locator(".leaflet-popup-content").inner_text()

    page.get_by_role("link", name="List only (no map)").click()
    assert page.locator("#works-map").count() == 0
    assert dug.number in page.locator("#works-list").inner_text()
    axe_check(page, "list only")

    page.get_by_role("link", name=dug.number).click()
    expect(page.get_by_role("heading", name=f"Permit {dug.number}")).to_be_visible()
    assert "Privatename" not in page.content()
    page.go_back()

    page.get_by_role("link", name="Tell me about my street").click()
    axe_check(page, "subscribe form")
    page.get_by_label("Your email address").fill("neighbour@example.com")
    page.locator("#id_street").select_option(label="Highland Avenue")
    page.get_by_role("button", name="Subscribe").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    axe_check(page, "subscription sent")
    sub = StreetSubscription.objects.get(email="neighbour@example.com")
    page.goto(f"{live_server.url}/map/subscriptions/{sub.token}/")
    assert "Confirmed" in page.content()
    axe_check(page, "subscription confirmed")
    sub.refresh_from_db()
    assert sub.verified_at is not None


def test_data_page_is_accessible(page, live_server, axe_check, db):
    page.goto(live_server.url + "/data/")
    expect(page.get_by_role("heading", name="Work zones (WZDx 4.2)")).to_be_visible()
    axe_check(page, "open data page")
