"""A contractor, as a new user would, applies in winter for April work and is told when the approval
can come (§ 303-4D); the DPW holds the approval; in April the contractor asks in writing for a renewal, which takes
effect once its fee is paid (§ 303-4E); the contractor cannot report the work complete before the final
inspection passes (§ 303-1C(8), § 303-4H(3)); the DPW Director passes it and confirms completion. Every step on the
pages, by the person whose step it is. axe-core on every page visited.

The clock is travelled (time-machine, ticking) so the journey reads the same whatever day it runs."""

from datetime import datetime

import pytest
import time_machine
from playwright.sync_api import expect

from permits.models import Permit, Status
from tests.browser import steps
from tests.factories import StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def fee_schedule(db):
    steps.street_opening_fees()


def test_winter_application_held_approval_written_renewal_paid_and_no_completion_before_the_final_inspection(
    page, live_server, axe_check, contractor, contractor_org, clerk, dpw_director, board_bond_amounts
):
    steps.verified(contractor, clerk, dpw_director)
    StreetFactory(name="Henni Street")
    steps.annual_bond(contractor_org, 2027, recorded_by=clerk, recorded_at=datetime(2026, 11, 5, tzinfo=steps.CHICAGO))
    with time_machine.travel(datetime(2026, 12, 1, 10, 0, tzinfo=steps.CHICAGO), tick=True) as clock:
        # December 1: the contractor applies for work planned April 12 to 14 and is told when approval can come.
        page.goto(live_server.url + "/")
        steps.sign_in(page, live_server, "contractor")
        page.get_by_role("link", name="Apply", exact=True).click()
        page.get_by_role("link", name="Start a street opening or excavation permit application").click()
        steps.fill_application(page)
        page.get_by_role("button", name="Sign and submit the application").click()
        # A November locate ticket will be stale by April (Wis. Stat. § 182.0175): warned, the contractor goes on.
        expect(page.get_by_text("Diggers Hotline may treat the ticket as expired")).to_be_visible()
        axe_check(page, "application: the stale-ticket warning")
        page.get_by_label("If this application gets warnings, I have read them and still want to submit").check()
        page.get_by_role("button", name="Sign and submit the application").click()
        page.get_by_text("Approval can come on or after March 15, 2027").first.wait_for()
        permit = Permit.objects.get()
        assert page.get_by_text("Approval can come on or after March 15, 2027").first.is_visible()
        axe_check(page, "permit page: approval can come in March")
        steps.log_out(page)

        # The contractor uploads the certificate of insurance; the clerk finds the application complete.
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        steps.upload_insurance_certificate(page)
        steps.log_out(page)
        steps.sign_in(page, live_server, "clerk")
        page.goto(f"{live_server.url}/office/")
        page.get_by_role("link", name=permit.number).click()
        page.get_by_role("link", name="Village actions on this permit").click()
        page.get_by_role("button", name="Application complete: start review").click()
        expect(page.get_by_text("Review started.")).to_be_visible()
        steps.log_out(page)

        # The DPW sees the validity would end before the work and holds the approval.
        steps.sign_in(page, live_server, "dpw")
        page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/manage/")
        expect(page.get_by_text("The validity would end before the work")).to_be_visible()
        axe_check(page, "village actions: validity before the work")
        page.get_by_role("button", name="Hold the approval until March 15, 2027").click()
        expect(page.get_by_text("Approval held; the applicant was told")).to_be_visible()
        page.goto(f"{live_server.url}/street-openings/held-approvals/")
        expect(page.get_by_role("link", name=permit.number)).to_be_visible()
        axe_check(page, "held approvals queue")
        steps.log_out(page)

        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        expect(page.get_by_text("Approval can come on March 15, 2027.")).to_be_visible()
        axe_check(page, "permit page: approval held")
        steps.log_out(page)

        # March 15: approved (valid through April 14), paid and issued.
        clock.move_to(datetime(2027, 3, 15, 9, 0, tzinfo=steps.CHICAGO))
        steps.sign_in(page, live_server, "dpw")
        page.goto(f"{live_server.url}/street-openings/held-approvals/")
        page.get_by_role("link", name=permit.number).click()
        page.get_by_label("Conditions of approval (§ 303-1C(2), § 303-5C(4))").fill("One lane open each way.")
        page.get_by_role("button", name="Approve the location").click()
        expect(page.get_by_text("Location approved")).to_be_visible()
        steps.log_out(page)
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        expect(page.get_by_role("heading", name="What still blocks the permit's issue")).to_be_visible()
        expect(page.get_by_text("balance due $50.00").first).to_be_visible()
        axe_check(page, "permit page: approved, the fee to pay")
        steps.log_out(page)
        steps.sign_in(page, live_server, "clerk")
        page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/manage/")
        page.get_by_label("Method").select_option("check")
        page.get_by_label("Reference").fill("77")
        page.get_by_role("button", name="Record the payment").click()
        expect(page.get_by_text("Payment recorded.")).to_be_visible()
        page.get_by_role("button", name="Issue the permit").click()
        expect(page.get_by_text("Permit issued.")).to_be_visible()
        steps.log_out(page)
        permit.refresh_from_db()
        assert permit.expires_on.isoformat() == "2027-04-14" == permit.end_date.isoformat()

        # April 13: the work began yesterday and will run past April 14: a written renewal request.
        clock.move_to(datetime(2027, 4, 13, 9, 0, tzinfo=steps.CHICAGO))
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        page.get_by_role("link", name="Ask in writing for a renewal").click()
        axe_check(page, "renewal request form")
        page.get_by_role("button", name="Send the written request").click()  # empty: told what is missing
        expect(page.get_by_text("This field is required.").first).to_be_visible()
        axe_check(page, "renewal request form with errors")
        page.get_by_label("Date the work began").fill("2027-04-12")
        page.get_by_label("Why the work will continue beyond the validity").fill(
            "Rock under the pavement: two more weeks to finish the lateral and restore the surface."
        )
        page.get_by_role("button", name="Send the written request").click()
        expect(page.get_by_text("Renewal requested in writing. The Clerk-Treasurer")).to_be_visible()
        steps.log_out(page)

        # The clerk grants it: the renewal fee is added; it takes effect only once paid.
        steps.sign_in(page, live_server, "clerk")
        page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/manage/")
        axe_check(page, "village actions: renewal request")
        page.get_by_label("Grant: add the renewal fee").check()
        page.get_by_role("button", name="Record the decision").click()
        expect(page.get_by_text("Renewal granted; the renewal fee was added")).to_be_visible()
        permit.refresh_from_db()
        assert permit.expires_on.isoformat() == "2027-04-14"  # not before the fee is paid
        axe_check(page, "village actions: renewal waiting for its fee")
        # The contractor pays at the counter; the clerk records it.
        page.get_by_label("Method").select_option("cash")
        page.get_by_role("button", name="Record the payment").click()
        expect(page.get_by_text("Payment recorded.")).to_be_visible()
        steps.log_out(page)
        permit.refresh_from_db()
        assert permit.expires_on.isoformat() == "2027-05-14"

        # The contractor sees the renewal and cannot complete before the final inspection passes.
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        expect(page.get_by_text("valid through May 14, 2027").first).to_be_visible()
        axe_check(page, "permit page: renewed")
        page.goto(f"{live_server.url}/permits/{permit.number}/field/")
        expect(page.get_by_text("No final inspection of the restored surface has passed")).to_be_visible()
        page.get_by_role("button", name="Request completion").click()
        expect(
            page.get_by_text("Completion requested. The permit stays open until the DPW confirms it")
        ).to_be_visible()
        axe_check(page, "field record: completion requested")
        permit.refresh_from_db()
        assert permit.status == Status.ISSUED and permit.completed_on is None
        steps.log_out(page)

        # The DPW Director passes the final inspection and confirms completion: the guarantee year starts.
        steps.sign_in(page, live_server, "dpw")
        page.goto(f"{live_server.url}/permits/{permit.number}/field/")
        page.get_by_role("link", name="Final: surface restored (§ 303-1C(8))").click()
        axe_check(page, "final inspection form")
        page.get_by_label("Yes, restored").check()
        page.get_by_role("button", name="Log the inspection").click()
        expect(page.get_by_text("passed.").first).to_be_visible()
        page.on("dialog", lambda dialog: dialog.accept())  # "Confirm the work completed?" (static/js/confirm.js)
        page.get_by_role("button", name="Confirm completion").click()
        expect(page.get_by_text("Completion confirmed. The work is guaranteed until")).to_be_visible()
        axe_check(page, "field record: completed")
        steps.log_out(page)
        permit.refresh_from_db()
        assert permit.status == Status.COMPLETED

        # The contractor sees it completed, with nothing owed; the nightly job closes it when the guarantee ends.
        steps.sign_in(page, live_server, "contractor")
        page.goto(live_server.url + permit.get_absolute_url())
        expect(page.locator(".badge", has_text="Completed").first).to_be_visible()
        expect(page.get_by_text("balance due $0.00").first).to_be_visible()
        expect(page.get_by_role("heading", name="What still blocks")).to_have_count(0)
