"""Street privilege permits in the browser, with axe-core on every page visited: the builder applies (and sees every
broken rule at once), the Building Inspector requests the recommendations, grants and issues, the Chief of Police
recommends, adds the escort's cost and revokes."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from permits import services
from permits.models import Permit, Status
from permits.street_privilege import services as sp
from tests.browser import steps
from tests.factories import StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def village(db):
    """The street of the journey, 36 ft wide on the street register (the fee is the schedule's seeded $50.00, put back
    by serialized_rollback)."""
    return StreetFactory(name="Main Street", width_feet=Decimal("36.0"), traveled_width_feet=Decimal("30.0"))


def materials(street, location="In front of 204 Main Street"):
    return {
        "purpose": "materials",
        "street": street,
        "location_description": location,
        "start_date": date(2027, 3, 15),
        "end_date": date(2027, 4, 15),
        "building_permit_number": "B-2027-014",
        "occupied_street_feet": Decimal("12.0"),
        "lighted_at_night": True,
    }


def test_builder_applies_and_sees_every_broken_rule_at_once(page, live_server, axe_check, contractor, village):
    steps.verified(contractor)
    page.goto(live_server.url + "/")
    steps.sign_in(page, live_server, "contractor")
    page.get_by_role("link", name="Apply", exact=True).click()
    axe_check(page, "apply chooser")
    page.get_by_role("link", name="Start a street privilege permit application").click()
    expect(page.get_by_role("heading", name="Apply for a street privilege permit")).to_be_visible()
    axe_check(page, "street privilege form")

    page.get_by_label("Materials for construction or demolition").check()
    page.get_by_label(re.compile(r"^\s*Street\W*$")).select_option(label="Main Street")
    page.get_by_label("Location on the street").fill("In front of 204 Main Street")
    page.get_by_label("First day in the street").fill("2027-03-15")
    page.get_by_label("Last day in the street").fill("2027-04-15")
    page.get_by_label("Width of the street occupied (feet)").fill("12.1")
    page.get_by_label("The sidewalk will be occupied").check()
    page.get_by_label("Width of the temporary walk (feet)").fill("3.5")
    page.get_by_role("button", name="Submit the application").click()

    errors = page.locator("#form-errors")
    expect(errors).to_be_visible()
    text = errors.inner_text()
    for cite in ("§ 303-7D(1)", "§ 303-7D(2)", "§ 303-7D(3)"):
        assert cite in text
    assert "§ 303-6B(2)" not in text  # the half-sidewalk limit is not a § 303-7 permit's
    axe_check(page, "street privilege form with errors")
    assert not Permit.objects.exists()

    page.get_by_label("Width of the street occupied (feet)").fill("12")
    page.get_by_label("The obstruction will be lighted at night, visible from all directions (§ 303-7D(2))").check()
    page.get_by_label("Width of the temporary walk (feet)").fill("4")
    page.get_by_label("Height of the closed fence (feet)").fill("4")
    page.get_by_label("The temporary walk is fenced on both sides").check()
    page.get_by_role("button", name="Submit the application").click()

    permit = Permit.objects.get()
    assert permit.status == Status.SUBMITTED
    expect(page.get_by_text(f"Application {permit.number} submitted")).to_be_visible()
    expect(page.get_by_role("heading", name="Street privilege (§ 303-7)")).to_be_visible()
    axe_check(page, "permit page (submitted)")
    page.get_by_role("button", name="Ask the Village Board to waive the bond").click()
    expect(page.get_by_text("Your request is on the Village Board's list")).to_be_visible()
    axe_check(page, "permit page (waiver asked)")


def _as(page, live_server, username):
    steps.log_out(page)
    steps.sign_in(page, live_server, username)


def _from_the_office_queue(page, live_server, permit):
    """Each official finds the permit from the office page's queue, never by typing its address."""
    page.goto(f"{live_server.url}/office/")
    page.get_by_role("link", name="Street privilege permits (§ 303-7)").click()
    page.get_by_role("link", name=permit.number).click()


def _applicant_sees(page, live_server, permit, status, balance, step):
    """The applicant's page at each step: the status, the money, and what still blocks the next step."""
    _as(page, live_server, "contractor")
    page.goto(f"{live_server.url}/permits/")
    page.get_by_role("link", name=permit.number).first.click()
    expect(page.locator(".badge", has_text=status).first).to_be_visible()
    expect(page.locator("strong", has_text=f"balance due ${balance}").first).to_be_visible()
    if step:
        expect(page.get_by_role("heading", name=step)).to_be_visible()


def test_materials_in_the_street_from_application_to_closed_each_step_by_its_official(
    page,
    live_server,
    axe_check,
    contractor,
    building_inspector,
    dpw_director,
    police_chief,
    clerk,
    village,
):
    """§ 303-7: the builder applies; the Building Inspector asks for the recommendations; the DPW Director and the
    Chief of Police recommend and the DPW sets the bond; the Building Inspector grants and records the building
    permit shown; the Clerk-Treasurer records the bond filed and the fee paid; the Building Inspector issues; the
    builder reports the work done; the Building Inspector's closing inspection closes it. Pages only, each step by
    the official whose step it is, the applicant's page read between the steps."""
    steps.verified(contractor, building_inspector, dpw_director, police_chief, clerk)
    steps.sign_in(page, live_server, "contractor")
    page.goto(f"{live_server.url}/apply/")
    page.get_by_role("link", name="Start a street privilege permit application").click()
    page.get_by_label("Materials for construction or demolition").check()
    page.get_by_label(re.compile(r"^\s*Street\W*$")).select_option(label="Main Street")
    page.get_by_label("Location on the street").fill("In front of 204 Main Street")
    page.get_by_label("First day in the street").fill("2027-03-15")
    page.get_by_label("Last day in the street").fill("2027-04-15")
    page.get_by_label("Width of the street occupied (feet)").fill("12")
    page.get_by_label("The obstruction will be lighted at night, visible from all directions (§ 303-7D(2))").check()
    page.get_by_role("button", name="Submit the application").click()
    permit = Permit.objects.get()
    expect(page.get_by_text(f"Application {permit.number} submitted")).to_be_visible()
    fee = permit.fee_amount
    # Not the applicant's to clear: the page says whose it is (the type's cleared_by).
    expect(page.get_by_text("(The Director of Public Works records this)").first).to_be_visible()
    _applicant_sees(page, live_server, permit, "Submitted", fee, "What still blocks approval")

    _as(page, live_server, "building")
    _from_the_office_queue(page, live_server, permit)
    page.get_by_role("button", name="Request the recommendations of the DPW Director and the Chief of Police").click()
    expect(page.get_by_text("Recommendations requested.")).to_be_visible()

    _as(page, live_server, "dpw")
    _from_the_office_queue(page, live_server, permit)
    axe_check(page, "village actions, the DPW Director")
    page.get_by_label("Recommended", exact=True).check()
    page.get_by_label("Conditions (printed on the permit)").fill("Barricades at both ends")
    page.get_by_role("button", name="Record my recommendation").click()
    page.get_by_label("Bond amount ($)").fill("5000")
    page.get_by_role("button", name="Set the bond").click()

    _as(page, live_server, "police")
    _from_the_office_queue(page, live_server, permit)
    page.get_by_label("Recommended", exact=True).check()
    page.get_by_role("button", name="Record my recommendation").click()
    _applicant_sees(page, live_server, permit, "Under review", fee, "Nothing blocks approval")

    _as(page, live_server, "building")
    _from_the_office_queue(page, live_server, permit)
    page.get_by_label("Building Inspector's conditions").fill("Work 7 a.m. to 7 p.m.")
    page.get_by_role("button", name="Grant the permit").click()
    expect(page.get_by_text("Permit granted.")).to_be_visible()
    page.get_by_label("Required", exact=True).check()
    page.get_by_label("Number of the building permit shown to you").fill("B-2027-014")
    page.get_by_role("button", name="Record the determination").click()
    expect(page.get_by_text("Building permit determination recorded (§ 303-7A).")).to_be_visible()
    _applicant_sees(page, live_server, permit, "Approved", fee, "What still blocks the permit's issue")

    _as(page, live_server, "clerk")
    _from_the_office_queue(page, live_server, permit)
    axe_check(page, "village actions, the Clerk-Treasurer")
    page.get_by_label("Surety on the bond").fill("Badger State Surety Co.")
    page.get_by_role("button", name="Record the bond filed").click()
    page.get_by_label("Method").select_option("cash")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text("Payment recorded.")).to_be_visible()
    _applicant_sees(page, live_server, permit, "Approved", "0.00", "Nothing blocks the permit's issue")

    _as(page, live_server, "building")
    _from_the_office_queue(page, live_server, permit)
    page.get_by_role("button", name="Issue the permit").click()
    expect(page.get_by_text("Permit issued.")).to_be_visible()

    _applicant_sees(page, live_server, permit, "Issued", "0.00", "")
    axe_check(page, "permit page (issued)")
    page.get_by_role("button", name="Report the work done and the space cleared").click()
    expect(page.get_by_text("Reported done.")).to_be_visible()

    _as(page, live_server, "building")
    _from_the_office_queue(page, live_server, permit)
    page.get_by_label("Passed: vacated, cleaned, safe").check()
    page.get_by_role("button", name="Record the closing inspection").click()
    expect(page.get_by_text("Closing inspection recorded (§ 303-7D(7)).")).to_be_visible()
    axe_check(page, "village actions (closed)")

    _applicant_sees(page, live_server, permit, "Closed", "0.00", "")
    permit.refresh_from_db()
    assert permit.status == Status.CLOSED and permit.balance_due == 0


def test_chief_of_police_recommends_adds_the_escort_and_revokes(
    page, live_server, axe_check, contractor, contractor_org, building_inspector, police_chief, village
):
    steps.verified(police_chief)
    permit = sp.apply_for_street_privilege(
        applicant=contractor, organization=contractor_org, data=materials(village), today=date(2027, 3, 1)
    )
    sp.begin_review(permit=permit, by=building_inspector)
    steps.sign_in(page, live_server, "police")
    page.goto(f"{live_server.url}/street-privileges/")
    axe_check(page, "street privilege queue (chief)")
    page.get_by_role("link", name=permit.number).click()
    axe_check(page, "village actions (chief)")
    page.get_by_label("Not recommended").check()
    page.get_by_label("Conditions (printed on the permit)").fill("Police escort while materials are unloaded")
    page.get_by_label("Require proof of liability insurance").check()
    page.get_by_role("button", name="Record my recommendation").click()
    expect(page.get_by_text("Advisory recommendation recorded (§ 303-7A).")).to_be_visible()
    page.get_by_label("Actual Village cost (e.g. police escort)").fill("Police escort, 2 hours")
    page.get_by_label("Cost amount ($)").fill("80.00")
    page.get_by_role("button", name="Add the cost").click()
    expect(page.get_by_text("Cost added (§ 303-7C).")).to_be_visible()
    axe_check(page, "village actions (recommended, cost added)")
    permit.refresh_from_db()
    assert permit.fee_amount == Decimal("130.00")  # the $50.00 fee and the $80.00 cost

    other = sp.apply_for_street_privilege(
        applicant=contractor,
        organization=contractor_org,
        data=materials(village, "At 220 Main Street"),
        today=date(2027, 3, 1),
    )
    _issue(other, building_inspector, police_chief)
    page.goto(f"{live_server.url}/permits/{other.number}/street-privilege/manage/")
    page.get_by_label("Reason (the condition violated)").fill("Materials not lighted at night")
    page.get_by_role("button", name="Revoke the permit without notice").click()
    expect(page.get_by_text("Permit revoked.")).to_be_visible()
    axe_check(page, "village actions (revoked)")
    assert Permit.objects.get(pk=other.pk).status == Status.REVOKED


def _issue(permit, building_inspector, police_chief):
    from django.contrib.auth import get_user_model

    from permits.roles import Role
    from tests.conftest import staff_user

    User = get_user_model()
    dpw = User.objects.filter(username="dpw").first() or staff_user("dpw", Role.DPW_DIRECTOR)
    clerk = User.objects.filter(username="clerk").first() or staff_user("clerk", Role.CLERK)
    sp.begin_review(permit=permit, by=building_inspector)
    sp.record_recommendation(permit=permit, by=dpw, recommended=True)
    sp.record_recommendation(permit=permit, by=police_chief, recommended=True)
    sp.record_building_permit_determination(permit=permit, by=building_inspector, required=False)
    sp.grant_street_privilege(permit=permit, by=building_inspector)
    sp.set_bond(permit=permit, by=dpw, amount=Decimal("1000"))
    sp.file_bond(permit=permit, by=clerk, surety="Badger State Surety Co.")
    permit.refresh_from_db()
    services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)
    sp.issue_street_privilege(permit=permit, by=building_inspector)
