"""A staff member's second factor (OWASP ASVS 4.0 V2.2.3, V4.3.1, V2.7; permits/accounts/mfa.py), in chromium.

With STAFF_MFA_REQUIRED on, the Clerk-Treasurer signing in with a password is told the factor comes from the emailed
enrolment link, opens the link the administrator sends, activates an authenticator app (the code computed here from
the secret the page shows), logs out, logs in with password + code and reaches the Village office. axe-core on every
page, all in the site's own layout.
"""

import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def authenticator_code(secret: str) -> str:
    """What the phone's authenticator app would show now (RFC 6238, 30-second steps), never in a step's last 3 s."""
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

    if time.time() % 30 > 27:
        time.sleep(30 - time.time() % 30 + 0.1)
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def test_asvs_v4_3_1_staff_set_up_totp_then_log_in_with_password_and_code(
    page, live_server, axe_check, login, settings, clerk
):
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator

    settings.STAFF_MFA_REQUIRED = True
    EmailAddress.objects.create(user=clerk, email=clerk.email, verified=True, primary=True)

    # Production login page: no demo note.
    page.goto(live_server.url + "/accounts/login/")
    expect(page.get_by_text("staff sign in with a password only")).to_have_count(0)
    axe_check(page, "login (production)")

    # Password only, no authenticator yet: sent to the page that says the factor comes from the emailed link
    # (OWASP ASVS V2.7: whoever knows the password cannot enrol their own authenticator).
    login(page, "clerk")
    expect(page).to_have_url(live_server.url + "/account/second-factor/")
    expect(page.get_by_role("heading", name="Set up your second factor")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()  # the site's layout
    axe_check(page, "second factor: the emailed link is needed")
    page.goto(live_server.url + "/accounts/2fa/totp/activate/")
    expect(page).to_have_url(live_server.url + "/account/second-factor/")

    # The administrator emails the enrolment link (Back office -> Users -> action); the clerk opens it.
    from django.core import mail

    from permits.accounts.enrolment import invite_to_enrol

    invite_to_enrol(user=clerk)
    [message] = [m for m in mail.outbox if m.to == [clerk.email]]
    link = next(word for word in message.body.split() if "/account/second-factor/" in word)
    page.goto(live_server.url + "/account/" + link.split("/account/", 1)[1])
    # allauth asks for the password again before an authenticator is added (OWASP ASVS V2.5.x re-authentication).
    expect(page.get_by_role("heading", name="Confirm Access")).to_be_visible()
    axe_check(page, "confirm access")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Activate Authenticator App")).to_be_visible()
    axe_check(page, "activate authenticator app")
    secret = page.get_by_label("Authenticator secret").input_value()
    page.get_by_label("Authenticator code").fill(authenticator_code(secret))
    page.get_by_role("button", name="Activate").click()
    expect(page.get_by_role("heading", name="Recovery Codes")).to_be_visible()
    axe_check(page, "recovery codes")
    assert Authenticator.objects.filter(user=clerk, type=Authenticator.Type.TOTP).count() == 1

    # Now the office opens (activating proved possession of the app).
    page.goto(live_server.url + "/office/")
    expect(page).to_have_url(live_server.url + "/office/")
    axe_check(page, "office after activation")

    # Log out, log in again: the password alone stops at the second step.
    page.get_by_role("button", name="Log out").click()
    login(page, "clerk")
    expect(page).to_have_url(live_server.url + "/accounts/2fa/authenticate/")
    expect(page.get_by_role("heading", name="Two-Factor Authentication")).to_be_visible()
    axe_check(page, "second step")
    page.get_by_label("Code").fill(authenticator_code(secret))
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_text("Signed in as")).to_be_visible()
    page.goto(live_server.url + "/office/")
    expect(page).to_have_url(live_server.url + "/office/")
    axe_check(page, "office after password + code")


def test_demo_mode_login_page_says_staff_use_a_password_only(page, live_server, axe_check, settings):
    settings.STAFF_MFA_REQUIRED = False
    page.goto(live_server.url + "/accounts/login/")
    expect(
        page.get_by_text("staff sign in with a password only; in production staff need a second factor")
    ).to_be_visible()
    axe_check(page, "login (demo)")
