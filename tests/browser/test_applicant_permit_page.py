"""An applicant sees what blocks approval and fixes it; every email link opens the right page on the
configured site; the notice preferences, My property and parcel link pages. axe-core on every page visited."""

import re
from datetime import datetime

import pytest
import time_machine
from playwright.sync_api import expect

from permits.models import ParcelLinkRequest
from permits.street_opening import services as so
from tests.browser import steps
from tests.factories import ParcelFactory, StreetFactory
from tests.permits.street_opening.conftest import valid_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def spring_2026():
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=steps.CHICAGO), tick=True):
        yield


@pytest.fixture
def application(spring_2026, contractor, contractor_org, clerk, settings, live_server, board_bond_amounts):
    settings.SITE_URL = live_server.url  # the configured site: every email's links open on it
    steps.street_opening_fees()
    steps.annual_bond(contractor_org, 2026, recorded_by=clerk, recorded_at=datetime(2026, 1, 5, tzinfo=steps.CHICAGO))
    steps.verified(contractor, clerk)
    street = StreetFactory(name="Henni Street")
    return so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))


def test_applicant_sees_what_blocks_approval_and_fixes_it(page, live_server, axe_check, application):
    steps.sign_in(page, live_server, "contractor")
    page.goto(live_server.url + application.get_absolute_url())
    expect(page.get_by_role("heading", name="What still blocks approval")).to_be_visible()
    expect(page.get_by_text("Upload the certificate of insurance on the permit page")).to_be_visible()
    axe_check(page, "permit page with its checklist")
    page.get_by_role("link", name=re.compile("^Upload the document")).first.click()
    assert page.url.endswith("#upload-heading")
    steps.upload_insurance_certificate(page)
    expect(page.get_by_role("heading", name="Nothing blocks approval")).to_be_visible()
    assert page.get_by_text("Upload the certificate of insurance on the permit page").count() == 0
    axe_check(page, "permit page, nothing blocks approval")


def test_every_email_link_opens_the_right_page_on_the_configured_site(page, live_server, axe_check, application, clerk):
    # The clerk asks for information from the permit page; the applicant's email links to the permit.
    steps.sign_in(page, live_server, "clerk")
    page.goto(live_server.url + application.get_absolute_url())
    axe_check(page, "permit page (clerk)")
    page.get_by_label("What must the applicant add or correct?").fill("Upload the certificate of insurance.")
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_text("The applicant was asked for the information.")).to_be_visible()
    steps.log_out(page)
    # Every email is a Notice row first (in production mode a Celery worker sends it; embedded, it is sent at once).
    from permits.models import Notice

    bodies = list(Notice.objects.filter(to=application.applicant.email).values_list("body", flat=True))
    assert bodies, "no email to the applicant"
    links = [link for body in bodies for link in re.findall(r"https?://\S+", body)]
    assert links and all(link.startswith(live_server.url) for link in links)
    steps.sign_in(page, live_server, "contractor")
    for link in set(links):
        response = page.goto(link)
        assert response.status == 200, link
        expect(page.get_by_role("heading", name=re.compile(application.number))).to_be_visible()
    axe_check(page, "permit page opened from the email")


def test_notice_preferences_my_property_and_parcel_link_pages(page, live_server, axe_check, resident, clerk):
    steps.verified(resident, clerk)
    lot = ParcelFactory(tax_key="266-1116-7000", site_address="700 Main Street", owner_name="Newcomer, Nora")
    steps.sign_in(page, live_server, "resident")
    page.goto(live_server.url + "/permits/")
    page.get_by_role("link", name="Notices by email").click()
    axe_check(page, "notice preferences")
    page.get_by_label("Application received").uncheck()
    page.get_by_role("button", name="Save my choices").click()
    expect(page.get_by_text("Notice preferences saved.")).to_be_visible()
    assert not page.get_by_label("Application received").is_checked()
    assert page.get_by_label("Special charge billed").is_disabled()

    page.goto(live_server.url + "/my-property/")
    axe_check(page, "my property (not linked)")
    page.get_by_role("link", name="Link my account to a parcel").click()
    axe_check(page, "parcel link request")
    page.get_by_role("button", name="Send the request").click()
    axe_check(page, "parcel link request with errors")
    page.get_by_label("Parcel tax key number").fill(lot.tax_key)
    page.get_by_label("Tax bill number (proof)").fill("2026-000700")
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_text("Waiting for the Clerk-Treasurer")).to_be_visible()
    steps.log_out(page)

    steps.sign_in(page, live_server, "clerk")
    page.goto(live_server.url + "/office/parcel-links/")
    axe_check(page, "parcel link requests (clerk)")
    page.get_by_role("button", name=re.compile("^Approve")).click()
    expect(page.get_by_text("is linked to 700 Main Street")).to_be_visible()
    steps.log_out(page)
    assert ParcelLinkRequest.objects.get().status == "approved"

    steps.sign_in(page, live_server, "resident")
    page.goto(live_server.url + "/my-property/")
    expect(page.get_by_role("heading", name=re.compile("700 Main Street"))).to_be_visible()
    axe_check(page, "my property (linked)")
