"""The street use journey (§ 303-15), as new users would walk it: a resident applies for a block party; the clerk
records each address's declared adults (two at each of two addresses) and the households' emails; two neighbours
consent online with the code emailed to their household, and the clerk uploads a paper page with its circulator's
sworn verification, enters its consent and accepts it, so the count passes 75% (3 of 4); the clerk verifies it, puts
it on a Board agenda, records the applicant present and the Board's recorded vote, records the fee paid at the
office on the street use page, and issues it; the resident downloads the permit PDF; a police officer (not the
Chief) terminates the running event from a phone (§ 303-15H). axe-core: zero WCAG 2.1 A/AA violations on every
page."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.board import services as board
from permits.board.models import Vote
from permits.models import Notice, Permit, Status
from permits.roles import Role
from permits.streetmap.models import StreetSegment
from tests.board_world import seat_members
from tests.browser import steps
from tests.factories import FeeItemFactory, ParcelFactory, StreetFactory
from tests.upload_samples import PNG

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def named(username, role=None):
    return steps.person(username, role, first_name=username.title(), last_name="Test")


@pytest.fixture
def world(db):
    FeeItemFactory(code="street_use", name="Street use permit", amount=Decimal("25.00"), citation="§ 303-15E")
    street = StreetFactory(name="Henni Street")
    StreetSegment.objects.create(
        street=street,
        from_street="Rock River Road",
        to_street="Mill Street",
        address_from=100,
        address_to=198,
        geometry={"type": "LineString", "coordinates": [[-88.461, 43.517], [-88.455, 43.517]]},
    )
    clerk = named("clerk", Role.CLERK)
    for i in range(2):
        ParcelFactory(site_address=f"{102 + 4 * i} Henni Street", street=street)
    return {"clerk": clerk, "resident": named("resident"), "officer": named("officer", Role.POLICE_OFFICER)}


def clerk_form(page, heading):
    """The clerk's page holds several forms with an "Address" field: the one under `heading`."""
    return page.locator("form").filter(has=page.get_by_role("heading", name=heading))


def test_block_party_from_application_to_termination(page, live_server, axe_check, world):
    now = timezone.localtime()
    starts, ends = now - timedelta(hours=1), now + timedelta(hours=5)

    # The resident applies.
    steps.sign_in(page, live_server, "resident")
    page.goto(f"{live_server.url}/street-use/apply/")
    axe_check(page, "street use application")
    page.get_by_label("Your name (§ 303-15B(1))").fill("Rita Anderson")
    page.get_by_label("Your address").fill("102 Henni Street")
    page.get_by_label("Your telephone number").fill("920-555-0110")
    page.get_by_label("Person responsible for conducting the use (§ 303-15B(3))").fill("Rita Anderson")
    page.get_by_label("Their address").fill("102 Henni Street")
    page.get_by_label("Their telephone number").fill("920-555-0110")
    page.get_by_label("Begins (date and time, § 303-15B(4))").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Ends (date and time)").fill((starts + timedelta(days=4)).strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label(re.compile(r"^\s*Street\W*$")).select_option(label="Henni Street")
    page.get_by_label("Portion of the street (§ 303-15B(5))").fill("Rock River Road to Mill Street")
    page.get_by_label("Henni Street: Rock River Road to Mill Street").check()
    page.get_by_label("Approximate number of persons (§ 303-15B(6))").fill("40")
    page.get_by_label("The proposed use, in detail (§ 303-15B(7))").fill("Block party with grills and music")
    page.get_by_role("button", name="Submit the application").click()
    expect(page.get_by_text("§ 303-15D(5)").first).to_be_visible()  # five calendar days: refused, said why
    axe_check(page, "application refused")
    page.get_by_label("Ends (date and time)").fill(ends.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Submit the application").click()
    permit = Permit.objects.get()
    expect(page.get_by_text("Not yet declared: 2 addresses")).to_be_visible()
    # What blocks approval names the petition (§ 303-15F), and the applicant's way to clear it: share its page.
    checklist = page.get_by_role("region", name="What still blocks approval")
    expect(checklist.get_by_text("No residents over 18 are declared at")).to_be_visible()
    expect(checklist.get_by_role("link", name="Share the petition page")).to_have_count(1)
    axe_check(page, "permit page, petition not declared")
    petition_url = page.get_by_role("link", name=f"petition for {permit.number}").get_attribute("href")
    steps.log_out(page)

    # The clerk records what each address declared and the households' emails (from the paper form).
    steps.sign_in(page, live_server, "clerk")
    manage = f"{live_server.url}/permits/{permit.number}/street-use/manage/"
    page.goto(manage)
    expect(page.get_by_text("Not declared: holds the count back").first).to_be_visible()
    axe_check(page, "clerk's page, addresses not declared")
    for address in ("102 Henni Street", "106 Henni Street"):
        form = clerk_form(page, "Record an address's declared residents over 18")
        form.get_by_label(re.compile(r"^\s*Address\W*$")).select_option(label=address)
        form.get_by_label("Residents over 18 declared").fill("2")
        form.get_by_label("Declared on").fill("the paper form")
        form.get_by_role("button", name="Record the declaration").click()
    for email in ("n0@example.com", "n1@example.com"):
        form = clerk_form(page, "Bind a household's email (for online consent)")
        form.get_by_label(re.compile(r"^\s*Address\W*$")).select_option(label="102 Henni Street")
        form.get_by_label("The household's email").fill(email)
        form.get_by_role("button", name="Record the email").click()
    expect(page.get_by_text("0 of 4", exact=False).first).to_be_visible()
    steps.log_out(page)

    # Two neighbours at 102 consent online, each with the code emailed to the household's address.
    for i, name in enumerate(("Alex Neighbour0", "Jo Neighbour0")):
        page.goto(f"{live_server.url}{petition_url}")
        if i == 0:
            axe_check(page, "public petition page")
        page.get_by_label(re.compile(r"^\s*Your address\W*$")).select_option(label="102 Henni Street")
        page.get_by_label("Your full name").fill(name)
        page.get_by_label("Residents 18 or over living at your address, you included").fill("2")
        page.get_by_label("Your household's email address").fill(f"n{i}@example.com")
        page.get_by_role("button", name="Email me a code").click()
        code = re.search(r"Your code: (\d{6})", Notice.objects.get(to=f"n{i}@example.com").body).group(1)
        if i == 0:
            axe_check(page, "consent code page")
        page.get_by_label("The 6-digit code we emailed").fill(code)
        page.get_by_role("button", name="I consent").click()
        expect(page.get_by_text(f"{i + 1} of 3")).to_be_visible()

    # The clerk uploads a paper page with its circulator's sworn verification, enters its consent, accepts it.
    steps.sign_in(page, live_server, "clerk")
    page.goto(manage)
    form = clerk_form(page, "Upload a paper page with its circulator's sworn verification")
    form.get_by_label("The scanned page (PDF, JPEG or PNG)").set_input_files(
        files=[{"name": "page.png", "mimeType": "image/png", "buffer": PNG}]
    )
    form.get_by_label(re.compile(r"^\s*Circulator\W*$")).fill("Rita Anderson")
    form.get_by_label("Date of the circulator's sworn verification").fill(timezone.localdate().isoformat())
    form.get_by_label(re.compile("bears the circulator's sworn verification")).check()
    form.get_by_role("button", name="Upload the page").click()
    form = clerk_form(page, "Enter a consent from an uploaded page")
    form.get_by_label(re.compile(r"^\s*Page\W*$")).select_option(index=1)
    form.get_by_label(re.compile(r"^\s*Address\W*$")).select_option(label="106 Henni Street")
    form.get_by_label("Name as signed").fill("Alex Neighbour1")
    form.get_by_role("button", name="Enter the consent").click()
    expect(page.get_by_text("page not accepted yet")).to_be_visible()
    axe_check(page, "clerk's page, a page to accept")
    form = clerk_form(page, "Accept a page (its consents then count)")
    form.get_by_label(re.compile(r"^\s*Page\W*$")).select_option(index=1)
    form.get_by_role("button", name="Accept the page").click()
    expect(page.get_by_text("Page accepted: its consents count (§ 303-15F).")).to_be_visible()
    steps.log_out(page)

    # The resident sees the count pass 75% (3 of 4).
    steps.sign_in(page, live_server, "resident")
    page.goto(f"{live_server.url}/permits/{permit.number}/")
    assert page.get_by_text("3 of 4").is_visible() and page.get_by_text("Enough verified consents").is_visible()
    checklist = page.get_by_role("region", name="What still blocks approval")
    expect(checklist.get_by_text("The Clerk-Treasurer has not verified the neighbours' petition yet")).to_be_visible()
    expect(checklist.get_by_text("No residents over 18 are declared at")).to_have_count(0)
    steps.log_out(page)

    # The clerk verifies, puts it on the agenda, records the applicant present and the Board's vote, and issues.
    clerk = world["clerk"]
    terms = seat_members()
    meeting = board.schedule_meeting(held_on=timezone.localdate(), title="Regular", by=clerk)
    board.record_attendance(meeting=meeting, present=terms[:5], by=clerk)
    steps.sign_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/permits/{permit.number}/street-use/manage/")
    axe_check(page, "clerk's street use page")
    page.get_by_role("button", name="Verify the petition and send it to the Board").click()
    page.get_by_label("Board meeting").select_option(index=1)
    page.get_by_role("button", name="Add to the agenda").click()
    page.get_by_label("Agenda item").select_option(index=1)
    page.get_by_role("button", name="Record present").click()
    item = meeting.items.get()
    board.record_motion(
        item=item, text="To grant, fire lane kept open", votes={t: Vote.Choice.AYE for t in terms[:5]}, by=clerk
    )
    page.reload()
    axe_check(page, "clerk's page before the decision")
    page.get_by_label("The Board's motion").select_option(index=1)
    page.get_by_label("Conditions").fill("A 12-foot fire lane kept open")
    page.get_by_role("button", name="Record the decision").click()
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED
    # The resident pays at the Village office; the clerk records it on the street use page (§ 303-15E).
    page.reload()
    expect(page.get_by_text(f"Balance due: ${permit.fee_amount}.")).to_be_visible()
    form = clerk_form(page, "Record the fee payment (§ 303-15E)")
    axe_check(page, "clerk's page, the fee to record")
    form.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text("Payment recorded (§ 303-15E).")).to_be_visible()
    expect(page.get_by_text("Balance due: $0.00.")).to_be_visible()
    page.get_by_role("button", name="Issue the permit").click()
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED
    steps.log_out(page)

    # The resident downloads the permit PDF.
    steps.sign_in(page, live_server, "resident")
    page.goto(f"{live_server.url}/permits/{permit.number}/")
    axe_check(page, "issued permit page")
    pdf = page.request.get(f"{live_server.url}/permits/{permit.number}/street-use.pdf")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    steps.log_out(page)

    # A police officer (not the Chief) terminates the running event from a phone (§ 303-15H).
    page.set_viewport_size({"width": 390, "height": 844})
    steps.sign_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/street-use/in-progress/")
    axe_check(page, "street use events, phone")
    page.get_by_role("link", name=permit.number).click()
    page.get_by_role("link", name="Revoke the permit or terminate the event (§ 303-15H)").click()
    axe_check(page, "terminate, phone")
    page.get_by_label("Why (§ 303-15H)").fill("Crowd blocking the fire lane")
    page.get_by_role("button", name="Terminate the event now").click()
    expect(page.get_by_text("Terminated (§ 303-15H)", exact=True)).to_be_visible()
    axe_check(page, "terminated permit, phone")
    permit.refresh_from_db()
    assert permit.status == Status.REVOKED and permit.street_use.terminated_by == world["officer"]
