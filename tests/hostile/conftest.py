"""Hostile-input fixtures: the street opening and sidewalk arrangements, logged-in web and API clients."""

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
