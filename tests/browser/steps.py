"""Steps the browser journeys share: the people (verified emails, since verification is mandatory), signing in and
out through the real pages, and the street opening world (its fee schedule, a contractor's annual bond)."""

import re
from decimal import Decimal
from zoneinfo import ZoneInfo

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from permits.street_opening.models import AnnualBond
from tests.factories import FeeItemFactory, UserFactory
from tests.upload_samples import PDF

PASSWORD = "correct-horse-battery"
CHICAGO = ZoneInfo("America/Chicago")


def verified(*users):
    for user in users:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def person(username, role=None, **fields):
    """A user with a verified email; with a role, Village staff in that role's group."""
    user = UserFactory(username=username, is_staff=role is not None, **fields)
    if role is not None:
        # Transactional tests flush the data migrations' rows: make sure the role's group is there.
        user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    verified(user)
    return user


def sign_in(page, live_server, username, password=PASSWORD):
    """Through the real login page (the label is allauth's, "Login" or "Username or email")."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label(re.compile(r"^\s*(Login|Username or email)")).fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_load_state()


def log_out(page):
    page.get_by_role("button", name="Log out").click()


def street_opening_fees():
    """Transactional tests flush the fee rows the data migration seeded: put back the two a street opening needs."""
    for code, amount in (("street_opening", "50.00"), ("street_opening_renewal", "25.00")):
        FeeItemFactory(code=code, name=code.replace("_", " "), amount=Decimal(amount))


def annual_bond(organization, year, *, recorded_by, recorded_at):
    """The contractor's annual bond on file with the Clerk-Treasurer (§ 303-4H(5))."""
    return AnnualBond.objects.create(
        organization=organization,
        year=year,
        surety="Badger Surety",
        amount=Decimal(25000),
        recorded_by=recorded_by,
        recorded_at=recorded_at,
    )


def upload_insurance_certificate(page):
    """§ 303-4G: the certificate of insurance, uploaded on the permit page."""
    page.get_by_label("Kind").select_option("insurance")
    page.get_by_label("File (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
        files=[{"name": "certificate.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("Document uploaded.")).to_be_visible()


def fill_application(page, ticket: str = "20271234567"):
    """The street opening form, filled as a contractor would (tickets and dates in April 2027)."""
    page.get_by_label(re.compile(r"^\s*Street\W*$")).select_option(label="Henni Street")
    page.get_by_label("Location on the street").fill("In front of 118 Henni Street")
    page.get_by_label("Nature of the work").fill("New sewer lateral")
    page.get_by_label("Method of the work").fill("Open cut with saw-cut edges")
    page.get_by_label("Planned start date").fill("2027-04-12")
    page.get_by_label("Planned end date").fill("2027-04-14")
    page.get_by_label("Surface to be opened").select_option("bituminous")
    page.get_by_label("Existing pavement thickness (inches)").fill("3")
    page.get_by_label("Diggers Hotline ticket number").fill(ticket)
    page.get_by_label("Time the locate was requested").fill("2026-11-30T09:00")  # never in the future (§ 182.0175)
    page.get_by_label("Liability insurance per person ($)").fill("500000")
    page.get_by_label("Liability insurance per accident ($)").fill("500000")
    page.get_by_label("Property damage coverage ($)").fill("500000")
    page.get_by_label("Insurance expires on").fill("2028-01-31")
    page.get_by_label("Our annual bond on file with the Clerk-Treasurer (§ 303-4H(5))").check()
    for checkbox in page.locator("input[name=statement_undertakings]").all():
        checkbox.check()
    page.get_by_label("Sign by typing your full name").fill("Carl Brandt")
