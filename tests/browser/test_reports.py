"""The reports in a real browser, with axe-core (WCAG 2.1 A/AA) on every page visited: the clerk finds Reports in the
navigation, opens the fees report, picks the year with the keyboard, reads the chart's text and table, and downloads the
CSV and the PDF; on a phone the page fits; the DPW inspector reads the inspections report and only that one."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from permits.roles import Role
from permits.street_opening.field.models import Inspection
from tests.factories import PermitFactory, UserFactory
from tests.permits.reports.conftest import charge, paid_charge, paid_permit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


def _staff(username, role):
    from allauth.account.models import EmailAddress

    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_clerk_reads_the_fees_report_and_downloads_it(page, live_server, axe_check, login):
    clerk = _staff("clerk", Role.CLERK)
    now = timezone.now()
    paid_permit(clerk, "50.00", now - timedelta(days=1))
    paid_charge(clerk, "75.00", now - timedelta(days=2))
    charge(billed_on=timezone.localdate() - timedelta(days=40))
    year = timezone.localdate().year

    login(page, "clerk")  # the clerk lands in the back office; the site's navigation is one click away
    page.goto(f"{live_server.url}/office/")
    page.get_by_role("link", name="Reports", exact=True).click()
    expect(page.get_by_role("heading", name="Reports", exact=True)).to_be_visible()
    axe_check(page, "reports page")

    page.get_by_role("link", name="Fees and charges collected").click()
    assert page.get_by_role("heading", name=f"Fees and charges collected, {year}").is_visible()
    chart = page.get_by_role("img", name=f"Collected per month, {year}")
    expect(chart).to_be_visible()
    assert "$125.00 in all" in page.locator("figcaption").inner_text()
    assert page.get_by_role("table", name=f"Fees and charges collected in {year}, by fee item and month").is_visible()
    axe_check(page, "fees report")

    # The keyboard alone: the year, then Show.
    page.get_by_label("Year").focus()
    page.keyboard.press("ArrowDown")
    assert page.get_by_label("Year").input_value() == str(year - 1)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Show"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert f"year={year - 1}" in page.url
    assert page.get_by_role("heading", name=f"Fees and charges collected, {year - 1}").is_visible()
    page.get_by_label("Year").select_option(str(year))
    page.get_by_role("button", name="Show").click()

    with page.expect_download() as csv_download:
        page.get_by_role("link", name=f"Download CSV of Fees and charges collected, {year}").click()
    assert csv_download.value.suggested_filename == f"theresa-fees-{year}.csv"
    assert "All fee items" in open(csv_download.value.path(), encoding="utf-8").read()
    with page.expect_download() as pdf_download:
        page.get_by_role("link", name=f"Download PDF of Fees and charges collected, {year}").click()
    assert pdf_download.value.suggested_filename == f"theresa-fees-{year}.pdf"
    assert open(pdf_download.value.path(), "rb").read(4) == b"%PDF"

    page.goto(f"{live_server.url}/reports/open-cases/")
    assert page.get_by_role("img", name="Open cases and charges by age").is_visible()
    axe_check(page, "open cases report")

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/reports/fees/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    axe_check(page, "fees report on a phone")

    page.goto(f"{live_server.url}/reports/fees/?year=1999")
    expect(page.get_by_role("alert").get_by_text("Year: the reports cover")).to_be_visible()
    axe_check(page, "fees report refusing a year")


def test_the_inspector_reads_the_inspections_report_only(page, live_server, axe_check, login):
    inspector = _staff("inspector", Role.DPW_INSPECTOR)
    permit = PermitFactory()
    Inspection.objects.create(permit=permit, kind="backfill", inspector=inspector, at=timezone.now(), result="fail")

    login(page, "inspector")
    page.goto(f"{live_server.url}/office/")
    page.get_by_role("link", name="Reports", exact=True).click()
    assert page.get_by_role("link", name="Fees and charges collected").count() == 0
    page.get_by_role("link", name="Inspections passed and failed").click()
    expect(page.get_by_role("img", name="Inspections per month")).to_be_visible()
    assert "Failed: 1 in all" in page.locator("figcaption").inner_text()
    axe_check(page, "inspections report")
