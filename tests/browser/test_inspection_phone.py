"""An inspector on a phone-sized screen finds an issued street opening and logs a passing and a failing compaction
test; every page visited passes axe-core (WCAG 2.1 A/AA)."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import staff_user
from tests.factories import OrganizationFactory, PermitFactory, UserFactory
from tests.permits.street_opening.field.conftest import add_detail, issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


@pytest.fixture(autouse=True)
def retest_fee(db):
    """Transactional tests flush the fee rows the data migration seeded: put back the one a failed test charges."""
    import datetime
    from decimal import Decimal

    from permits.models import FeeItem

    FeeItem.objects.get_or_create(
        code="backfill_retest",
        effective_from=datetime.date(2020, 1, 1),
        defaults={
            "name": "Backfill compaction retest",
            "amount": Decimal("75.00"),
            "citation": "§ 303-5E(5)",
            "basis": "test",
        },
    )


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_inspector_logs_compaction_tests_on_a_phone(page, live_server, login, axe_check):
    from allauth.account.models import EmailAddress

    from permits.roles import Role

    inspector = staff_user("inspector", Role.DPW_INSPECTOR)
    EmailAddress.objects.create(user=inspector, email=inspector.email, verified=True, primary=True)  # mandatory
    contractor = UserFactory(username="digger")
    permit = PermitFactory(
        applicant=contractor,
        organization=OrganizationFactory(name="Brandt Excavating LLC"),
        location_description="In front of 118 Henni Street",
    )
    add_detail(permit)
    issue(permit)

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/accounts/login/")
    axe_check(page, "login page")
    login(page, "inspector")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    axe_check(page, "start page after login")

    page.goto(f"{live_server.url}/field/")
    expect(page.get_by_role("heading", name="Street openings to inspect")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "inspector's list")

    page.get_by_role("link", name=f"Inspect {permit.number}").click()
    expect(page.get_by_role("heading", name=f"Field record: {permit.number}")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "field record")

    # A passing test: 95.0% is enough (§ 303-5E(4))
    page.get_by_role("link", name=re.compile("Compaction of a lift")).click()
    assert _fits_the_phone(page)
    axe_check(page, "compaction form")
    page.get_by_label("Lift thickness (inches)").fill("12")
    page.get_by_label("Compaction (% of Modified Proctor maximum dry density)").fill("95.0")
    button = page.get_by_role("button", name="Log the inspection")
    assert button.bounding_box()["height"] >= 44  # a thumb-sized target
    button.click()
    expect(page.get_by_role("status").filter(has_text="passed")).to_be_visible()
    axe_check(page, "field record after a passing test")

    # A failing test: 94.9% fails, and the message cites the section and the retest charge
    page.get_by_role("link", name=re.compile("Compaction of a lift")).click()
    page.get_by_label("Lift thickness (inches)").fill("12")
    page.get_by_label("Compaction (% of Modified Proctor maximum dry density)").fill("94.9")
    page.get_by_role("button", name="Log the inspection").click()
    alert = page.get_by_role("alert").filter(has_text="FAILED")
    expect(alert).to_be_visible()
    assert "§ 303-5E(4)" in alert.inner_text() and "§ 303-5E(5)" in alert.inner_text()
    expect(page.get_by_text("retest fee charged (§ 303-5E(5))")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "field record after a failing test")

    # Bad input: the form names the field and stores nothing
    page.get_by_role("link", name=re.compile("Compaction of a lift")).click()
    page.get_by_label("Lift thickness (inches)").fill("")
    page.get_by_role("button", name="Log the inspection").click()
    expect(page.get_by_role("alert").filter(has_text="Please correct")).to_be_visible()
    axe_check(page, "compaction form with errors")


def test_contractor_gives_a_notice_and_reports_completion_on_a_phone(page, live_server, login, axe_check):
    from allauth.account.models import EmailAddress

    from permits.models import Membership

    org = OrganizationFactory(name="Brandt Excavating LLC")
    contractor = UserFactory(username="carl")
    Membership.objects.create(user=contractor, organization=org, is_manager=True)
    EmailAddress.objects.create(user=contractor, email=contractor.email, verified=True, primary=True)
    permit = PermitFactory(applicant=contractor, organization=org, location_description="118 Henni Street")
    add_detail(permit)
    issue(permit)

    page.set_viewport_size(PHONE)
    login(page, "carl")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/permits/{permit.number}/field/")
    expect(page.get_by_role("heading", name="Give a notice")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "permittee's field record")

    form = page.locator("form", has=page.get_by_role("button", name="Record the notice"))
    form.get_by_label(re.compile("DPW, 24 hours before excavation")).check()
    form.get_by_label("When the work it announces begins").fill("2030-06-10T08:00")
    form.get_by_label("To whom").fill("Dave Pieper, DPW")
    form.get_by_label("How").select_option("phone")
    form.get_by_role("button", name="Record the notice").click()
    expect(page.get_by_role("status").filter(has_text="Notice recorded")).to_be_visible()
    expect(page.get_by_text("On time").first).to_be_visible()
    axe_check(page, "after giving a notice")

    # § 303-4H(3): a request; the DPW confirms it after the final inspection, so the permit stays open
    page.get_by_role("button", name="Request completion").click()
    expect(page.get_by_role("status").filter(has_text="Completion requested")).to_be_visible()
    axe_check(page, "after requesting completion")


def _field_page_on_a_phone(page, live_server, login, *, username, role, applicant, company, location, **detail):
    """A staff member of `role`, with a verified email, opens an issued street opening's field page on a phone."""
    from allauth.account.models import EmailAddress

    user = staff_user(username, role)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    permit = PermitFactory(
        applicant=UserFactory(username=applicant),
        organization=OrganizationFactory(name=company),
        location_description=location,
    )
    add_detail(permit, **detail)
    issue(permit)
    page.set_viewport_size(PHONE)
    login(page, username)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/permits/{permit.number}/field/")
    return permit


def test_303_1c4_director_asks_to_inspect_before_covering_on_a_phone(page, live_server, login, axe_check):
    from permits.roles import Role

    _field_page_on_a_phone(
        page,
        live_server,
        login,
        username="director",
        role=Role.DPW_DIRECTOR,
        applicant="gasco",
        company="Wisconsin Gas",
        location="Gas main crossing at 118 Henni Street",
        underground_utility=True,
    )
    expect(page.get_by_role("heading", name="Check before covering")).to_be_visible()
    axe_check(page, "field record with the covering request form")
    page.get_by_label("Note to the permittee (optional)").fill("Call the DPW before backfilling")
    page.get_by_role("button", name=re.compile("Ask to inspect before covering")).click()
    expect(page.get_by_text("Do not cover the construction yet.")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "field record with the covering held (§ 303-1C(4))")


def test_303_5b1_5c_inspector_records_barriers_and_the_saw_cut_on_a_phone(page, live_server, login, axe_check):
    from permits.roles import Role

    _field_page_on_a_phone(
        page,
        live_server,
        login,
        username="inspector",
        role=Role.DPW_INSPECTOR,
        applicant="digger",
        company="Brandt Excavating LLC",
        location="In front of 118 Henni Street",
    )

    # § 303-5B(1): an open-flame pot fails the inspection with its section
    page.get_by_role("link", name=re.compile("Barriers, signs and lights")).click()
    expect(page.locator("form.field-form")).to_be_visible()  # the form's page, loaded, before it is measured
    assert _fits_the_phone(page)
    axe_check(page, "barriers, signs and lights form")
    form = page.locator("form.field-form")
    for question in ("barriers", "signs", "warning_lights"):
        form.locator(f"input[name='{question}'][value='yes']").check()
    form.get_by_label("Open-flame warning devices in use").check()
    page.get_by_role("button", name="Log the inspection").click()
    alert = page.get_by_role("alert").filter(has_text="FAILED")
    expect(alert).to_be_visible()
    assert "§ 303-5B(1)" in alert.inner_text()
    axe_check(page, "field record after a failed protection inspection")

    # § 303-5C: a neat rectangular cut after backfilling passes
    page.get_by_role("link", name=re.compile("Pavement removal and saw cut")).click()
    expect(page.locator("input[name='saw_cut_straight']").first).to_be_attached()
    axe_check(page, "saw cut form")
    form = page.locator("form.field-form")
    form.locator("input[name='surface'][value='bituminous']").check()
    for question in ("saw_cut_straight", "final_saw_cut", "saw_cut_rectangular", "saw_cut_aligned"):
        form.locator(f"input[name='{question}'][value='yes']").check()
    page.get_by_role("button", name="Log the inspection").click()
    expect(page.get_by_role("status").filter(has_text="passed")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "field record after a passed saw cut inspection")


def test_303_4f2_director_bills_the_villages_expenses_on_a_phone(page, live_server, login, axe_check):
    from permits.roles import Role
    from tests.upload_samples import PNG

    _field_page_on_a_phone(
        page,
        live_server,
        login,
        username="director",
        role=Role.DPW_DIRECTOR,
        applicant="digger",
        company="Brandt Excavating LLC",
        location="In front of 118 Henni Street",
    )
    page.get_by_role("link", name="Bill the Village's expenses").click()
    expect(page.get_by_label("Labor ($)")).to_be_visible()  # the form's page, loaded, before it is measured
    assert _fits_the_phone(page)
    axe_check(page, "Village expenses form")
    page.get_by_label("What the Village did").fill("Cold patch placed by the Village crew")
    page.get_by_label("Labor ($)").fill("60.00")
    page.get_by_label("Materials ($)").fill("45.25")
    page.get_by_role("button", name="Bill the expenses").click()
    expect(page.get_by_role("alert").filter(has_text="Please correct")).to_be_visible()
    axe_check(page, "Village expenses form without the receipt")
    page.get_by_label(re.compile("Receipt or invoice")).set_input_files(
        files=[{"name": "invoice.png", "mimeType": "image/png", "buffer": PNG}]
    )
    page.get_by_role("button", name="Bill the expenses").click()
    expect(page.get_by_role("status").filter(has_text="$105.25")).to_be_visible()
    axe_check(page, "field record after billing the Village's expenses (§ 303-4F(2))")


def test_303_4h_4_clerk_records_the_boards_finding_of_a_defect(page, live_server, login, axe_check):
    import datetime

    from allauth.account.models import EmailAddress
    from django.utils import timezone

    from permits.roles import Role
    from tests.board_world import vote
    from tests.permits.street_opening.conftest import complete_work

    clerk = staff_user("clerk", Role.CLERK)
    EmailAddress.objects.create(user=clerk, email=clerk.email, verified=True, primary=True)
    staff_user("final-inspector", Role.DPW_INSPECTOR)
    contractor = UserFactory(username="digger")
    permit = PermitFactory(
        applicant=contractor,
        organization=OrganizationFactory(name="Brandt Excavating LLC"),
        location_description="In front of 118 Henni Street",
    )
    add_detail(permit)
    issue(permit)
    today = timezone.localdate()
    complete_work(permit, permittee=contractor, today=today - datetime.timedelta(days=60))
    vote(clause="303-4H(4)", ayes=5, held_on=today, subject=permit, number="R-1", clerk=clerk)

    page.set_viewport_size(PHONE)
    login(page, "clerk")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/permits/{permit.number}/field/")
    page.get_by_role("link", name="Record a defect notice").click()
    expect(page.get_by_role("heading", name=f"Defect notice for {permit.number}")).to_be_visible()
    assert _fits_the_phone(page)
    axe_check(page, "the Board's defect finding form (§ 303-4H(4))")
    form = page.locator("form.field-form")
    form.locator("[name=finding]").select_option(index=1)
    form.locator("[name=defect]").fill("Patch settled 1 inch")
    form.locator("[name=work_to_be_done]").fill("Mill and overlay")
    form.locator("[name=estimated_cost]").fill("1200.00")
    form.locator("[name=deadline]").fill((today + datetime.timedelta(days=30)).isoformat())
    form.locator("input[name=addressed_to][value=permittee]").check()
    page.get_by_role("button", name="Record and send the notice").click()
    expect(page.get_by_role("status").filter(has_text="Defect notice recorded")).to_be_visible()
    axe_check(page, "field record after the Board's finding")
