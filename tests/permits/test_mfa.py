"""A second factor for Village staff (OWASP ASVS 4.0 V2.2.3, V4.3.1; permits/accounts/mfa.py).

With STAFF_MFA_REQUIRED on, staff without an authenticator are sent to the two-factor setup page from everything but
allauth's account and MFA pages; staff who log in with password + authenticator code pass; residents and contractors
are never asked; staff get no API token. With it off (the embedded demo) nothing changes.
"""

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
    assert response["Location"] == reverse("mfa_index")


def test_asvs_v4_3_1_a_superuser_without_an_authenticator_is_sent_to_setup(mfa_on, client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get("/admin/")["Location"] == reverse("mfa_index")


def test_asvs_v4_3_1_the_setup_page_says_why_and_uses_the_site_layout(mfa_on, client, clerk):
    client.force_login(verified(clerk))
    response = client.get("/office/", follow=True)
    assert response.redirect_chain == [(reverse("mfa_index"), 302)]
    html = response.content.decode()
    assert "Village staff need a second factor (OWASP ASVS V4.3.1)" in html
    assert 'class="navbar-brand"' in html and "Two-Factor Authentication" in html  # base.html's layout


@pytest.mark.parametrize(
    "name", ["mfa_index", "mfa_activate_totp", "account_email", "account_change_password", "mfa_reauthenticate"]
)
def test_asvs_v4_3_1_allauth_account_and_mfa_pages_stay_open_during_setup(mfa_on, client, clerk, name):
    client.force_login(verified(clerk))
    response = client.get(reverse(name))
    assert response.status_code in (200, 302)
    assert response.get("Location") != reverse("mfa_index")


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
    assert client.get("/office/")["Location"] == reverse("mfa_index")


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
