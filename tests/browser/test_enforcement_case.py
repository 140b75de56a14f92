"""An enforcement official on a phone opens an obstruction case, serves the notice, records the Village's removal
after the 24 hours and sees the bill (§ 303-6D, § 303-6F); a resident reports a blocked sidewalk through the public
form; every page visited passes axe-core (WCAG 2.1 A/AA)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.conftest import staff_user
from tests.factories import ParcelFactory, StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


def _local(dt) -> str:
    return timezone.localtime(dt).strftime("%Y-%m-%dT%H:%M")


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_official_opens_serves_and_removes_an_obstruction_on_a_phone(page, live_server, login, axe_check):
    from allauth.account.models import EmailAddress

    from permits.roles import Role

    inspector = staff_user("inspector", Role.DPW_INSPECTOR)
    EmailAddress.objects.create(user=inspector, email=inspector.email, verified=True, primary=True)
    ParcelFactory(site_address="305 Main Street", owner_name="Klein, Joan", street=StreetFactory(name="Main Street"))
    now = timezone.now()

    page.set_viewport_size(PHONE)
    login(page, "inspector")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    page.goto(f"{live_server.url}/obstructions/cases/")
    expect(page.get_by_role("heading", name="Enforcement cases", exact=True)).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "case queue")

    page.get_by_role("link", name="Open a case").click()
    axe_check(page, "open a case")
    page.get_by_label("What kind of case").select_option("obstruction_sidewalk")
    page.get_by_label("Address of the premises").fill("305 Main Street")
    page.get_by_label("What you saw").fill("Pallets of bricks across the sidewalk")
    page.get_by_label("When you saw it").fill(_local(now - timedelta(hours=26)))
    page.get_by_role("button", name="Open the case").click()
    expect(page.get_by_role("heading", name="Case EC-")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "open case page")

    page.get_by_label("Notice to").select_option("owner")
    page.get_by_label("Served how").select_option("personal")
    page.get_by_label("Served at").fill(_local(now - timedelta(hours=25)))
    page.get_by_role("button", name="Record the notice as served").click()
    expect(page.get_by_text("Notice recorded as served")).to_be_visible()
    axe_check(page, "served case page")

    page.get_by_label("Removed by the Village at").fill(_local(now))
    page.get_by_label("Cost of the removal ($)").fill("185.00")
    page.get_by_label("What was removed (printed on the bill)").fill("Pallets hauled to the DPW yard")
    page.get_by_role("button", name="Record the removal and bill the owner").click()
    assert page.get_by_text("Removal recorded and billed to the owner").is_visible()
    expect(page.get_by_role("heading", name="Bill")).to_be_visible()
    expect(page.get_by_text("$185.00, billed")).to_be_visible()
    axe_check(page, "removed case page")


def test_resident_reports_a_blocked_sidewalk(page, live_server, axe_check):
    ParcelFactory(site_address="305 Main Street", street=StreetFactory(name="Main Street"))
    page.goto(f"{live_server.url}/obstructions/report/")
    axe_check(page, "complaint form")
    page.get_by_label("Address nearest the problem").fill("305 Main Street")
    page.get_by_label("What is blocking").fill("A trailer on the sidewalk")
    question = page.get_by_label("Anti-spam check").evaluate("el => el.labels[0].textContent")
    numbers = [int(word) for word in question.replace("?", " ").split() if word.isdigit()]
    page.get_by_label("Anti-spam check").fill(str(sum(numbers)))
    page.get_by_role("button", name="Send report").click()
    expect(page.get_by_role("heading", name="Thank you: your report was received")).to_be_visible()
    axe_check(page, "complaint thanks")
