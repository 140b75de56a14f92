"""A second factor for Village staff (OWASP ASVS 4.0 V2.2.3, V4.3.1; permits/accounts/mfa.py).

With STAFF_MFA_REQUIRED on, staff without an authenticator are sent to the two-factor setup page from everything but
allauth's account and MFA pages; staff who log in with password + authenticator code pass; residents and contractors
are never asked; staff get no API token. With it off (the embedded demo) nothing changes.
"""

import re
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP, format_hotp_value, generate_totp_secret, hotp_value
from django.contrib.auth.models import Group
from django.urls import reverse
from rest_framework.authtoken.models import Token

from permits.roles import Role
from tests.factories import UserFactory

PASSWORD = "correct-horse-battery"
STAFF = ["clerk", "dpw_director", "inspector", "building_inspector", "police_chief", "board_member", "president"]
NOT_STAFF = ["resident", "contractor", "contractor_staff", "outsider"]
GUARDED = ["/office/", "/admin/", "/field/", "/charges/", "/sidewalks/snow/"]
ENROLMENT = reverse("permits:enrolment")
MFA_PAGES = ["mfa_index", "mfa_activate_totp", "mfa_add_webauthn", "mfa_generate_recovery_codes"]


def enrolment_link(user) -> str:
    from permits.accounts.enrolment import enrolment_url

    return urlsplit(enrolment_url(user)).path


@pytest.fixture
def mfa_on(settings):
    settings.STAFF_MFA_REQUIRED = True


@pytest.fixture
def mfa_off(settings):
    settings.STAFF_MFA_REQUIRED = False


def verified(user):
    EmailAddress.objects.get_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    return user


def current_code(secret: str) -> str:
    """The authenticator app's code now (RFC 6238, 30 s steps); never in a step's last second (no edge flakes)."""
    import time

    if time.time() % 30 > 29:
        time.sleep(1.1)
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def with_totp(user) -> str:
    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    return secret


def login_with_password(client, user):
    return client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})


def login_with_second_step(client, user, secret):
    response = login_with_password(client, user)
    assert response.status_code == 302 and response["Location"] == reverse("mfa_authenticate"), response
    return client.post(reverse("mfa_authenticate"), {"code": current_code(secret)})


@pytest.mark.parametrize("path", GUARDED)
@pytest.mark.parametrize("who", STAFF)
def test_asvs_v4_3_1_staff_without_an_authenticator_are_sent_to_setup(mfa_on, client, request, who, path):
    client.force_login(request.getfixturevalue(who))
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == ENROLMENT


def test_asvs_v4_3_1_a_superuser_without_an_authenticator_is_sent_to_setup(mfa_on, client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get("/admin/")["Location"] == ENROLMENT


def test_asvs_v2_7_the_enrolment_page_says_the_factor_comes_from_the_emailed_link(mfa_on, client, clerk):
    client.force_login(verified(clerk))
    response = client.get("/office/", follow=True)
    assert response.redirect_chain == [(ENROLMENT, 302)]
    html = response.content.decode()
    assert "set up only from the one-time link emailed to you, never with the password alone" in html
    assert 'class="navbar-brand"' in html  # base.html's layout


def test_asvs_v4_3_1_with_the_link_opened_the_setup_page_says_why(mfa_on, client, clerk):
    client.force_login(verified(clerk))
    assert client.get(enrolment_link(clerk))["Location"] == reverse("mfa_activate_totp")
    response = client.get("/office/", follow=True)
    assert response.redirect_chain == [(reverse("mfa_index"), 302)]
    html = response.content.decode()
    assert "Village staff need a second factor (OWASP ASVS V4.3.1)" in html
    assert "Two-Factor Authentication" in html


@pytest.mark.parametrize("name", ["account_email", "account_change_password", "account_reauthenticate"])
def test_asvs_v4_3_1_allauth_account_pages_stay_open_during_setup(mfa_on, client, clerk, name):
    client.force_login(verified(clerk))
    response = client.get(reverse(name))
    assert response.status_code in (200, 302)
    assert response.get("Location") not in (ENROLMENT, reverse("mfa_index"))


@pytest.mark.parametrize("name", MFA_PAGES)
def test_asvs_v2_7_the_password_alone_does_not_open_the_mfa_pages(mfa_on, client, clerk, name):
    client.force_login(verified(clerk))
    assert client.get(reverse(name))["Location"] == ENROLMENT


@pytest.mark.parametrize("name", MFA_PAGES)
def test_asvs_v2_7_the_emailed_link_opens_the_mfa_pages(mfa_on, client, clerk, name):
    client.force_login(verified(clerk))
    client.get(enrolment_link(clerk))
    response = client.get(reverse(name))
    assert response.get("Location") not in (ENROLMENT, reverse("mfa_index"))


def test_asvs_v4_3_1_logout_and_static_stay_open_during_setup(mfa_on, client, clerk):
    client.force_login(clerk)
    assert client.get("/static/css/site.css").status_code in (200, 404)  # served, or absent; never redirected
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302 and response["Location"] != reverse("mfa_index")
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("who", NOT_STAFF)
def test_asvs_v4_3_1_residents_and_contractors_are_not_asked_for_a_second_factor(mfa_on, client, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("permits:my_applications"))
    assert response.status_code == 200
    assert client.get("/api/v1/permits/").status_code == 200


def test_asvs_v2_2_3_staff_log_in_with_password_and_authenticator_code_then_pass(mfa_on, client, dpw_director):
    secret = with_totp(verified(dpw_director))
    response = login_with_second_step(client, dpw_director, secret)
    assert response.status_code == 302
    for path in GUARDED:
        assert client.get(path).status_code == 200, path
    assert client.get("/api/v1/permits/").status_code == 200  # session auth after the second step


def test_asvs_v2_2_3_a_wrong_authenticator_code_does_not_log_staff_in(mfa_on, client, clerk):
    secret = with_totp(verified(clerk))
    login_with_password(client, clerk)
    wrong = f"{(int(current_code(secret)) + 1) % 1_000_000:06d}"
    response = client.post(reverse("mfa_authenticate"), {"code": wrong})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_asvs_v2_2_3_password_only_is_not_enough_for_staff_with_an_authenticator(mfa_on, client, clerk):
    # allauth's login stops at the second step: the user is not logged in after the password alone.
    with_totp(verified(clerk))
    response = login_with_password(client, clerk)
    assert response["Location"] == reverse("mfa_authenticate")
    assert "_auth_user_id" not in client.session
    assert client.get("/office/")["Location"].startswith(reverse("account_login"))


def test_asvs_v2_2_3_a_session_that_skipped_the_second_step_is_sent_to_mfa_reauthentication(mfa_on, client, clerk):
    # e.g. /admin/login/ (Django's own form, no allauth login stages) or any password-only session.
    with_totp(verified(clerk))
    client.force_login(clerk)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"] == reverse("mfa_reauthenticate") + "?next=%2Fadmin%2F"
    api = client.get("/api/v1/permits/")
    assert api.status_code == 403 and api.json()["errors"][0]["code"] == "mfa_authentication_required"


def test_asvs_v2_2_3_admin_login_with_password_only_does_not_reach_the_back_office(mfa_on, client, clerk):
    with_totp(verified(clerk))
    client.post(reverse("admin:login"), {"username": clerk.username, "password": PASSWORD})
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("mfa_reauthenticate"))


def test_asvs_v4_3_1_recovery_codes_alone_are_not_a_second_factor(mfa_on, client, clerk):
    Authenticator.objects.create(user=clerk, type=Authenticator.Type.RECOVERY_CODES, data={"seed": "00" * 20})
    client.force_login(clerk)
    assert client.get("/office/")["Location"] == ENROLMENT


def test_asvs_v4_3_1_staff_session_api_is_refused_until_setup_with_a_json_error(mfa_on, client, clerk):
    client.force_login(clerk)
    response = client.get("/api/v1/permits/")
    assert response.status_code == 403
    error = response.json()["errors"][0]
    assert error["code"] == "mfa_setup_required" and error["citation"] == "OWASP ASVS 4.0 V2.2.3, V4.3.1"
    assert "second factor" in error["message"]


@pytest.mark.parametrize("who", STAFF)
def test_asvs_v2_2_3_no_api_token_for_staff_while_mfa_is_required(mfa_on, client, request, who):
    user = request.getfixturevalue(who)
    response = client.post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 403
    error = response.json()["errors"][0]
    assert error["field"] == "username" and error["code"] == "mfa_token_refused"
    assert error["citation"] == "OWASP ASVS 4.0 V2.2.3, V4.3.1"
    assert "token would bypass" in error["message"]
    assert not Token.objects.filter(user=user).exists()  # stores nothing


def test_asvs_v2_2_3_no_api_token_for_staff_with_an_authenticator_either(mfa_on, client, clerk):
    with_totp(clerk)
    response = client.post("/api/v1/auth/token/", {"username": clerk.username, "password": PASSWORD})
    assert response.status_code == 403 and not Token.objects.filter(user=clerk).exists()


def test_asvs_v2_2_3_a_staff_token_issued_before_mfa_was_required_is_refused(mfa_on, client, clerk):
    token = Token.objects.create(user=clerk)
    response = client.get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "mfa_token_refused"


@pytest.mark.parametrize("spelling", ["Token {}", "token {}", "TOKEN {}", "Token\t{}", "tOkEn  {}", " Token {}"])
def test_asvs_v2_2_3_a_staff_token_is_refused_however_its_header_is_spelled(mfa_on, client, clerk, spelling):
    """The API's own authentication reads the header (any case, any whitespace): the MFA check reads it the same way,
    so no spelling reaches the permits and the owners' mailing addresses with a staff token."""
    token = Token.objects.create(user=clerk)
    response = client.get("/api/v1/permits/", HTTP_AUTHORIZATION=spelling.format(token.key))
    assert response.status_code in (401, 403)
    assert "results" not in response.json()


def test_asvs_v2_2_3_staff_cannot_create_a_token_on_the_tokens_page(mfa_on, client, clerk, resident):
    client.force_login(resident)
    client.post("/account/tokens/", {"action": "create"})
    assert Token.objects.filter(user=resident).exists()  # a resident still can
    client.logout()
    login_with_second_step(client, verified(clerk), with_totp(clerk))  # past the second step: the page opens
    response = client.post("/account/tokens/", {"action": "create"}, follow=True)
    assert not Token.objects.filter(user=clerk).exists()
    assert "API tokens are not issued to Village staff" in response.content.decode()


def test_asvs_v2_2_3_a_user_made_staff_after_getting_a_token_loses_its_use(mfa_on, client, resident):
    token = Token.objects.create(user=resident)
    assert client.get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    resident.groups.add(Group.objects.get(name=Role.CLERK.value))
    assert client.get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 403


@pytest.mark.parametrize("who", NOT_STAFF)
def test_asvs_v2_2_3_residents_and_contractors_still_get_api_tokens(mfa_on, client, request, who):
    user = request.getfixturevalue(who)
    response = client.post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 200
    token = response.json()["token"]
    assert client.get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


def test_asvs_v2_2_3_a_wrong_password_is_still_the_usual_error_not_the_mfa_one(mfa_on, client, clerk):
    response = client.post("/api/v1/auth/token/", {"username": clerk.username, "password": "wrong"})
    assert response.status_code == 400
    assert all(e["code"] != "mfa_token_refused" for e in response.json()["errors"])


@pytest.mark.parametrize("path", GUARDED)
def test_demo_mode_staff_use_a_password_only(mfa_off, client, dpw_director, path):
    client.force_login(dpw_director)
    assert client.get(path).status_code == 200


def test_demo_mode_staff_still_get_api_tokens(mfa_off, client, clerk):
    response = client.post("/api/v1/auth/token/", {"username": clerk.username, "password": PASSWORD})
    assert response.status_code == 200 and response.json()["token"]


def test_demo_mode_the_login_page_says_staff_sign_in_with_a_password_only(mfa_off, client, db):
    html = client.get(reverse("account_login")).content.decode()
    assert "staff sign in with a password only; in production staff need a second factor" in html


def test_asvs_v4_3_1_production_login_page_has_no_demo_note(mfa_on, client, db):
    html = client.get(reverse("account_login")).content.decode()
    assert "staff sign in with a password only" not in html
    assert "Sign In" in html


def test_settings_staff_mfa_is_required_whenever_debug_is_off():
    import subprocess
    import sys

    code = (
        "import os; os.environ.update(SECRET_KEY='x'*50, DEBUG='false');"
        "os.environ.pop('STAFF_MFA_REQUIRED', None);"
        "import theresa_permits.settings as s;"
        "print(s.STAFF_MFA_REQUIRED, s.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN, s.MFA_TOTP_ISSUER, s.MFA_SUPPORTED_TYPES)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "True False Theresa Permits ['totp', 'recovery_codes', 'webauthn']"


# --- The first factor comes from the emailed one-time link (OWASP ASVS V2.7; permits/accounts/enrolment.py) ---------


def test_asvs_v2_7_the_password_alone_cannot_activate_an_authenticator_app(mfa_on, client, clerk):
    client.force_login(verified(clerk))
    response = client.post(reverse("mfa_activate_totp"), {"code": "123456"})
    assert response["Location"] == ENROLMENT
    assert not Authenticator.objects.filter(user=clerk).exists()


def test_asvs_v2_7_the_admin_emails_the_link_and_the_holder_enrols_with_it_once(
    mfa_on, client, clerk, django_capture_on_commit_callbacks, mailoutbox
):
    from permits.accounts.enrolment import invite_to_enrol

    with django_capture_on_commit_callbacks(execute=True):
        invite_to_enrol(user=clerk)
    [message] = mailoutbox
    assert message.to == [clerk.email] and "second factor" in message.subject
    link = urlsplit(next(w for w in message.body.split() if "/account/second-factor/" in w)).path

    assert login_with_password(client, verified(clerk))["Location"] in (ENROLMENT, reverse("permits:start"))
    assert client.get(link)["Location"] == reverse("mfa_activate_totp")
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})  # allauth asks again before adding
    page = client.get(reverse("mfa_activate_totp")).content.decode()
    secret = re.search(r'value="([A-Z2-7]{32})"', page).group(1)  # the secret the page shows
    client.post(reverse("mfa_activate_totp"), {"code": current_code(secret)})
    assert Authenticator.objects.filter(user=clerk, type=Authenticator.Type.TOTP).count() == 1
    assert client.get("/office/").get("Location") != ENROLMENT  # past enrolment

    # One use: the account has its factor now, and the link no longer checks out.
    from permits.accounts.enrolment import tokens

    clerk.refresh_from_db()
    assert not tokens.check_token(clerk, link.rstrip("/").rsplit("/", 1)[1])


def test_asvs_v2_7_another_accounts_link_opens_nothing(mfa_on, client, clerk, dpw_director):
    client.force_login(verified(dpw_director))
    response = client.get(enrolment_link(clerk))
    assert response.status_code == 410 and "sent to another account" in response.content.decode()
    assert client.get(reverse("mfa_activate_totp"))["Location"] == ENROLMENT


def test_asvs_v2_7_a_link_opened_in_one_session_does_not_open_another(mfa_on, client, clerk):
    from django.test import Client

    client.force_login(verified(clerk))
    client.get(enrolment_link(clerk))
    other = Client()
    other.force_login(clerk)
    assert other.get(reverse("mfa_activate_totp"))["Location"] == ENROLMENT


def test_asvs_v2_7_the_link_works_on_its_last_second_and_not_after(mfa_on, client, clerk, settings):
    import time_machine

    with time_machine.travel(1_800_000_000, tick=False) as traveller:
        link = enrolment_link(clerk)
        client.force_login(verified(clerk))
        traveller.shift(settings.PASSWORD_RESET_TIMEOUT)
        assert client.get(link)["Location"] == reverse("mfa_activate_totp")
        traveller.shift(1)
        expired = client.get(link)
        assert expired.status_code == 410 and "expired" in expired.content.decode()
        assert client.get(reverse("mfa_activate_totp"))["Location"] == ENROLMENT


def test_asvs_v2_7_a_forged_link_opens_nothing(mfa_on, client, clerk):
    client.force_login(verified(clerk))
    assert client.get(enrolment_link(clerk)[:-3] + "abc/").status_code == 410
    assert client.get(reverse("mfa_activate_totp"))["Location"] == ENROLMENT


@pytest.mark.parametrize("who", NOT_STAFF)
def test_asvs_v2_7_only_staff_are_invited_and_the_message_names_the_field(request, who):
    from django.core.exceptions import ValidationError

    from permits.accounts.enrolment import invite_to_enrol
    from permits.errors import violations_of

    with pytest.raises(ValidationError) as refused:
        invite_to_enrol(user=request.getfixturevalue(who))
    [violation] = violations_of(refused.value)
    assert violation.field == "user" and "only Village staff" in violation.message


def test_asvs_v2_7_staff_with_a_factor_need_no_link_to_add_another(mfa_on, client, clerk):
    from permits.accounts.enrolment import invite_to_enrol
    from permits.errors import RulesBroken

    secret = with_totp(verified(clerk))
    login_with_second_step(client, clerk, secret)
    assert client.get(reverse("mfa_index")).status_code == 200
    assert client.get(reverse("mfa_add_webauthn")).status_code in (200, 302)
    with pytest.raises(RulesBroken):
        invite_to_enrol(user=clerk)


def test_asvs_v2_7_the_back_office_action_emails_the_link(mfa_on, client, clerk, django_capture_on_commit_callbacks):
    from django.core import mail

    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    secret = with_totp(verified(root))
    login_with_second_step(client, root, secret)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:auth_user_changelist"),
            {"action": "send_enrolment_link", "_selected_action": [clerk.pk]},
            follow=True,
        )
    assert "Enrolment link emailed to 1 staff member(s)." in response.content.decode()
    assert [m.to for m in mail.outbox] == [[clerk.email]]


def test_asvs_v2_7_the_command_emails_the_link(clerk, django_capture_on_commit_callbacks):
    from django.core import mail
    from django.core.management import CommandError, call_command

    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_enrolment_link", clerk.username)
    assert [m.to for m in mail.outbox] == [[clerk.email]]
    with pytest.raises(CommandError, match="username: no account 'nobody'"):
        call_command("send_enrolment_link", "nobody")
