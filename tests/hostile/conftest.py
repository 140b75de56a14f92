"""Hostile-input fixtures: the street opening and sidewalk arrangements, logged-in web and API clients."""

import logging

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.permits.street_opening.conftest import bond, spring, street  # noqa: F401  (fixtures)
from tests.sidewalks.conftest import elm, home  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def _no_second_factor(settings):
    # The staff second factor (permits.accounts.mfa) is on in PostgreSQL mode; these requests must reach the views.
    settings.STAFF_MFA_REQUIRED = False


def web(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client


IGNORED_TABLES = ("django_session", "axes_")


def writes(queries) -> list[str]:
    """The INSERT, UPDATE and DELETE statements among captured queries, but a session's or a login attempt's."""
    return [
        q["sql"][:120]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        and not any(t in q["sql"][:60] for t in IGNORED_TABLES)
    ]


@pytest.fixture
def quiet_request_log():
    # Each refused request logs a "Bad Request" warning: thousands of lines that would hide a real failure's report.
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)
