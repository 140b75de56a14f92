"""Journeys through the account pages: registering, verifying the email, logging in. axe-core on every page."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

PASSWORD = "a-long-Unusual-passphrase-7"
CONFIRM_LINK = re.compile(r"/accounts/confirm-email/[^/\s]+/")


def register(page, live_server, axe_check, *, first, last, applying_as, email, company=""):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Register").click()
    expect(page.get_by_role("heading", name="Sign Up")).to_be_visible()
    axe_check(page, "signup")
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    page.get_by_label(applying_as).check()
    if company:
        page.get_by_label("Organization name").fill(company)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=False).first.fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("heading", name="Verify Your Email Address")).to_be_visible()
    axe_check(page, "verification sent")


def open_verification_link(page, live_server, axe_check, email):
    messages = [m for m in mail.outbox if email in m.to]
    assert len(messages) == 1, [m.to for m in mail.outbox]
    path = CONFIRM_LINK.search(messages[0].body).group(0)
    page.goto(live_server.url + path)
    expect(page.get_by_role("heading", name="Confirm Email Address")).to_be_visible()
    axe_check(page, "confirm email")
    page.get_by_role("button", name="Confirm").click()


def test_a_resident_registers_verifies_the_email_and_reaches_the_apply_chooser(page, live_server, axe_check):
    register(
        page,
        live_server,
        axe_check,
        first="Rita",
        last="Anderson",
        applying_as="A resident or property owner",
        email="rita@example.com",
    )
    open_verification_link(page, live_server, axe_check, "rita@example.com")
    expect(page.get_by_role("heading", name="My applications")).to_be_visible()
    expect(page.get_by_text("Signed in as Rita Anderson")).to_be_visible()
    axe_check(page, "my applications")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Apply").click()
    expect(page.get_by_role("heading", name="Apply for a permit")).to_be_visible()
    axe_check(page, "apply chooser")

    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(email="rita@example.com")
    assert (user.first_name, user.last_name) == ("Rita", "Anderson")
    assert user.emailaddress_set.get().verified
    assert not user.memberships.exists()


def test_a_contractor_registers_with_a_company(page, live_server, axe_check):
    register(
        page,
        live_server,
        axe_check,
        first="Carl",
        last="Brandt",
        applying_as="A contractor",
        email="carl@brandt.example",
        company="Brandt Excavating LLC",
    )
    open_verification_link(page, live_server, axe_check, "carl@brandt.example")
    expect(page.get_by_role("heading", name="My applications")).to_be_visible()
    page.get_by_role("link", name="Brandt Excavating LLC: staff").click()
    expect(page.get_by_role("heading", name="Brandt Excavating LLC")).to_be_visible()
    expect(page.get_by_role("heading", name="Invite a staff member")).to_be_visible()
    axe_check(page, "organization page")

    from permits.models import Organization

    org = Organization.objects.get()
    assert org.kind == "contractor"
    assert org.memberships.get().is_manager


def test_signup_errors_are_announced_next_to_their_fields(page, live_server, axe_check):
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("First name").fill("Carl")
    page.get_by_label("Last name").fill("Brandt")
    page.get_by_label("A contractor").check()
    page.get_by_label("Email").fill("carl@brandt.example")
    page.get_by_label("Password", exact=False).first.fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_text("Contractors and utilities must give the company name.")).to_be_visible()
    axe_check(page, "signup with errors")
    assert not mail.outbox


def test_login_and_logout_pages(page, live_server, axe_check, login):
    from tests.factories import UserFactory

    user = UserFactory(username="walker", email="walker@example.com")
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    page.goto(live_server.url + "/accounts/login/")
    axe_check(page, "login")
    page.get_by_label("Username or email").fill("walker")
    page.get_by_label("Password").fill("wrong-password")
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_text("The username and/or password you specified are not correct.")).to_be_visible()
    axe_check(page, "login with error")
    login(page, "walker@example.com")
    expect(page.get_by_role("heading", name="My applications")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Permits for Village streets and sidewalks")).to_be_visible()
    page.goto(live_server.url + "/accounts/password/reset/")
    axe_check(page, "password reset")


def test_account_management_pages(page, live_server, axe_check, login):
    from allauth.account.models import EmailAddress

    from tests.factories import UserFactory

    user = UserFactory(username="manager", email="manager@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    login(page, "manager")
    expect(page.get_by_role("heading", name="My applications")).to_be_visible()
    page.goto(live_server.url + "/accounts/email/")
    expect(page.get_by_role("heading", name="Email Addresses")).to_be_visible()
    axe_check(page, "email addresses")
    page.goto(live_server.url + "/accounts/password/change/")
    expect(page.get_by_role("heading", name="Change Password")).to_be_visible()
    axe_check(page, "change password")
    page.goto(live_server.url + "/accounts/logout/")
    axe_check(page, "logout confirmation")
