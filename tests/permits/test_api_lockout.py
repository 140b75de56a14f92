"""POST /api/v1/auth/token/ locks out like the web login and is throttled (OWASP ASVS V2.2.1; permits/api/auth.py).

transaction=True: the request runs outside any transaction, as in production, where ATOMIC_REQUESTS used to roll
back the failure axes had recorded (150 wrong passwords, nothing locked)."""

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

URL = "/api/v1/auth/token/"
GOOD = "correct-horse-battery"


@pytest.fixture
def axes_on(settings):
    import axes.utils

    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    cache.clear()
    axes.utils.reset()
    yield
    axes.utils.reset()
    cache.clear()


@pytest.fixture
def no_throttle(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "token": "1000/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def token(client, username, password, ip="203.0.113.5", **meta):
    return client.post(URL, {"username": username, "password": password}, REMOTE_ADDR=ip, **meta)


def test_owasp_v2_2_1_four_failures_then_the_right_password_still_works(client, resident, axes_on, no_throttle):
    for _ in range(4):
        assert token(client, "resident", "wrong").status_code == 400
    response = token(client, "resident", GOOD)
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=resident).key


def test_owasp_v2_2_1_five_failures_lock_the_token_endpoint_even_with_the_right_password(
    client, resident, axes_on, no_throttle
):
    from axes.models import AccessAttempt

    for _ in range(4):
        token(client, "resident", "wrong")
    fifth = token(client, "resident", "wrong")
    assert fifth.status_code == 429
    assert AccessAttempt.objects.get(username="resident").failures_since_start == 5
    locked = token(client, "resident", GOOD)
    assert locked.status_code == 429
    error = locked.json()["errors"][0]
    assert error["code"] == "locked_out" and error["field"] == "username"
    assert "OWASP ASVS V2.2.1" in error["message"] and error["citation"] == "OWASP ASVS V2.2.1"
    assert not Token.objects.filter(user=resident).exists()


def test_owasp_v2_2_1_web_and_api_failures_count_together_and_lock_the_web_login_too(
    client, resident, axes_on, no_throttle
):
    from django.urls import reverse

    for _ in range(5):
        token(client, "resident", "wrong")
    cache.clear()  # allauth's own limit: what must stop the web login here is axes
    web = client.post(reverse("account_login"), {"login": "resident", "password": GOOD}, REMOTE_ADDR="203.0.113.5")
    assert web.status_code == 429


def test_owasp_v2_2_1_lockout_is_per_username_and_client(client, resident, outsider, axes_on, no_throttle):
    for _ in range(5):
        token(client, "resident", "wrong")
    assert token(client, "outsider", GOOD).status_code == 200  # another account, same address
    assert token(client, "resident", GOOD, ip="198.51.100.7").status_code == 200  # same account, another client


def test_owasp_v2_2_1_lockout_keys_on_the_client_behind_a_trusted_proxy(
    client, resident, axes_on, no_throttle, settings
):
    settings.TRUSTED_PROXIES = ("10.0.0.2",)
    for _ in range(5):
        token(client, "resident", "wrong", ip="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.66")
    assert token(client, "resident", GOOD, ip="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.66").status_code == 429
    assert token(client, "resident", GOOD, ip="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 200


def test_owasp_v2_2_1_token_endpoint_is_throttled_per_client_at_the_token_rate(client, resident, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "token": "10/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    try:
        for _ in range(10):
            assert token(client, "nobody", "wrong").status_code == 400
        throttled = token(client, "resident", GOOD)
        assert throttled.status_code == 429
        assert throttled.json()["errors"][0]["code"] == "throttled"
        # A spoofed X-Forwarded-For from an untrusted client is the same client: still throttled.
        assert token(client, "resident", GOOD, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429
        assert token(client, "resident", GOOD, ip="198.51.100.7").status_code == 200  # another client is not
    finally:
        cache.clear()


def test_owasp_v2_2_1_bad_input_names_the_field_and_stores_nothing(client, axes_on, no_throttle):
    response = client.post(URL, {"password": "x"}, REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "username"
    assert not Token.objects.exists()
