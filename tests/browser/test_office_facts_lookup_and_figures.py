"""What people expect of a permit office, through pages only, with axe-core (WCAG 2.1 A/AA) on every page: the clerk
keeps the office's phone and hours and the public pages show them; a visitor looks a permit up by number and by address
from the home page, on a phone and on a desktop; the clerk and a Board member read the key figures from their start
pages and follow a figure to its list."""

from datetime import date

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import Permit, Status
from permits.roles import Role
from tests.browser.steps import person, sign_in
from tests.factories import ParcelFactory, PermitFactory, StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _issued(number, street, parcel=None, location=""):
    permit = PermitFactory(number=number, street=street, parcel=parcel, location_description=location)
    Permit.objects.filter(pk=permit.pk).update(status=Status.ISSUED, issued_on=date(2026, 5, 4))
    return permit


def test_clerk_keeps_the_office_details_and_the_public_pages_show_them(page, live_server, axe_check):
    person("clerk", Role.CLERK)
    sign_in(page, live_server, "clerk")
    page.get_by_role("link", name="The Village office's address, phone and hours").click()
    expect(page.get_by_role("heading", name="The Village office's address, phone and hours")).to_be_visible()
    axe_check(page, "the office's details")
    page.get_by_label("Phone").fill("555-0100")
    page.get_by_label("Opening hours").fill("Monday to Friday, 8 am to 4:30 pm")
    page.get_by_role("button", name="Save the office's details").click()
    expect(page.get_by_role("alert")).to_contain_text("The phone number needs ten digits")
    axe_check(page, "the office's details refused")
    page.get_by_label("Phone").fill("(920) 555-0100")
    page.get_by_role("button", name="Save the office's details").click()
    expect(page.get_by_text("The Village office's details are saved")).to_be_visible()
    page.get_by_role("button", name="Log out").click()

    page.goto(f"{live_server.url}/")
    office = page.locator("#village-office")
    expect(office.get_by_role("link", name="(920) 555-0100")).to_have_attribute("href", "tel:+19205550100")
    expect(office).to_contain_text("Monday to Friday, 8 am to 4:30 pm")
    axe_check(page, "home with the office's details")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1366px"])
def test_a_visitor_looks_up_a_permit_by_number_and_by_address(page, live_server, axe_check, viewport):
    henni = StreetFactory(name="Henni Street")
    parcel = ParcelFactory(site_address="118 Henni Street", street=henni)
    permit = _issued("SO-2026-0012", henni, parcel, "Driveway apron")
    withdrawn = PermitFactory(street=henni, location_description="In front of 118 Henni Street")
    Permit.objects.filter(pk=withdrawn.pk).update(status=Status.WITHDRAWN)

    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Look up a permit by its number or address").click()
    expect(page.get_by_role("heading", name="Look up a permit", exact=True)).to_be_visible()
    axe_check(page, "the lookup")
    page.get_by_label("Permit number or address").fill("x")
    page.get_by_label("Permit number or address").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Permit number or address")
    axe_check(page, "the lookup refused")

    page.get_by_label("Permit number or address").fill("118 Henni")
    page.get_by_role("button", name="Look up").click()
    expect(page.get_by_role("status")).to_have_text("1 permit found.")
    axe_check(page, "permits found by address")
    assert withdrawn.number not in page.content()
    page.get_by_label("Permit number or address").fill("so-2026-0012")
    page.get_by_role("button", name="Look up").click()
    page.get_by_role("link", name=permit.number).click()
    expect(page.get_by_role("heading", name=f"Permit {permit.number}")).to_be_visible()
    axe_check(page, "the permit's public status")


def test_the_clerk_and_a_trustee_read_the_key_figures_and_follow_one(page, live_server, axe_check):
    person("clerk", Role.CLERK)
    person("board", Role.BOARD)
    review = PermitFactory()
    Permit.objects.filter(pk=review.pk).update(status=Status.UNDER_REVIEW, created_at=timezone.now())

    sign_in(page, live_server, "clerk")
    page.get_by_role("link", name="Key figures").click()
    expect(page.get_by_role("heading", name="Key figures", exact=False)).to_be_visible()
    expect(page.get_by_role("img", name="Applications by permit type", exact=False)).to_be_visible()
    axe_check(page, "the key figures")
    page.set_viewport_size(PHONE)
    axe_check(page, "the key figures on a phone")
    page.get_by_role("link", name="1 under review").click()
    expect(page.get_by_role("link", name=review.number)).to_be_visible()
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="Log out").first.click()

    sign_in(page, live_server, "board")
    page.get_by_role("link", name="Key figures", exact=False).click()
    expect(page.get_by_role("heading", name="Key figures", exact=False)).to_be_visible()
