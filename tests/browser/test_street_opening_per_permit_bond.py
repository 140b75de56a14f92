"""A contractor without an annual bond applies for a street opening with a bond for this permit (§ 303-4H(3)),
uploads it on the permit page, the Clerk-Treasurer reviews the documents (a certificate rejected with its reason,
uploaded again; the bond accepted) and records the bond's amount from the Village actions page, and the DPW
approves: no step of the journey waits on a page that does not exist. axe-core on every page visited."""

from datetime import datetime
from decimal import Decimal

import pytest
import time_machine
from playwright.sync_api import expect

from permits.models import Permit, Status
from tests.browser import steps
from tests.factories import StreetFactory
from tests.upload_samples import PDF

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def fee_schedule(db):
    steps.street_opening_fees()


def upload(page, kind, name):
    page.get_by_label("Kind").select_option(kind)
    page.get_by_label("File (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
        files=[{"name": name, "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("Document uploaded.")).to_be_visible()


def test_303_4h_3_bond_for_this_permit_uploaded_recorded_by_the_clerk_then_approved(
    page, live_server, axe_check, contractor, clerk, dpw_director, board_bond_amounts
):
    steps.verified(contractor, clerk, dpw_director)
    StreetFactory(name="Henni Street")
    with time_machine.travel(datetime(2027, 3, 20, 10, 0, tzinfo=steps.CHICAGO), tick=True):
        # The contractor has no annual bond on file: it chooses a bond for this permit, and is told to upload it.
        steps.sign_in(page, live_server, "contractor")
        page.get_by_role("link", name="Apply", exact=True).click()
        page.get_by_role("link", name="Start a street opening or excavation permit application").click()
        steps.fill_application(page)
        page.get_by_label("A bond for this permit, which I will upload (§ 303-4H(3))").check()
        page.get_by_role("button", name="Sign and submit the application").click()
        expect(page.get_by_text("Upload the bond for this permit on the permit page").first).to_be_visible()
        page.get_by_label("If this application gets warnings, I have read them and still want to submit").check()
        page.get_by_role("button", name="Sign and submit the application").click()
        permit = Permit.objects.get()
        expect(page.get_by_role("heading", name=f"Street opening or excavation {permit.number}")).to_be_visible()
        checklist = page.get_by_role("region", name="What still blocks approval")
        expect(checklist.get_by_text("A bond for this permit")).to_be_visible()
        upload(page, "insurance", "certificate.pdf")
        upload(page, "bond", "bond.pdf")
        # The bond is on file: the checklist no longer asks for it, it says who records its amount and where.
        checklist = page.get_by_role("region", name="What still blocks approval")
        expect(checklist.get_by_text("The amount of the bond for this permit is not recorded")).to_be_visible()
        expect(checklist.get_by_role("link", name="Upload the document")).to_have_count(0)
        axe_check(page, "permit page: bond uploaded, amount not recorded")
        steps.log_out(page)

        # The clerk reviews the documents on the permit page: the certificate names another company and is
        # rejected with the reason, the bond is accepted.
        steps.sign_in(page, live_server, "clerk")
        page.goto(live_server.url + permit.get_absolute_url())
        documents = page.get_by_role("list", name="Documents")
        expect(documents.get_by_text("received, waiting for review by the Clerk-Treasurer")).to_have_count(2)
        axe_check(page, "permit page: documents to review")
        page.get_by_label("Why it is rejected: certificate.pdf").fill("It names another company")
        page.get_by_role("button", name="Reject the certificate of insurance certificate.pdf").click()
        expect(page.get_by_text("Certificate of insurance rejected")).to_be_visible()
        page.get_by_role("button", name="Accept the bond bond.pdf").click()
        expect(page.get_by_text("Bond accepted.")).to_be_visible()
        steps.log_out(page)

        # The contractor reads why and uploads a new certificate.
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        checklist = page.get_by_role("region", name="What still blocks approval")
        expect(
            checklist.get_by_text("The certificate of insurance was rejected: It names another company")
        ).to_be_visible()
        axe_check(page, "permit page: certificate rejected")
        checklist.get_by_role("link", name="Upload the document").click()
        upload(page, "insurance", "certificate-2.pdf")
        expect(page.get_by_text("The certificate of insurance was rejected")).to_have_count(0)
        steps.log_out(page)

        # The clerk starts the review and records the bond's amount from the bond document.
        steps.sign_in(page, live_server, "clerk")
        page.goto(live_server.url + permit.get_absolute_url())
        page.get_by_role("link", name="Village actions on this permit").click()
        page.get_by_role("button", name="Application complete: start review").click()
        expect(page.get_by_text("Review started.")).to_be_visible()
        expect(page.get_by_text("Its amount is not recorded yet")).to_be_visible()
        axe_check(page, "village actions: bond amount to record")
        page.get_by_label("Amount of the bond filed for this permit ($)").fill("4999.99")
        page.get_by_role("button", name="Record the bond's amount").click()
        expect(page.get_by_text("Amount of the bond for this permit recorded")).to_be_visible()
        # Below the Board's amount it does not count: approval still waits, and the page says why.
        expect(page.get_by_text("below the $5,000.00 the Village Board determined").first).to_be_visible()
        page.get_by_label("Amount of the bond filed for this permit ($)").fill("5000.00")
        page.get_by_role("button", name="Record the bond's amount").click()
        expect(page.get_by_text("Recorded: $5000.00.")).to_be_visible()
        axe_check(page, "village actions: bond amount recorded")
        steps.log_out(page)

        # The DPW approves the location: nothing about the bond refuses it any more.
        steps.sign_in(page, live_server, "dpw")
        page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/manage/")
        page.get_by_role("button", name="Approve the location").click()
        expect(page.get_by_text("Location approved")).to_be_visible()
        axe_check(page, "village actions: approved")
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED
    assert permit.street_opening.guarantee_bond_amount == Decimal("5000.00")
