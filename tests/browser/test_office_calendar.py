"""The Clerk-Treasurer keeps the office-closure calendar in the back office (§ 303-5F, § 303-5H business days):
adds the day after Thanksgiving, opens the office on a statute holiday, and is told plainly when the reason is
missing. axe-core on every page."""

from datetime import date

import pytest
from playwright.sync_api import expect

from permits.business_days import is_business_day, next_business_day
from permits.models import OfficeClosure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_clerk_edits_the_office_closure_calendar(page, live_server, axe_check, login, clerk):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=clerk, email=clerk.email, verified=True, primary=True)
    login(page, "clerk")
    page.goto(f"{live_server.url}/admin/permits/officeclosure/")
    expect(page.get_by_role("heading", name="Select office closure to change")).to_be_visible()
    axe_check(page, "office closures")

    page.goto(f"{live_server.url}/admin/permits/officeclosure/add/")
    axe_check(page, "add an office closure")
    page.get_by_label("Day").fill("2026-11-27")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("This field is required.")).to_be_visible()  # the reason is missing: nothing saved
    axe_check(page, "office closure with an error")
    assert not OfficeClosure.objects.filter(day=date(2026, 11, 27)).exists()

    page.get_by_label("Name").fill("Office closed the day after Thanksgiving")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(
        page.get_by_role("link", name="Friday, November 27, 2026: Office closed the day after Thanksgiving")
    ).to_be_visible()
    axe_check(page, "office closures after adding one")
    assert not is_business_day(date(2026, 11, 27))
    assert next_business_day(date(2026, 11, 25)) == date(2026, 11, 30)  # § 303-5H: Thanksgiving, closure, weekend

    # The office opens on the 2nd Monday in October after all: untick "closed", the row stays (public record).
    OfficeClosure.objects.get_or_create(day=date(2026, 10, 12), defaults={"name": "2nd Monday in October"})
    row = OfficeClosure.objects.get(day=date(2026, 10, 12))
    page.goto(f"{live_server.url}/admin/permits/officeclosure/{row.pk}/change/")
    axe_check(page, "change an office closure")
    page.get_by_label("Closed").uncheck()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("(office open)")).to_be_visible()
    assert is_business_day(date(2026, 10, 12))
