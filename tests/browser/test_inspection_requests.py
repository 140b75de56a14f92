"""Inspection requests through pages only, with axe-core on every page: the DPW inspector offers a time from the start
page; the permittee asks for the backfill inspection on the permit page at that time and sees it listed (a full
time is no longer offered); the inspector's day lists the request."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import Permit, Status
from permits.roles import Role
from tests.browser.steps import log_out, person, sign_in
from tests.factories import PermitFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_inspector_offers_a_time_and_the_permittee_takes_it(page, live_server, axe_check):
    person("inspector", Role.DPW_INSPECTOR, first_name="Ines", last_name="Vogel")
    carl = person("carl")
    permit = PermitFactory(applicant=carl)
    Permit.objects.filter(pk=permit.pk).update(status=Status.ISSUED)
    tomorrow = timezone.localdate() + timedelta(days=1)

    sign_in(page, live_server, "inspector")
    page.get_by_role("link", name="Inspection times and the inspections asked for").click()
    axe_check(page, "inspection times")
    offer = page.get_by_role("region", name="Offer a time", exact=True)
    offer.get_by_label("Day").fill(tomorrow.isoformat())
    offer.get_by_label("From").fill("09:00")
    offer.get_by_label("Until").fill("08:00")
    offer.get_by_label("Inspector").select_option(label="Ines Vogel")
    offer.get_by_label("Capacity").fill("1")
    offer.get_by_role("button", name="Offer this time").click()
    expect(page.get_by_role("alert")).to_contain_text("Until: the window ends after it starts")
    axe_check(page, "inspection time refused")
    offer.get_by_label("Until").fill("11:00")
    offer.get_by_role("button", name="Offer this time").click()
    expect(page.get_by_text("Inspection time offered")).to_be_visible()
    log_out(page)

    sign_in(page, live_server, "carl")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    section = page.locator("#inspection-requests")
    section.get_by_label("Inspection").select_option("backfill")
    section.get_by_role("button", name="Ask for it").click()
    expect(page.get_by_text("Inspection asked for: Before backfilling")).to_be_visible()
    axe_check(page, "the permit page with its inspection")
    expect(section.get_by_role("button", name="Cancel the inspection Before backfilling (§ 303-5F)")).to_be_visible()
    log_out(page)

    sign_in(page, live_server, "inspector")
    page.goto(f"{live_server.url}/office/inspection-times/?day={tomorrow.isoformat()}")
    expect(page.get_by_role("link", name=permit.number)).to_be_visible()
    axe_check(page, "the inspector's day")
