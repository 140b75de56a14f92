"""The Clerk-Treasurer's registers in a real browser (axe-core: zero WCAG 2.1 A/AA violations on every page): the clerk
receives a petition presented on September 16 and finds it on the list for the year after next (§ 303-11), records
the grade the Board established for a new street (§ 303-1A(1)) and a higher sidewalk standard (§ 303-3D(11)); a DPW
inspector reads the register but is offered no form."""

from datetime import date

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from obstructions.registers.models import Grade, HigherStandard, ImprovementRequest
from permits.board.clauses import Clause
from permits.roles import Role
from tests import board_world
from tests.factories import ParcelFactory, StreetFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def _staff(username, role):
    from allauth.account.models import EmailAddress

    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=role.value)[0])  # transactional tests flush the seeded groups
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_clerk_keeps_the_registers(page, live_server, axe_check, login):
    clerk = _staff("clerk", Role.CLERK)
    StreetFactory(name="Cedar Court")
    new_street = StreetFactory(name="Prairie View Drive", grade=False)
    parcel = ParcelFactory(site_address="12 Main Street", street=StreetFactory(name="Main Street"))
    board_world.vote(clause=Clause.GRADE, ayes=4, number="2025-44", held_on=date(2025, 10, 14), clerk=clerk)
    board_world.vote(clause=Clause.HIGHER_STANDARD, ayes=4, number="2025-45", held_on=date(2025, 10, 14), clerk=clerk)

    login(page, "clerk")
    page.goto(f"{live_server.url}/obstructions/registers/improvements/")
    expect(page.get_by_role("heading", name="Improvement requests to consider for", exact=False)).to_be_visible()
    axe_check(page, "improvement requests (empty)")
    page.get_by_label("Improvement asked for").select_option("curb_and_gutter")
    page.get_by_label("Location").fill("Cedar Court, both sides")
    page.get_by_label("Street").select_option(label="Cedar Court")
    page.get_by_label("Who asks").fill("Braun, Eric and 3 neighbors")
    page.get_by_label("Signatures").fill("4")
    page.get_by_label("Presented (date and time, Village time)").fill("2025-09-16T08:15")
    page.get_by_role("button", name="Receive the request").click()
    page.wait_for_load_state()
    assert page.url.endswith("?year=2027")
    expect(page.get_by_text("considered for 2027", exact=False)).to_be_visible()
    expect(page.get_by_role("cell", name="Cedar Court, both sides (Cedar Court)")).to_be_visible()
    axe_check(page, "improvement requests for 2027")
    assert ImprovementRequest.objects.get().consideration_year == 2027

    page.get_by_role("link", name="Register of grades").click()
    page.wait_for_load_state()
    axe_check(page, "register of grades")
    page.get_by_label("Street or alley").select_option(label="Prairie View Drive")
    page.get_by_label("Grade of the").select_option("street")
    page.get_by_label("Description").fill("Profile sheet 31, NAVD 88")
    page.get_by_label("The Board's motion that established it", exact=False).select_option(index=1)
    page.get_by_role("button", name="Record the grade").click()
    page.wait_for_load_state()
    expect(page.get_by_text("Recorded:", exact=False)).to_be_visible()
    assert Grade.objects.get(street=new_street).resolution_number == "2025-44"
    axe_check(page, "register of grades after recording")

    page.get_by_role("link", name="Higher sidewalk standards (§ 303-3D(11))").click()
    page.wait_for_load_state()
    axe_check(page, "higher standards")
    page.locator("#id_street").select_option(label="Main Street")
    page.get_by_label("Parcel", exact=True).select_option(str(parcel.pk))
    page.get_by_label("Minimum width (feet)").fill("6")
    page.get_by_label("The Board's motion (§ 303-3D(11))").select_option(index=1)
    page.get_by_role("button", name="Record the standard").click()
    page.wait_for_load_state()
    assert HigherStandard.objects.get().resolution_number == "2025-45"
    axe_check(page, "higher standards after recording")


def test_inspector_reads_the_grades_without_a_form(page, live_server, axe_check, login):
    _staff("inspector", Role.DPW_INSPECTOR)
    StreetFactory(name="Henni Street")
    login(page, "inspector")
    page.goto(f"{live_server.url}/obstructions/registers/grades/")
    expect(page.get_by_role("cell", name="Henni Street", exact=True)).to_be_visible()
    assert page.get_by_role("button", name="Record the grade").count() == 0
    axe_check(page, "register of grades (inspector)")


def test_dpw_director_records_a_streets_widths(page, live_server, axe_check, login):
    """§ 303-7D(1), § 303-6B(2): the street register's widths, which the permit rules read (a refusal on its field
    first: the traveled portion cannot be wider than the street)."""
    from decimal import Decimal

    from permits.models import Street

    _staff("dpw", Role.DPW_DIRECTOR)
    StreetFactory(name="Cedar Court", width_feet=None, traveled_width_feet=None, sidewalk_width_feet=None)
    login(page, "dpw")
    page.goto(f"{live_server.url}/obstructions/registers/grades/")
    page.get_by_role("link", name="Street widths (§ 303-7D(1), § 303-6B(2))").click()
    expect(page.get_by_role("heading", name="Street widths")).to_be_visible()
    axe_check(page, "street widths")
    page.locator("#id_street").select_option(label="Cedar Court")
    page.get_by_label("Width of the street or alley (feet)").fill("24")
    page.get_by_label("Width of the traveled portion (feet)").fill("26")
    page.get_by_role("button", name="Record the widths").click()
    expect(page.get_by_text("cannot be wider than the street", exact=False)).to_be_visible()
    axe_check(page, "street widths refused")
    page.get_by_label("Width of the traveled portion (feet)").fill("22")
    page.get_by_label("Width of the sidewalk (feet)").fill("4")
    page.get_by_role("button", name="Record the widths").click()
    expect(page.get_by_text("Recorded the widths of Cedar Court.")).to_be_visible()
    expect(page.get_by_role("cell", name="22.0 ft")).to_be_visible()
    axe_check(page, "street widths after recording")
    assert Street.objects.get(name="Cedar Court").traveled_width_feet == Decimal("22.0")


def test_clerk_enters_a_village_contract(page, live_server, axe_check, login):
    """§ 303-3C: the clerk finds the contract register from the registers' links and enters a contract; a tax key not
    on the roll is refused by name first."""
    from permits.models import VillageContract

    _staff("clerk", Role.CLERK)
    ParcelFactory(tax_key="266-0042-0001", site_address="42 Elm Street")
    login(page, "clerk")
    page.goto(f"{live_server.url}/obstructions/registers/grades/")
    page.get_by_role("link", name="The Village's contracts (§ 303-3C)").click()
    expect(page.get_by_role("heading", name="The Village's contracts for sidewalk work")).to_be_visible()
    axe_check(page, "village contracts (empty)")
    page.get_by_label("Contract number").fill("VC-2026-09")
    page.get_by_label("Contractor, as named in the contract").fill("Brandt Excavating LLC")
    page.get_by_label("Work contracted").fill("Walk replacement on Elm Street")
    page.get_by_label("Tax keys of the parcels it covers").fill("266-0042-0001, 266-0000-0000")
    page.get_by_label("First day of its term").fill("2026-05-01")
    page.get_by_label("Last day of its term").fill("2026-09-30")
    page.get_by_role("button", name="Enter the contract").click()
    expect(page.get_by_text("Not on the tax roll: 266-0000-0000 (§ 303-3C).").first).to_be_visible()
    axe_check(page, "village contracts refused")
    page.get_by_label("Tax keys of the parcels it covers").fill("266-0042-0001")
    page.get_by_role("button", name="Enter the contract").click()
    expect(page.get_by_role("row", name="VC-2026-09")).to_contain_text("42 Elm Street")
    axe_check(page, "village contracts after entering")
    assert VillageContract.objects.get().number == "VC-2026-09"
