"""A contractor applies for a street opening on the web; the clerk reviews, the DPW approves the location, the clerk
records the payment and issues; the contractor downloads the permit. axe-core on every page visited."""

import re
from datetime import datetime

import pytest
from playwright.sync_api import expect

from permits.models import Permit, Status
from tests.browser import steps
from tests.factories import StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def fee_schedule(db):
    steps.street_opening_fees()


@pytest.fixture
def march_2027():
    """Applied and approved March 20, 2027, for work April 12 to 14: the 30 days from approval cover the work
    (§ 303-4D; a winter application is held until then, tests/browser/test_street_opening_lifecycle.py)."""
    import time_machine

    with time_machine.travel(datetime(2027, 3, 20, 10, 0, tzinfo=steps.CHICAGO), tick=True):
        yield


def test_street_opening_from_application_to_issued_permit(
    march_2027, page, live_server, axe_check, contractor, contractor_org, clerk, dpw_director, board_bond_amounts
):
    steps.verified(contractor, clerk, dpw_director)
    StreetFactory(name="Henni Street")
    steps.annual_bond(contractor_org, 2027, recorded_by=clerk, recorded_at=datetime(2026, 1, 5, tzinfo=steps.CHICAGO))

    # The contractor, as a new user would: home page, log in, Apply, the street opening form.
    page.goto(live_server.url + "/")
    axe_check(page, "home")
    steps.sign_in(page, live_server, "contractor")
    axe_check(page, "contractor start page")
    page.get_by_role("link", name="Apply", exact=True).click()
    axe_check(page, "apply chooser")
    page.get_by_role("link", name="Start a street opening or excavation permit application").click()
    assert page.get_by_role("heading", name="Apply for a street opening or excavation permit").is_visible()
    axe_check(page, "street opening form")

    steps.fill_application(page)
    page.get_by_role("button", name="Sign and submit the application").click()
    # The ticket was requested months before the April work: told it will be stale by then (Wis. Stat. § 182.0175).
    expect(page.get_by_role("heading", name="Before you submit: warnings")).to_be_visible()
    expect(page.get_by_text("may treat the ticket as expired")).to_be_visible()
    page.get_by_label("If this application gets warnings, I have read them and still want to submit").check()
    page.get_by_role("button", name="Sign and submit the application").click()

    permit = Permit.objects.get()
    assert page.get_by_role("heading", name=f"Street opening or excavation {permit.number}").is_visible()
    expect(page.get_by_text("Entered by applicant")).to_be_visible()
    axe_check(page, "permit page (submitted)")
    steps.upload_insurance_certificate(page)
    axe_check(page, "permit page (certificate uploaded)")
    steps.log_out(page)

    # The clerk finds the application in the Village office list and finds it complete.
    steps.sign_in(page, live_server, "clerk")
    axe_check(page, "clerk start page (back office)")
    page.goto(f"{live_server.url}/office/")
    axe_check(page, "village office")
    page.get_by_role("link", name=permit.number).click()
    axe_check(page, "permit page (clerk)")
    page.get_by_role("link", name="Village actions on this permit").click()
    axe_check(page, "village actions (submitted)")
    page.get_by_role("button", name="Application complete: start review").click()
    expect(page.get_by_text("Review started.")).to_be_visible()
    axe_check(page, "village actions (under review)")
    steps.log_out(page)

    # The DPW approves the location with conditions.
    steps.sign_in(page, live_server, "dpw")
    axe_check(page, "dpw start page")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    axe_check(page, "permit page (dpw)")
    page.get_by_role("link", name="Village actions on this permit").click()
    axe_check(page, "village actions (dpw, under review)")
    page.get_by_label("Conditions of approval (§ 303-1C(2), § 303-5C(4))").fill("Keep one lane open each way.")
    page.get_by_role("button", name="Approve the location").click()
    expect(page.get_by_text("Location approved")).to_be_visible()
    axe_check(page, "village actions (approved)")
    steps.log_out(page)

    # The clerk records the payment and issues the permit.
    steps.sign_in(page, live_server, "clerk")
    axe_check(page, "clerk start page again")
    page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/manage/")
    axe_check(page, "village actions (approved, unpaid)")
    page.get_by_label("Method").select_option("check")
    page.get_by_label("Reference").fill("5521")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text("Payment recorded.")).to_be_visible()
    axe_check(page, "village actions (paid)")
    page.get_by_role("button", name="Issue the permit").click()
    expect(page.get_by_text("Permit issued.")).to_be_visible()
    axe_check(page, "village actions (issued)")
    steps.log_out(page)
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED

    # The contractor sees it issued and downloads the permit.
    steps.sign_in(page, live_server, "contractor")
    axe_check(page, "contractor's applications")
    page.get_by_role("link", name=permit.number).click()
    expect(page.get_by_text("Keep one lane open each way.", exact=True)).to_be_visible()
    axe_check(page, "permit page (issued)")
    href = page.get_by_role("link", name="Download the permit (PDF)").get_attribute("href")
    response = page.context.request.get(live_server.url + href)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")


def test_contractor_pages_for_errors_warnings_emergencies_tickets_and_renewal(
    page, live_server, axe_check, contractor, contractor_org, clerk
):
    from datetime import date

    from permits.street_opening import services as so
    from tests.permits.street_opening.conftest import valid_data

    steps.verified(contractor)
    street = StreetFactory(name="Henni Street")
    steps.annual_bond(contractor_org, 2027, recorded_by=clerk, recorded_at=datetime(2026, 1, 5, tzinfo=steps.CHICAGO))
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(
            street,
            start_date=date(2027, 4, 12),
            end_date=date(2027, 4, 14),
            insurance_expires=date(2028, 1, 1),
            diggers_hotline_requested_at=datetime(2026, 11, 30, 9, 0, tzinfo=steps.CHICAGO),
        ),
    )

    steps.sign_in(page, live_server, "contractor")
    page.goto(f"{live_server.url}/street-openings/apply/")
    page.get_by_role("button", name="Sign and submit the application").click()  # everything missing
    expect(page.get_by_role("heading", name="The application cannot be submitted yet")).to_be_visible()
    axe_check(page, "apply form with errors")
    steps.fill_application(page, ticket="")  # no Diggers Hotline ticket yet: a warning, shown before submission
    page.get_by_label("Time the locate was requested").fill("")
    page.get_by_role("button", name="Sign and submit the application").click()
    expect(page.get_by_role("heading", name="Before you submit: warnings")).to_be_visible()
    expect(page.get_by_text("the ticket is needed before the permit is approved")).to_be_visible()
    axe_check(page, "apply form with warnings")
    page.get_by_label("If this application gets warnings, I have read them and still want to submit").check()
    page.get_by_role("button", name="Sign and submit the application").click()
    expect(page.get_by_text("No ticket yet")).to_be_visible()
    axe_check(page, "permit page without a ticket")

    page.get_by_role("link", name="Apply", exact=True).click()
    page.get_by_role("link", name="Start a street opening or excavation permit application").click()

    contractor_org.utility_facilities = ["sewer"]  # § 303-5H: the clerk recorded what the company owns
    contractor_org.save()
    page.get_by_role("link", name="notify the Village office at once").click()
    axe_check(page, "emergency report form")
    page.get_by_label(re.compile(r"^\s*Street\W*$")).select_option(label="Henni Street")
    page.get_by_label("Reporting for").select_option(label="Brandt Excavating LLC")
    page.get_by_label("Location on the street").fill("Henni at Mill")
    page.get_by_label("Date the emergency work began").fill("2026-11-30")
    page.get_by_role("button", name="Notify the Village office").click()
    expect(page.get_by_text("The Village office has been told.")).to_be_visible()
    axe_check(page, "apply form after an emergency report")

    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    page.get_by_role("link", name="Add a Diggers Hotline ticket").click()
    axe_check(page, "add ticket form")
    page.get_by_label("Diggers Hotline ticket number").fill("20277654321")
    page.get_by_label("Contractor (excavator) on the ticket").fill("Sub Boring Co")
    page.get_by_label("Time the locate was requested").fill("2026-11-30T10:00")
    page.get_by_role("button", name="Add the ticket").click()
    expect(page.get_by_role("cell", name="Sub Boring Co")).to_be_visible()
    axe_check(page, "permit page with two tickets")

    page.goto(f"{live_server.url}/permits/{permit.number}/street-opening/renewal/")
    axe_check(page, "renewal request form")
