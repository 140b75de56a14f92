"""The steps that once waited on the back office, walked through pages: the Clerk-Treasurer records a contractor's
annual bond (§ 303-4H(5)) from the office's work list, and a contractor records a renewed insurance on the permit
page (§ 303-4G). axe-core on every page visited."""

from datetime import date, datetime, timedelta

import pytest
import time_machine
from playwright.sync_api import expect

from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.models import AnnualBond, StreetOpening
from tests.browser import steps
from tests.factories import StreetFactory
from tests.permits.street_opening.conftest import file_certificate, valid_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SPRING = datetime(2026, 5, 4, 10, 0, tzinfo=steps.CHICAGO)


@pytest.fixture(autouse=True)
def fee_schedule(db):
    steps.street_opening_fees()


def test_303_4h_5_the_clerk_records_an_annual_bond_on_its_page(
    page, live_server, axe_check, clerk, contractor_org, board_bond_amounts
):
    steps.verified(clerk)
    with time_machine.travel(SPRING, tick=True):
        steps.sign_in(page, live_server, "clerk")
        page.goto(f"{live_server.url}/office/")
        page.get_by_role("link", name="Annual bonds (§ 303-4H(5))").first.click()
        expect(page.get_by_role("heading", name="Annual bonds (§ 303-4H(5))")).to_be_visible()
        expect(page.get_by_text("No annual bond is on file.")).to_be_visible()
        axe_check(page, "annual bonds: none on file")
        page.get_by_label("Principal (the contractor or utility)").select_option(label="Brandt Excavating LLC")
        page.get_by_label("Year covered").fill("2026")
        page.get_by_label("Surety").fill("Badger Surety")
        page.get_by_label("Bond number (the reference on the bond document)").fill("BS-2026-118")
        page.get_by_label("Amount of the bond ($)").fill("19999.99")
        page.get_by_role("button", name="Record the bond").click()
        expect(page.get_by_text("below the $20,000.00 the Village Board determined")).to_be_visible()
        axe_check(page, "annual bonds: refused below the Board's amount")
        page.get_by_label("Amount of the bond ($)").fill("20000.00")
        page.get_by_role("button", name="Record the bond").click()
        expect(page.get_by_text("Recorded: 2026 annual bond of Brandt Excavating LLC")).to_be_visible()
        expect(page.get_by_role("cell", name="BS-2026-118")).to_be_visible()
        axe_check(page, "annual bonds: recorded")
    assert AnnualBond.objects.get().amount == 20000


def test_303_4g_the_contractor_records_a_renewed_insurance_on_the_permit_page(
    page, live_server, axe_check, contractor, contractor_org, clerk, board_bond_amounts
):
    steps.verified(contractor)
    street = StreetFactory(name="Henni Street")
    steps.annual_bond(contractor_org, 2026, recorded_by=clerk, recorded_at=SPRING)
    with time_machine.travel(SPRING, tick=True):
        permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
        file_certificate(permit, contractor)
        covered = ordinance.expiry_date(date(2026, 5, 4))
        StreetOpening.objects.filter(permit=permit).update(insurance_expires=covered - timedelta(days=2))

        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        page.get_by_role("link", name="Record a renewed insurance").click()
        expect(page.get_by_role("heading", name=f"Record a renewed insurance for {permit.number}")).to_be_visible()
        axe_check(page, "insurance renewal: form")
        page.get_by_label("Date the renewed insurance expires").fill((covered - timedelta(days=1)).isoformat())
        page.get_by_label("Renewed certificate of insurance (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
            files=[{"name": "renewed.pdf", "mimeType": "application/pdf", "buffer": steps.PDF}]
        )
        page.get_by_role("button", name="Record the renewed insurance").click()
        expect(page.get_by_text("before the permit period ends")).to_be_visible()
        axe_check(page, "insurance renewal: refused, a day short")
        page.get_by_label("Date the renewed insurance expires").fill(covered.isoformat())
        page.get_by_label("Renewed certificate of insurance (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
            files=[{"name": "renewed.pdf", "mimeType": "application/pdf", "buffer": steps.PDF}]
        )
        page.get_by_role("button", name="Record the renewed insurance").click()
        expect(page.get_by_text("Renewed insurance recorded.")).to_be_visible()
        axe_check(page, "permit page: insurance renewed")
    permit.refresh_from_db()
    assert permit.street_opening.insurance_expires == covered
