"""Readable on a phone (390 px) and at 1366 px, in the light theme: the home page, the street works map, "My
applications" and the office list. On each: zero axe-core violations, and at 390 px no horizontal scrolling. Each
audience has its own header (public, applicant, staff); the staff's is one line at 1366 px with a usable search box
and none of the resident's items. The map names its streets and answers a click on a street with nothing on it."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import Status
from permits.roles import Role
from tests.browser.steps import person, sign_in
from tests.factories import StreetFactory
from tests.permits.conftest import permit_in
from tests.permits.streetmap.conftest import opening, segment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
WRITTEN_DATE = re.compile(r"[A-Z][a-z]{2} \d{1,2}, \d{4}")


@pytest.fixture
def world(db):
    """A resident with two applications (one with a long location), the clerk, and streets with and without works."""
    resident = person("rita", first_name="Rita", last_name="Anderson")
    clerk = person("clara", Role.CLERK, first_name="Clara", last_name="Clerk-Treasurer")
    today = timezone.localdate()
    highland = StreetFactory(name="Highland Avenue")
    church = StreetFactory(name="Church Street")
    segment(highland, "Church Street", "Main Street", [[-88.455, 43.5155], [-88.449, 43.5155]], 100, 299)
    segment(church, "Theresa Lane", "Highland Avenue", [[-88.455, 43.512], [-88.455, 43.5155]], 100, 199)
    work = opening(highland, start=today, end=today + timedelta(days=2), point=(-88.452, 43.5155))
    permit_in(
        Status.SUBMITTED,
        applicant=resident,
        street=highland,
        location_description="In the terrace and the sidewalk in front of 1234 Highland Avenue, north side",
    )
    permit_in(Status.UNDER_REVIEW, applicant=resident, street=church)
    return {"resident": resident, "clerk": clerk, "work": work}


@pytest.fixture
def at(browser, live_server):
    """at(viewport) -> a page of a fresh light-theme context of that size."""
    contexts = []

    def open_page(viewport):
        context = browser.new_context(viewport=viewport, color_scheme="light")
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield open_page
    for context in contexts:
        context.close()


def no_horizontal_scroll(page, what):
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{what} scrolls sideways at {inner} px: {width} px wide"


def header_height(page):
    return page.get_by_role("navigation", name="Main").bounding_box()["height"]


def test_phone_home_map_my_applications_and_office_list_fit_the_screen(at, live_server, axe_check, world):
    page = at(PHONE)
    page.goto(live_server.url + "/")
    no_horizontal_scroll(page, "home")
    axe_check(page, "home at 390 px")
    # The map is found from the home page.
    page.get_by_role("link", name="see the map of street works").click()
    page.wait_for_selector("#works-map[data-loaded]")
    no_horizontal_scroll(page, "map")
    axe_check(page, "map at 390 px")
    # The header folds behind the menu button and opens to the map's link.
    page.get_by_role("button", name="Show or hide the menu").click()
    expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Street works map")).to_be_visible()

    sign_in(page, live_server, "rita")
    page.goto(live_server.url + "/permits/")
    expect(page.get_by_role("heading", name="My applications")).to_be_visible()
    no_horizontal_scroll(page, "My applications")
    axe_check(page, "My applications at 390 px")
    # Each row is a card: the status, the deadline and the balance are on the screen, each under its column's name.
    row = page.locator("table.table-stack tbody tr").first
    for label in ("Status", "Next deadline", "Balance or refund due"):
        cell = row.locator(f'[data-label="{label}"]')
        expect(cell).to_be_visible()
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], label
        assert label in cell.evaluate("c => getComputedStyle(c, '::before').content")

    clerk_page = at(PHONE)
    sign_in(clerk_page, live_server, "clara")
    clerk_page.goto(live_server.url + "/office/")
    expect(clerk_page.get_by_role("heading", name="Village office: applications")).to_be_visible()
    no_horizontal_scroll(clerk_page, "office list")
    axe_check(clerk_page, "office list at 390 px")
    badge = clerk_page.locator("table.table-stack tbody tr .badge").first
    assert badge.bounding_box()["x"] + badge.bounding_box()["width"] <= PHONE["width"]


def test_1366_each_audience_has_its_own_header_on_one_line(at, live_server, axe_check, world):
    public = at(LAPTOP)
    public.goto(live_server.url + "/")
    nav = public.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Street works map")).to_be_visible()
    expect(nav.get_by_role("link", name="Apply", exact=True)).to_have_count(0)
    assert header_height(public) < 80
    axe_check(public, "home at 1366 px")

    applicant = at(LAPTOP)
    sign_in(applicant, live_server, "rita")
    applicant.goto(live_server.url + "/permits/")
    nav = applicant.get_by_role("navigation", name="Main")
    for name in ("Apply", "My applications", "API token", "Street works map"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(nav.get_by_role("search")).to_have_count(0)
    logout = nav.get_by_role("button", name="Log out")
    assert logout.bounding_box()["x"] + logout.bounding_box()["width"] <= LAPTOP["width"]
    assert header_height(applicant) < 80
    axe_check(applicant, "My applications at 1366 px")

    staff = at(LAPTOP)
    sign_in(staff, live_server, "clara")
    staff.goto(live_server.url + "/office/")
    nav = staff.get_by_role("navigation", name="Main")
    for name in ("Today's work", "Village office", "Village Board", "Enforcement cases", "Back office"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    for name in ("Apply", "API token"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_have_count(0)
    logout = nav.get_by_role("button", name="Log out")
    expect(logout).to_be_visible()
    assert logout.bounding_box()["x"] + logout.bounding_box()["width"] <= LAPTOP["width"]
    # One line: a single row of links is about 56 px high; the old header was four lines.
    assert header_height(staff) < 80
    search = staff.locator("#header-search")
    root_font = staff.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert search.bounding_box()["width"] >= 12 * root_font
    axe_check(staff, "office list at 1366 px")
    search.fill(world["work"].number)
    staff.get_by_role("button", name="Find").click()
    expect(staff.get_by_role("link", name=world["work"].number).first).to_be_visible()


def test_the_map_names_its_streets_writes_dates_and_answers_a_street_with_nothing(at, live_server, axe_check, world):
    page = at(LAPTOP)
    page.goto(live_server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Street works map").click()
    page.wait_for_selector("#works-map[data-loaded]")
    labels = page.locator("#works-map .street-label")
    expect(labels).to_have_count(2)
    assert sorted(labels.all_inner_texts()) == ["Church Street", "Highland Avenue"]
    axe_check(page, "map at 1366 px")

    # A click on Church Street, which has nothing on it, says so (the label lets the click through to the line).
    church = labels.filter(has_text="Church Street")
    church.scroll_into_view_if_needed()
    box = church.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    popup = page.locator(".leaflet-popup-content")
    expect(popup).to_contain_text("Church Street")
    expect(popup).to_contain_text("Nothing is closed, dug up, occupied or scheduled on this block")

    # A work's popup writes its dates as people do.
    page.locator("#works-map path.leaflet-interactive").last.click(force=True)
    work_popup = page.locator(".leaflet-popup-content", has_text=world["work"].number)
    expect(work_popup).to_be_visible()
    text = work_popup.inner_text()
    assert WRITTEN_DATE.search(text) and not ISO_DATE.search(text), text
