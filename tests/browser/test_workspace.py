"""Each demo account's start page on a desktop and on a phone, with zero axe-core violations; the clerk
finds a permit from the header's search box in one step; Cancel on a confirmation submits nothing."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
START_HEADING = {
    "clerk": "Today's work",
    "dpw": "Today's work",
    "inspector": "Today's work",
    "building": "Today's work",
    "police": "Today's work",
    "board": "Today's work",
    "president": "Today's work",
    "resident": None,  # applicants land on their applications (the applicant branch builds that page)
    "contractor": None,
    "utility": None,
}


@pytest.fixture
def demo(settings):
    settings.DEMO_PASSWORD = "correct-horse-battery"
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_issue15_every_demo_accounts_start_page_on_desktop_and_phone_has_no_axe_violations(
    page, live_server, login, axe_check, demo
):
    for username, heading in START_HEADING.items():
        page.set_viewport_size(DESKTOP)
        login(page, username)
        page.wait_for_load_state()
        if heading:
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            expect(page.locator(".work-box").first).to_be_visible()
        axe_check(page, f"{username}'s start page (desktop)")
        page.set_viewport_size(PHONE)
        page.reload()
        axe_check(page, f"{username}'s start page (phone)")
        page.context.clear_cookies()


def test_the_clerk_finds_a_permit_from_the_header_search_in_one_step(page, live_server, login, axe_check, demo):
    from permits.models import Permit, Status

    permit = Permit.objects.exclude(status=Status.DRAFT).order_by("pk").first()
    login(page, "clerk")
    page.get_by_role("searchbox", name="Search", exact=True).fill(permit.number)
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_role("heading", name="Search the Village's records")).to_be_visible()
    axe_check(page, "search results")
    page.get_by_role("link", name=f"{permit.number}:").first.click()
    expect(page).to_have_url(f"{live_server.url}{permit.get_absolute_url()}")


def test_the_dpw_searches_a_parcel_by_tax_key_on_a_phone(page, live_server, login, axe_check, demo):
    page.set_viewport_size(PHONE)
    login(page, "dpw")
    page.get_by_role("button", name="Show or hide the menu").click()
    page.get_by_label("Search permits, parcels").fill("266-1116-1000")
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_role("link", name="266-1116-1000:")).to_be_visible()
    axe_check(page, "search results on a phone")


def test_cancel_on_a_confirmation_submits_nothing(page, live_server, login, resident, verified_resident):
    from rest_framework.authtoken.models import Token

    Token.objects.create(user=resident)
    login(page, resident.username)
    page.goto(f"{live_server.url}/account/tokens/")
    page.evaluate("window.confirm = () => false")
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_timeout(300)
    assert Token.objects.filter(user=resident).exists()
    page.evaluate("window.confirm = () => true")
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    expect(page.get_by_role("button", name="Create a token")).to_be_visible()
    assert not Token.objects.filter(user=resident).exists()


@pytest.fixture
def verified_resident(resident):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.get_or_create(
        user=resident, email=resident.email, defaults={"verified": True, "primary": True}
    )
    return resident
