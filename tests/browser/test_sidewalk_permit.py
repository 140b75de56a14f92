"""Sidewalk journeys in a real browser, with axe-core (WCAG 2.1 A/AA) on every page visited:
a contractor applies for a sidewalk permit as the owner's agent, the clerk sees the owner of record, accepts the owner's
written authorization (§ 303-3C), records the fee and issues it, an inspector on a phone passes
the four inspections and completes it; and a survey of a street becomes an adopted, served order that the Village
carries out and charges to the parcel as a special assessment, levied after the engineer's report, the notice and
the Board's hearing (§ 303-3B(2), Wis. Stat. § 66.0703); DPW proposes curb and gutter work (§ 303-3A) and records a
minor repair under the Board's authority (§ 303-3B(3), Wis. Stat. § 66.0907)."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import FeeItem, Membership, Permit, Status
from permits.roles import Role
from sidewalks.models import SidewalkOrder
from tests.browser import steps
from tests.factories import OrganizationFactory, ParcelFactory, StreetFactory
from tests.upload_samples import PDF

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


def _fee():
    FeeItem.objects.get_or_create(
        code="sidewalk",
        effective_from=timezone.localdate() - timedelta(days=365),
        defaults={"name": "Sidewalk permit", "amount": Decimal("25.00"), "citation": "§ 303-3C", "basis": "test"},
    )
    for code, amount in (("sidewalk_replace_sqft", "12.00"), ("sidewalk_repair_block", "150.00")):
        FeeItem.objects.get_or_create(
            code=code,
            effective_from=timezone.localdate() - timedelta(days=365),
            defaults={"name": code, "amount": Decimal(amount), "citation": "§ 303-3B(1)", "basis": "test"},
        )


def _log_in(page, live_server, axe_check, username, next_path, password="correct-horse-battery"):
    """Log in through the real login page, straight to `next_path`; both pages are checked by axe-core."""
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    axe_check(page, f"login page ({username})")
    page.get_by_label(re.compile("Login|Username or email")).fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_load_state()
    assert page.url.endswith(next_path)
    axe_check(page, f"{next_path} after login ({username})")


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_contractor_applies_clerk_issues_inspector_passes_on_a_phone(page, browser, live_server, axe_check):
    _fee()
    contractor = steps.person("contractor")
    Membership.objects.create(
        user=contractor, organization=OrganizationFactory(name="Brandt Concrete LLC"), is_manager=True
    )
    steps.person("clerk", Role.CLERK)
    steps.person("inspector", Role.DPW_INSPECTOR)
    parcel = ParcelFactory(
        tax_key="266-1116-0042", site_address="42 Henni Street", street=StreetFactory(name="Henni Street")
    )
    pour = timezone.localdate() + timedelta(days=5)

    # The contractor applies; a bituminous walk is refused with its section, then the concrete one goes through.
    _log_in(page, live_server, axe_check, "contractor", "/apply/")
    page.get_by_role("link", name=re.compile("Start a sidewalk permit application")).click()
    expect(page.get_by_role("heading", name="Apply for a sidewalk permit")).to_be_visible()
    axe_check(page, "sidewalk application form")
    page.get_by_label("Parcel tax key number").fill(parcel.tax_key)
    page.get_by_label("Applying for").select_option(label="Brandt Concrete LLC")
    # § 303-3C: the contractor files as the owner's agent, with the owner's written authorization.
    page.get_by_label(re.compile("owner's agent")).check()
    page.get_by_label(re.compile(r"owner's written authorization \(PDF")).set_input_files(
        {"name": "owner-authorization.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )
    page.get_by_label("Lay a new walk").check()
    page.get_by_label("Length of frontage (feet)").fill("66")
    page.get_by_label("Width of the walk (feet)").fill("4")
    page.get_by_label("Thickness (inches)").fill("4")
    page.get_by_label("Length across driveway approaches (feet)").fill("12")
    page.get_by_label("Thickness across driveway approaches (inches)").fill("6")
    page.get_by_label("Material").select_option("bituminous")
    page.get_by_label("Concrete strength at 28 days (psi)").fill("4000")
    page.get_by_label("94-pound sacks of cement per cubic yard").fill("6")
    page.get_by_label("Planned pour date").fill(pour.isoformat())
    page.get_by_role("button", name="Submit the application").click()
    # In the error summary at the top and beside the field.
    assert page.get_by_text(
        "Bituminous (asphalt) sidewalks are prohibited: build the walk of concrete (§ 303-3D(4))."
    ).first.is_visible()
    axe_check(page, "sidewalk application with errors")
    page.get_by_label("Material").select_option("concrete")
    page.get_by_label(re.compile(r"owner's written authorization \(PDF")).set_input_files(
        {"name": "owner-authorization.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )  # a refused form does not keep its file
    page.get_by_role("button", name="Submit the application").click()
    permit = Permit.objects.get()
    expect(page.get_by_role("heading", name=re.compile(permit.number))).to_be_visible()
    expect(page.get_by_role("heading", name="Sidewalk", exact=True)).to_be_visible()
    axe_check(page, "sidewalk permit page (applicant)")

    # The clerk sees the owner of record and accepts the owner's written authorization (§ 303-3C), records the fee
    # and issues the permit.
    clerk_page = browser.new_page()
    _log_in(clerk_page, live_server, axe_check, "clerk", f"/sidewalks/permits/{permit.number}/")
    expect(clerk_page.get_by_text(f"Owner of record: {parcel.owner_name}")).to_be_visible()
    expect(clerk_page.locator("#standing-problems")).to_contain_text("written authorization")
    clerk_page.get_by_label("owner-authorization.pdf", exact=False).first.check()
    clerk_page.get_by_role("button", name="Accept the authorization").click()
    expect(clerk_page.get_by_text("the filer's standing is accepted")).to_be_visible()
    axe_check(clerk_page, "standing accepted (clerk)")
    clerk_page.get_by_role("button", name="Record payment").click()
    expect(clerk_page.get_by_text("Payment recorded")).to_be_visible()
    axe_check(clerk_page, "fee recorded (clerk)")
    clerk_page.get_by_role("button", name="Issue the permit").click()
    expect(clerk_page.get_by_text(f"{permit.number} is issued.")).to_be_visible()
    axe_check(clerk_page, "sidewalk permit issued (clerk)")
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED
    # § 303-3C: the page says when work may start (three days after the permit is obtained).
    expect(clerk_page.get_by_text(re.compile("Work may start"))).to_be_visible()
    clerk_page.close()
    # Three days pass: the permit was obtained three days before the work the inspector now sees (§ 303-3C). Dates
    # move through the database, never the browser's clock.
    Permit.objects.filter(pk=permit.pk).update(issued_on=timezone.localdate() - timedelta(days=3))

    # The inspector, on a phone, passes subgrade, forms, pour and curing, then completes the permit.
    phone = browser.new_page(viewport=PHONE)
    phone.on("dialog", lambda dialog: dialog.accept())  # "Mark the work completed?" (static/js/confirm.js)
    _log_in(phone, live_server, axe_check, "inspector", "/sidewalks/inspections/")
    assert _fits_the_phone(phone)
    phone.get_by_role("link", name=f"Inspect {permit.number}").click()
    expect(phone.get_by_role("heading", name=f"Inspect {permit.number}")).to_be_visible()
    assert _fits_the_phone(phone)
    axe_check(phone, "inspection stages on a phone")

    phone.get_by_role("link", name=re.compile("^Grading and subgrade")).click()
    phone.get_by_label("Ground above or below subgrade (inches)").fill("2")
    phone.get_by_label("Depth of subgrade fill (inches)").fill("2")  # too thin: fails § 303-3D(3)
    phone.get_by_label("Subgrade material").select_option("gravel")
    axe_check(phone, "subgrade inspection form")
    phone.get_by_role("button", name="Record the subgrade inspection").click()
    expect(phone.get_by_text("§ 303-3D(3)").first).to_be_visible()
    expect(phone.get_by_text("stays open")).to_be_visible()
    axe_check(phone, "failed subgrade inspection")
    phone.get_by_role("link", name=re.compile("^Grading and subgrade")).click()
    phone.get_by_label("Ground above or below subgrade (inches)").fill("2")
    phone.get_by_label("Depth of subgrade fill (inches)").fill("3")
    phone.get_by_label("Subgrade material").select_option("gravel")
    phone.get_by_role("button", name="Record the subgrade inspection").click()
    expect(phone.get_by_text("passed.")).to_be_visible()
    axe_check(phone, "passed subgrade inspection")

    phone.get_by_role("link", name=re.compile(r"^Forms \(")).click()
    axe_check(phone, "forms inspection form")
    phone.get_by_label("Form material").select_option("wood")
    phone.get_by_label("Wood plank thickness (inches)").fill("1.5")
    phone.get_by_label("Depth of the forms (inches)").fill("4")
    phone.get_by_label(re.compile("Strip of street property")).fill("6")  # § 303-3D(7)
    phone.get_by_role("button", name="Record the forms inspection").click()
    expect(phone.get_by_text("Forms: passed.")).to_be_visible()
    axe_check(phone, "passed forms inspection")

    phone.get_by_role("link", name=re.compile("^Pour")).click()
    phone.get_by_label("Concrete strength at 28 days, per ticket (psi)").fill("4000")
    phone.get_by_label("94-pound sacks per cubic yard, per ticket").fill("6")
    phone.get_by_label("Lowest forecast temperature in the next 72 hours (°F)").fill("40")
    phone.get_by_label("Air temperature now (°F)").fill("45")
    phone.get_by_label("Greatest spacing of expansion joints (feet)").fill("40")
    phone.get_by_label("Expansion joints at the property lines").check()
    phone.get_by_label("Spacing of groove joints (feet)").fill("5")
    phone.get_by_label("Tooled or formed in the fresh concrete").check()  # § 303-3D(6): not sawn
    phone.get_by_label(re.compile("Subgrade thoroughly and uniformly compacted")).check()  # § 303-3D(3)
    phone.get_by_label("Subgrade moistened just before the pour").check()
    phone.get_by_label("Placed at each").check()  # § 303-3D(6): where the walk meets a curb or driveway
    phone.get_by_label("All at right angles").check()  # § 303-3D(6): no diagonal joints
    phone.get_by_label("Thickness across the driveway approach (inches)").fill("6")  # § 303-3D(8)(a)
    phone.get_by_label("Slope toward the curb (inch per foot)").fill("0.25")
    axe_check(phone, "pour inspection form")
    assert _fits_the_phone(phone)
    phone.get_by_role("button", name="Record the pour inspection").click()
    expect(phone.get_by_text("passed.")).to_be_visible()
    axe_check(phone, "passed pour inspection")

    phone.get_by_role("link", name=re.compile("^Curing")).click()
    axe_check(phone, "curing inspection form")
    phone.get_by_label("Curing method").select_option("wet_fabric")
    phone.get_by_role("button", name="Record the curing inspection").click()
    expect(phone.get_by_text("Curing: passed.")).to_be_visible()
    axe_check(phone, "all stages passed")
    phone.get_by_role("button", name="Mark the work completed").click()
    expect(phone.get_by_text(f"{permit.number} is completed.")).to_be_visible()
    axe_check(phone, "work completed on a phone")
    permit.refresh_from_db()
    assert permit.status == Status.COMPLETED
    phone.goto(f"{live_server.url}/sidewalks/permits/{permit.number}/")
    expect(phone.get_by_text("Keep traffic off until")).to_be_visible()  # 96 hours below 50 °F (§ 303-3D(9))
    axe_check(phone, "completed permit on a phone")


def test_survey_becomes_an_order_served_done_by_the_village_and_charged(page, browser, live_server, axe_check):
    _fee()
    steps.person("inspector", Role.DPW_INSPECTOR)
    steps.person("clerk", Role.CLERK)
    street = StreetFactory(name="Juneau Street")
    home = ParcelFactory(tax_key="266-1116-0101", site_address="101 Juneau Street", street=street)
    home.owners.add(steps.person("owner"))

    page.set_viewport_size(PHONE)
    _log_in(page, live_server, axe_check, "inspector", "/sidewalks/surveys/")
    page.get_by_label("Street").select_option(label="Juneau Street")
    page.get_by_role("button", name="Start the survey").click()
    expect(page.get_by_role("heading", name=re.compile("Survey of Juneau Street"))).to_be_visible()
    axe_check(page, "empty survey on a phone")
    for number, vertical in ((1, "0.75"), (2, "0.74")):
        page.get_by_role("combobox", name="Parcel").select_option(label=str(home))
        page.get_by_label("Block number").fill(str(number))
        page.get_by_label("Vertical differential (inches)").fill(vertical)
        page.get_by_label("Horizontal gap (inches)").fill("0")
        page.get_by_label("Surface deterioration (inches)").fill("0")
        page.get_by_role("button", name="Record the block").click()
        axe_check(page, f"block {number} recorded on a phone")
    assert (
        page.get_by_text("block 1 recorded, defective").is_visible()
        or page.get_by_text("block 2 recorded, not defective").is_visible()
    )
    assert _fits_the_phone(page)
    axe_check(page, "survey with blocks on a phone")
    page.get_by_role("button", name="Propose orders to the Board").click()
    expect(page.get_by_text("1 order(s) proposed")).to_be_visible()
    axe_check(page, "proposed orders (inspector)")
    order = SidewalkOrder.objects.get()
    assert order.work == "repair" and order.estimated_cost == Decimal("150.00")

    # The Board met a month ago and adopted the order by resolution 2026-31 (its minutes: the Board pages, walked in
    # test_board_agenda.py); the owner was served 25 days ago, so the 20 days after service have run out.
    from tests.board_world import vote

    vote(clause="303-3B(3)", ayes=5, held_on=timezone.localdate() - timedelta(days=30), number="2026-31")
    clerk = browser.new_page()
    _log_in(clerk, live_server, axe_check, "clerk", "/sidewalks/orders/")
    clerk.get_by_label(f"Adopt order {order.number}").check()
    clerk.get_by_label("The Board's motion that adopted them (§ 303-3B(3))").select_option(index=1)
    axe_check(clerk, "orders list (clerk)")
    clerk.get_by_role("button", name="Record adoption").click()
    expect(clerk.get_by_text("1 order(s) adopted by resolution 2026-31")).to_be_visible()
    axe_check(clerk, "orders adopted (clerk)")
    clerk.get_by_role("link", name=order.number).click()
    axe_check(clerk, "adopted order")
    clerk.get_by_label("Served by").select_option("certified_mail")
    clerk.get_by_label("Proof of service").fill("Certified mail 7019 2280 0000 1234 5678")
    clerk.get_by_label("Date of service").fill((timezone.localdate() - timedelta(days=25)).isoformat())
    clerk.get_by_role("button", name="Record service").click()
    expect(clerk.get_by_text("Service recorded.")).to_be_visible()
    expect(clerk.get_by_text("Owner may do the work until")).to_be_visible()
    axe_check(clerk, "served order")
    order.refresh_from_db()
    assert order.status == "served" and order.owner_deadline == order.served_on + timedelta(days=20)

    # The owner did nothing: the Village does the work and the cost is charged to the parcel.
    clerk.get_by_label("The Village's cost ($)").fill("162.50")
    clerk.get_by_role("button", name="Record the Village's work").click()
    expect(clerk.get_by_text("The Village's work is recorded.")).to_be_visible()
    axe_check(clerk, "Village work recorded")
    clerk.get_by_role("button", name="Charge the cost to the parcel").click()
    order.refresh_from_db()
    assert order.status == "charged" and order.charge.amount == Decimal("162.50")
    expect(clerk.get_by_text(f"Charge {order.charge.number} of $162.50 recorded")).to_be_visible()
    axe_check(clerk, "charged order")
    assert order.charge.route == "special_assessment_66_0703" and order.charge.status == "pending"

    # § 303-3B(2), Wis. Stat. § 66.0703: the clerk puts the assessment to the Board; the Board's preliminary
    # resolution (its vote: the Board pages, walked in test_board_agenda.py) came first; DPW files the engineer's
    # report; the clerk records the notice; the Board's final resolution at the hearing levies and bills it.
    from permits.ledger import assessments
    from permits.ledger.models import AssessmentProceeding

    today = timezone.localdate()
    clerk.goto(f"{live_server.url}/assessments/")
    axe_check(clerk, "special assessments (clerk)")
    clerk.get_by_label(re.compile(f"{order.charge.number}: 101 Juneau Street")).check()
    clerk.get_by_label("Project").fill("Juneau Street walks")
    clerk.get_by_role("button", name="Open the proceeding").click()
    expect(clerk.get_by_text("Awaiting the Board's preliminary resolution")).to_be_visible()
    axe_check(clerk, "special assessment opened")
    proceeding = AssessmentProceeding.objects.get()
    preliminary = vote(
        clause="66.0703(4)", ayes=5, held_on=today - timedelta(days=60), subject=proceeding, number="2026-40"
    )
    assessments.adopt_preliminary_resolution(proceeding=proceeding, motion=preliminary, by=_clerk_user())

    dpw = browser.new_page()
    steps.person("dpw", Role.DPW_DIRECTOR)
    _log_in(dpw, live_server, axe_check, "dpw", proceeding.get_absolute_url())
    dpw.get_by_label("Filed with the Clerk-Treasurer on").fill((today - timedelta(days=55)).isoformat())
    dpw.get_by_role("textbox", name=re.compile("^Engineer's report")).fill(
        "Plans, estimate $162.50, schedule of one assessment"
    )
    dpw.get_by_role("button", name="File the report").click()
    expect(dpw.get_by_text("The engineer's report is filed for public inspection.")).to_be_visible()
    axe_check(dpw, "engineer's report filed (DPW)")

    clerk.goto(f"{live_server.url}{proceeding.get_absolute_url()}")
    clerk.get_by_label("Public hearing on").fill((today - timedelta(days=35)).isoformat())
    clerk.get_by_label("Class 1 notice published on").fill((today - timedelta(days=50)).isoformat())
    clerk.get_by_label("Notice mailed to the owners on").fill((today - timedelta(days=36)).isoformat())
    clerk.get_by_role("button", name="Record the notice and mail the owners' copies").click()
    expect(clerk.get_by_text(re.compile("requires at least 10")).first).to_be_visible()
    axe_check(clerk, "notice refused: copy mailed 1 day before the hearing")
    clerk.get_by_label("Notice mailed to the owners on").fill((today - timedelta(days=45)).isoformat())
    clerk.get_by_role("button", name="Record the notice and mail the owners' copies").click()
    expect(clerk.get_by_text("The hearing notice is recorded")).to_be_visible()
    axe_check(clerk, "hearing noticed (clerk)")
    final = vote(clause="66.0703(8)", ayes=5, held_on=today - timedelta(days=35), subject=proceeding, number="2026-44")
    assessments.levy_assessment(proceeding=proceeding, motion=final, by=_clerk_user())
    clerk.reload()
    expect(clerk.get_by_text("Levied by the final resolution")).to_be_visible()
    axe_check(clerk, "assessment levied")
    order.charge.refresh_from_db()
    assert order.charge.status == "billed"

    # The owner of record finds the order and its bill from My property; the Clerk-Treasurer takes the payment on
    # the charge's page, reached from the order; the owner then sees the order charged and its charge paid.
    owner = browser.new_page()
    steps.sign_in(owner, live_server, "owner")
    owner.get_by_role("link", name="My property").click()
    owner.get_by_role("link", name=order.number).click()
    expect(owner.get_by_text(re.compile(rf"{order.charge.number}: \$162\.50, billed")).first).to_be_visible()
    axe_check(owner, "owner's order page: levied and billed")
    owner.get_by_role("link", name=order.charge.number).click()
    expect(owner.get_by_role("button", name="Record payment")).to_have_count(0)  # the clerk's step, not theirs
    axe_check(owner, "owner's charge page: billed")
    charge_url = owner.url
    clerk.goto(f"{live_server.url}{order.get_absolute_url()}")
    clerk.get_by_role("link", name=order.charge.number).click()
    expect(clerk.get_by_label("Amount ($)")).to_have_value("162.50")
    clerk.get_by_label("Method").select_option("check")
    clerk.get_by_label("Check number or card reference").fill("2210")
    clerk.get_by_role("button", name="Record payment").click()
    expect(clerk.get_by_text(re.compile(r"Payment recorded: receipt RC-\d{4}-\d{4}"))).to_be_visible()
    axe_check(clerk, "assessment paid (clerk)")
    owner.goto(charge_url)
    expect(owner.get_by_role("link", name=re.compile(r"Receipt RC-\d{4}-\d{4} \(PDF\)"))).to_be_visible()
    axe_check(owner, "owner's charge page: paid")
    owner.goto(f"{live_server.url}{order.get_absolute_url()}")
    expect(owner.get_by_text(re.compile(rf"{order.charge.number}: \$162\.50, paid")).first).to_be_visible()
    owner.close()
    order.refresh_from_db()
    order.charge.refresh_from_db()
    assert order.status == "charged" and order.charge.status == "paid"

    # § 303-3A: DPW proposes curb and gutter for the Board to order, with the engineer's price.
    dpw.goto(f"{live_server.url}/sidewalks/orders/board/")
    axe_check(dpw, "propose curb and gutter (DPW)")
    dpw.get_by_label("Parcel tax key number").fill(home.tax_key)
    dpw.get_by_label("What the Board orders").select_option("curb_gutter")
    dpw.get_by_role("combobox", name=re.compile("^Work")).select_option("replace")
    dpw.get_by_label("Quantity").fill("60")
    dpw.get_by_role("combobox", name=re.compile("^Unit")).select_option("lf")
    dpw.get_by_label("Unit price ($, engineer's estimate)").fill("38.00")
    dpw.get_by_label("Why the work is needed").fill("The gutter holds water along the frontage")
    dpw.get_by_role("button", name="Propose the order").click()
    expect(dpw.get_by_text("Curb and gutter (§ 303-3A)", exact=True)).to_be_visible()
    axe_check(dpw, "curb and gutter order proposed")
    assert SidewalkOrder.objects.filter(element="curb_gutter", estimated_cost=Decimal("2280.00")).exists()

    # § 303-3B(3), Wis. Stat. § 66.0907: the clerk records the Board's minor-repair authority; DPW records a repair
    # made at once within it, and the owner is told and billed.
    authority = vote(clause="303-3B(3)", ayes=5, held_on=today - timedelta(days=20), number="2026-45")
    clerk.goto(f"{live_server.url}/sidewalks/minor-repairs/")
    axe_check(clerk, "minor repairs (clerk)")
    clerk.get_by_label("The Board's motion (§ 303-3B(3))").select_option(str(authority.pk))
    clerk.get_by_label("Most a minor repair may cost ($)").fill("100")
    clerk.get_by_label("In force from").fill((today - timedelta(days=20)).isoformat())
    clerk.get_by_role("button", name="Record the Board's authority").click()
    expect(clerk.get_by_text("Recorded: minor repairs up to $100.00")).to_be_visible()
    axe_check(clerk, "minor-repair authority recorded")
    dpw.goto(f"{live_server.url}/sidewalks/minor-repairs/")
    dpw.get_by_label("Parcel tax key number").fill(home.tax_key)
    dpw.get_by_label("What was repaired").fill("Ground down a lip at block 2")
    dpw.get_by_label("Repaired on").fill(today.isoformat())
    dpw.get_by_label("Cost of the repair ($)").fill("100.01")
    dpw.get_by_role("button", name="Record the repair and bill the owner").click()
    expect(dpw.get_by_text("needs the Board's order", exact=False).first).to_be_visible()
    axe_check(dpw, "minor repair over the limit refused")
    dpw.get_by_label("Cost of the repair ($)").fill("100.00")
    dpw.get_by_role("button", name="Record the repair and bill the owner").click()
    expect(dpw.get_by_text(re.compile(r"Minor repair MSR-\d{4}-\d{4} recorded"))).to_be_visible()
    axe_check(dpw, "minor repair recorded (DPW)")


def _clerk_user():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="clerk")
