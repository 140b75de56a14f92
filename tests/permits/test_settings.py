"""Production settings, Content Security Policy and login throttling."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


def production_env(tmp_path, **extra):
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "permits.theresa.example",
        "VAR_DIR": str(tmp_path / "var"),
        **extra,
    }


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_check_deploy_passes_with_production_settings(tmp_path):
    result = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]
    result = manage(env, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_with_the_dummy_payment_provider(tmp_path):
    """Issue 29 item 4: the test provider confirms a payment by a URL anyone can post to; production mode never
    loads with it."""
    result = manage(production_env(tmp_path, ONLINE_PAYMENTS_DUMMY="1"), "check")
    assert result.returncode != 0 and "ONLINE_PAYMENTS_DUMMY cannot be set in production mode" in result.stderr


def test_production_without_stripe_loads_no_dummy_provider(tmp_path):
    """The dummy provider confirms a payment by its per-payment URL (?verification_result=confirmed): production mode
    has no variant that reaches it, so an older payment's address cannot either."""
    code = "from django.conf import settings as s; print(repr(s.PAYMENT_VARIANTS), repr(s.ONLINE_PAYMENT_VARIANT))"
    result = manage(production_env(tmp_path), "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "{} ''"


def test_production_refuses_stripe_without_its_webhook_signing_secret(tmp_path):
    """An empty signing secret verifies an HMAC anyone can compute: the webhook could be forged."""
    result = manage(production_env(tmp_path, STRIPE_SECRET_KEY="sk_live_x"), "check")
    assert result.returncode != 0 and "STRIPE_WEBHOOK_SECRET must be set" in result.stderr
    signed = manage(production_env(tmp_path, STRIPE_SECRET_KEY="sk_live_x", STRIPE_WEBHOOK_SECRET="whsec_x"), "check")
    assert signed.returncode == 0, signed.stderr


def test_the_demos_webhook_address_answers_404_not_500(client, db):
    response = client.post("/payments/process/card/", data="{}", content_type="application/json")
    assert response.status_code == 404 and "takes no confirmations" in response.json()["error"]


def test_a_bad_boolean_in_the_environment_fails_loudly(tmp_path):
    result = manage(production_env(tmp_path, DEBUG="maybe"), "check")
    assert result.returncode != 0 and "DEBUG must be true or false" in result.stderr


@pytest.mark.parametrize(("value", "expected"), [(None, 20), ("", 20), (" 7 ", 7), ("0", 0), ("-3", -3)])
def test_env_int_reads_a_whole_number_or_the_default(monkeypatch, value, expected):
    from theresa_permits.settings import env_int

    if value is None:
        monkeypatch.delenv("THERESA_TEST_NUMBER", raising=False)
    else:
        monkeypatch.setenv("THERESA_TEST_NUMBER", value)
    assert env_int("THERESA_TEST_NUMBER", 20) == expected


@pytest.mark.parametrize("value", ["ten", "5.5", "1e3", "20 days"])
def test_env_int_names_the_variable_and_the_bad_value(monkeypatch, value):
    from django.core.exceptions import ImproperlyConfigured

    from theresa_permits.settings import env_int

    monkeypatch.setenv("THERESA_TEST_NUMBER", value)
    with pytest.raises(ImproperlyConfigured) as refused:
        env_int("THERESA_TEST_NUMBER", 20)
    assert str(refused.value) == f"THERESA_TEST_NUMBER must be a whole number, not {value!r}"


def test_a_bad_number_in_the_environment_fails_loudly(tmp_path):
    result = manage(production_env(tmp_path, SIDEWALK_OWNER_PERIOD_DAYS="twenty"), "check")
    assert result.returncode != 0
    assert "SIDEWALK_OWNER_PERIOD_DAYS must be a whole number, not 'twenty'" in result.stderr


@pytest.mark.slow
def test_production_settings_values(tmp_path):
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
        " s.TIME_ZONE, s.USE_TZ, s.CELERY_TASK_ALWAYS_EAGER, s.DATABASES['default']['ENGINE'])"
    )
    env = production_env(
        tmp_path,
        DATABASE_URL="postgres://u@db.example/theresa",
        REDIS_URL="redis://r:6379/0",
    )
    result = manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == [
        "False",
        "True",
        "True",
        "True",
        "31536000",
        "America/Chicago",
        "True",
        "False",
        "django.db.backends.postgresql",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/"])
def test_csp_header_forbids_inline_scripts(client, url):
    response = client.get(url)
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_pages_have_no_inline_scripts_or_styles(client, resident):
    client.force_login(resident)
    for url in ("/", "/apply/", "/permits/", "/accounts/login/"):
        html = client.get(url).content.decode()
        assert "<script>" not in html and " style=" not in html and "<style" not in html, url


@pytest.mark.django_db
def test_security_headers(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.fixture
def axes_on(settings):
    import axes.utils

    settings.AXES_ENABLED = True
    cache.clear()  # allauth's own login rate limit counts in the cache
    axes.utils.reset()
    yield
    axes.utils.reset()
    cache.clear()


def login(client, username, password, ip="203.0.113.5"):
    return client.post(
        reverse("account_login"),
        {"login": username, "password": password},
        REMOTE_ADDR=ip,
    )


@pytest.mark.django_db
def test_five_failed_logins_lock_the_account_and_ip(client, resident, axes_on):
    from axes.models import AccessAttempt

    for _ in range(4):
        login(client, "resident", "wrong-password")
    assert login(client, "resident", "correct-horse-battery").status_code == 302  # 4 failures: not yet locked
    client.logout()
    for _ in range(5):
        login(client, "resident", "wrong-password")
    assert AccessAttempt.objects.get(username="resident").failures_since_start == 5
    cache.clear()  # forget allauth's own rate limit: what stops the next login must be axes
    response = login(client, "resident", "correct-horse-battery")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_lockout_is_per_username_and_ip(client, resident, outsider, axes_on):
    for _ in range(5):
        login(client, "resident", "wrong-password")
    cache.clear()  # allauth's per-key limit is separate; this test is about axes
    assert login(client, "resident", "correct-horse-battery").status_code == 429
    assert login(client, "outsider", "correct-horse-battery").status_code == 302  # another account, same IP
    client.logout()
    assert login(client, "resident", "correct-horse-battery", ip="198.51.100.7").status_code == 302  # other IP


@pytest.mark.django_db
def test_axes_reset_unlocks(client, resident, axes_on):
    import axes.utils

    for _ in range(5):
        login(client, "resident", "wrong-password")
    axes.utils.reset(username="resident")
    cache.clear()
    assert login(client, "resident", "correct-horse-battery").status_code == 302
