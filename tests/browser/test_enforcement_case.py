"""An enforcement official on a phone opens an obstruction case, serves the notice, records the Village's removal
after the 24 hours and bills the owner (§ 303-6D, § 303-6F); the owner sees the bill on their property's pages, the
Clerk-Treasurer takes the payment on the charge's page, and owner and official both see it paid, the case closed. A
resident reports a blocked sidewalk through the public form; every page visited passes axe-core (WCAG 2.1 A/AA)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import steps
from tests.conftest import staff_user
from tests.factories import ParcelFactory, StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


def _local(dt) -> str:
    return timezone.localtime(dt).strftime("%Y-%m-%dT%H:%M")


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_obstruction_case_from_opening_to_the_bill_paid_each_step_by_its_person(
    page, browser, live_server, login, axe_check
):
    from allauth.account.models import EmailAddress

    from obstructions.models import Case
    from permits.ledger.models import SpecialCharge
    from permits.roles import Role

    inspector = staff_user("inspector", Role.DPW_INSPECTOR)
    EmailAddress.objects.create(user=inspector, email=inspector.email, verified=True, primary=True)
    steps.person("clerk", Role.CLERK)
    owner = steps.person("owner")
    parcel = ParcelFactory(
        site_address="305 Main Street", owner_name="Klein, Joan", street=StreetFactory(name="Main Street")
    )
    parcel.owners.add(owner)
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
    case = Case.objects.get()
    assert case.status == Case.Status.ABATED and case.is_closed
    charge = SpecialCharge.objects.get()
    assert charge.work_record == case and charge.status == "billed"
    case_url = page.url

    # The owner, signed in, finds the bill from their own links: billed, what for, the balance to pay.
    owner_page = browser.new_page()
    steps.sign_in(owner_page, live_server, "owner")
    owner_page.get_by_role("link", name="Charges on 305 Main Street").click()
    expect(owner_page.get_by_role("heading", name="Special charges on 305 Main Street")).to_be_visible()
    expect(owner_page.get_by_text("$185.00").first).to_be_visible()
    axe_check(owner_page, "owner's parcel charges: billed")
    owner_page.get_by_role("link", name=charge.number).click()
    expect(owner_page.get_by_role("heading", name=f"Special charge {charge.number}")).to_be_visible()
    expect(owner_page.get_by_text("Pallets hauled to the DPW yard", exact=False)).to_be_visible()
    expect(owner_page.get_by_role("button", name="Record payment")).to_have_count(0)  # the clerk's step, not theirs
    axe_check(owner_page, "owner's charge page: billed")
    charge_url = owner_page.url

    # The Clerk-Treasurer takes the payment at the counter: from the list of charges to the charge's page.
    clerk_page = browser.new_page()
    steps.sign_in(clerk_page, live_server, "clerk")
    clerk_page.goto(f"{live_server.url}/charges/")
    clerk_page.get_by_role("link", name=charge.number).click()
    axe_check(clerk_page, "clerk's charge page: billed")
    expect(clerk_page.get_by_label("Amount ($)")).to_have_value("185.00")  # the whole balance: no installments
    clerk_page.get_by_label("Method").select_option("check")
    clerk_page.get_by_label("Check number or card reference").fill("1042")
    clerk_page.get_by_role("button", name="Record payment").click()
    expect(clerk_page.get_by_text(re.compile(r"Payment recorded: receipt RC-\d{4}-\d{4}"))).to_be_visible()
    expect(clerk_page.get_by_role("button", name="Record payment")).to_have_count(0)
    axe_check(clerk_page, "clerk's charge page: paid")
    clerk_page.close()
    charge.refresh_from_db()
    assert charge.status == "paid" and charge.balance_due == 0

    # The owner sees it paid, with the receipt; the official's case page shows the case closed and its bill paid.
    owner_page.goto(charge_url)
    expect(owner_page.get_by_text("Paid", exact=True).first).to_be_visible()
    receipt = owner_page.get_by_role("link", name=re.compile(r"Receipt RC-\d{4}-\d{4} \(PDF\)"))
    expect(receipt).to_be_visible()
    axe_check(owner_page, "owner's charge page: paid")
    pdf = owner_page.request.get(f"{live_server.url}{receipt.get_attribute('href')}")
    assert pdf.ok and pdf.body()[:5] == b"%PDF-"
    owner_page.close()
    page.goto(case_url)
    expect(page.get_by_text("$185.00, paid")).to_be_visible()
    expect(page.get_by_text("Removed by the Village").first).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "closed case page with its bill paid")


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


def test_building_inspector_authorizes_materials_and_a_case_is_excepted_by_it(page, live_server, login, axe_check):
    """§ 303-6B(2): the Building Inspector authorizes building materials for a period within the street register's
    limits (half a sidewalk too much is refused first); a case seen inside the period names it and is excepted."""
    from allauth.account.models import EmailAddress

    from obstructions.models import Case, MaterialsAuthorization
    from permits.roles import Role

    building = staff_user("building", Role.BUILDING_INSPECTOR)
    EmailAddress.objects.create(user=building, email=building.email, verified=True, primary=True)
    ParcelFactory(site_address="305 Main Street", owner_name="Klein, Joan", street=StreetFactory(name="Main Street"))
    today = timezone.localdate()

    page.set_viewport_size(PHONE)
    login(page, "building")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/obstructions/cases/")
    page.get_by_role("link", name="Building materials authorized (§ 303-6B(2))").click()
    expect(page.get_by_role("heading", name="Building materials authorized (§ 303-6B(2))")).to_be_visible()
    axe_check(page, "materials authorizations")
    page.get_by_label("Address of the building").fill("305 Main Street")
    page.get_by_label("Where the materials may be kept").fill("Curb lane in front of the house")
    page.get_by_label("First day authorized").fill(f"{today:%Y-%m-%d}")
    page.get_by_label("Last day authorized").fill(f"{today + timedelta(days=6):%Y-%m-%d}")
    page.get_by_label("Traveled street occupied (feet)").fill("10")
    page.get_by_label("Sidewalk occupied (feet)").fill("2.6")  # Main Street's sidewalk is 5.0 ft on the register
    page.get_by_role("button", name="Record the authorization").click()
    expect(page.get_by_text("more than 1/2 of it", exact=False).first).to_be_visible()
    axe_check(page, "materials authorization refused")
    page.get_by_label("Sidewalk occupied (feet)").fill("2.5")
    page.get_by_role("button", name="Record the authorization").click()
    number = MaterialsAuthorization.objects.get().number
    expect(page.get_by_text(f"Authorization {number} recorded (§ 303-6B(2)).")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "materials authorizations after recording")

    page.goto(f"{live_server.url}/obstructions/cases/new/")
    page.get_by_label("What kind of case").select_option("obstruction_sidewalk")
    page.get_by_label("Address of the premises").fill("305 Main Street")
    page.get_by_label("What you saw").fill("Lumber on the sidewalk")
    page.get_by_label("When you saw it").fill(_local(timezone.now() - timedelta(minutes=5)))
    page.get_by_label("Permit number that may except it (optional)").fill(number)
    page.get_by_role("button", name="Open the case").click()
    expect(page.get_by_text("recorded and closed: no violation", exact=False)).to_be_visible()
    axe_check(page, "case excepted by the authorization")
    assert Case.objects.get().status == Case.Status.EXCEPTED
