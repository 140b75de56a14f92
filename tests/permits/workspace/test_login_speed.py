"""The login made fast. The password is hashed once per login (an email login too), at OWASP's
600,000 PBKDF2 iterations, and hashes made at Django's 1,000,000 still log in (re-hashed at the new count)."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import hashers
from django.contrib.auth.hashers import PBKDF2PasswordHasher, identify_hasher
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "theresa-demo-2026"


@pytest.fixture
def real_hasher(settings):
    settings.PASSWORD_HASHERS = [
        "permits.accounts.hashers.VillagePBKDF2PasswordHasher",
        "django.contrib.auth.hashers.ScryptPasswordHasher",
    ]
    settings.PASSWORD_PBKDF2_ITERATIONS = 1000  # the count is what is tested, not the time of the suite


@pytest.fixture
def hashes(monkeypatch):
    """How many PBKDF2 computations a request makes."""
    counted = []
    real = hashers.pbkdf2

    def counting(*args, **kwargs):
        counted.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hashers, "pbkdf2", counting)
    return counted


def carol():
    user = UserFactory(username="clerk", email="clerk@theresa.example", is_staff=True)
    user.set_password(PASSWORD)
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.mark.parametrize("login", ["clerk", "clerk@theresa.example"])
def test_a_login_by_username_or_email_hashes_the_password_once(client, real_hasher, hashes, login):
    carol()
    hashes.clear()
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert len(hashes) == 1


def test_the_back_office_login_hashes_once(client, real_hasher, hashes):
    carol()
    hashes.clear()
    response = client.post(reverse("admin:login"), {"username": "clerk", "password": PASSWORD})
    assert response.status_code == 302
    assert len(hashes) == 1


def test_the_settings_hasher_is_pbkdf2_sha256_at_600000_iterations_by_default():
    from django.conf import settings

    from permits.accounts.hashers import VillagePBKDF2PasswordHasher

    assert settings.PASSWORD_PBKDF2_ITERATIONS == 600_000
    assert VillagePBKDF2PasswordHasher.algorithm == PBKDF2PasswordHasher.algorithm == "pbkdf2_sha256"


def test_a_password_hashed_at_djangos_1000000_iterations_still_logs_in_and_is_rehashed(client, real_hasher):
    user = carol()
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "oldsaltoldsalt", iterations=1_000_000)
    user.save(update_fields=["password"])
    response = client.post(reverse("account_login"), {"login": "clerk", "password": PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert identify_hasher(user.password).decode(user.password)["iterations"] == 1000


def test_a_wrong_password_is_refused(client, real_hasher):
    carol()
    response = client.post(reverse("account_login"), {"login": "clerk@theresa.example", "password": "wrong-one-123"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
