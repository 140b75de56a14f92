"""Every field of every API request body, with each hostile value: never a 500, always the API's JSON error body, and
nothing written when the value must be refused (OWASP ASVS V5.1). The operations and their fields come from the API's
own schema (drf-spectacular reads the serializers), so a new endpoint or field is covered without a new test."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from permits.models import Permit
from tests.hostile.conftest import writes
from tests.permits.admin_world import admin_world  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quiet_request_log")]

# Sent as JSON text, so that a lone surrogate travels as the escape a client would send (\ud800).
HOSTILE = {
    "200 KB": "x" * 200_000,
    "NUL": "a\x00b",
    "lone surrogate": "a\ud800b",
    "10^20": 10**20,
    "10^20 as text": "1" + "0" * 20,
    "year 9999": "9999-12-31",
    "abc": "abc",
    "a list": ["x"],
    "an object": {"x": 1},
    "null": None,
    "true": True,
}
REFUSED = {"200 KB", "NUL", "lone surrogate"}
PERSONAS = ["contractor", "resident", "clerk"]


def operations() -> list[tuple[str, str, list[str]]]:
    """(method, path, body fields) of each operation of the API that takes a body."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if method not in ("post", "put", "patch"):
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "")
            fields = list(components[ref.split("/")[-1]].get("properties", {})) if ref else []
            found.append((method, path, fields))
    return found


def plausible_body(fields: list[str]) -> dict:
    """A value of the right shape for each field, so that a hostile value in one field meets the rules of the rest."""
    soon = (timezone.localdate() + timedelta(days=14)).isoformat()
    body = {}
    for name in fields:
        if name.endswith(("_on", "_date", "_expires", "_start")):
            body[name] = soon
        elif name.endswith("_at"):
            body[name] = soon + "T09:00:00"
        elif name.endswith(("_feet", "_inches", "_psi", "_yard", "_per_person", "_accident", "_damage", "_way")):
            body[name] = 1
        else:
            body[name] = "Test"
    return body


def concrete(path: str) -> str:
    number = Permit.objects.filter(kind="street_opening").order_by("pk").values_list("number", flat=True).first()
    return path.replace("{number}", number)


def fields_named(response) -> set:
    return {e["field"] for e in response.json().get("errors", [])}


def send(client, method, path, body):
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        response = getattr(client, method)(path, json.dumps(body), content_type="application/json")
        transaction.set_rollback(True)
    return response, writes(ctx.captured_queries)


@pytest.mark.slow
@pytest.mark.parametrize("username", PERSONAS)
def test_every_api_field_refuses_hostile_values_with_the_api_error_body(admin_world, username):  # noqa: F811
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(get_user_model().objects.get(username=username))
    failures = []
    ops = operations()
    assert len(ops) >= 7  # the applications of each type, the token, the renewal and the completion requests
    for method, path, fields in ops:
        url, body = concrete(path), plausible_body(fields)
        for name in fields:
            for label, value in HOSTILE.items():
                cache.clear()  # the token endpoint's throttle
                response, wrote = send(client, method, url, {**body, name: value})
                is_json = response.get("Content-Type", "").startswith("application/json")
                if response.status_code >= 500 or not is_json:
                    failures.append((path, name, label, response.status_code, is_json))
                elif label in REFUSED and (wrote or response.status_code not in (400, 403, 404)):
                    failures.append((path, name, label, response.status_code, wrote[:1]))
                elif label in REFUSED and response.status_code == 400 and name not in fields_named(response):
                    failures.append((path, name, label, "400 not naming the field", response.json()))
    assert failures == []


def test_a_body_over_the_upload_limit_gets_the_api_error_body(admin_world, settings):  # noqa: F811
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(get_user_model().objects.get(username="contractor"))
    big = json.dumps({"work_description": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1_000_000)})
    response = client.post("/api/v1/street-openings/", big, content_type="application/json")
    assert response.status_code == 413
    assert "larger than 12 MB" in response.json()["errors"][0]["message"]


@pytest.mark.parametrize("label", ["300 characters", "200 KB", "NUL", "lone surrogate"])
def test_the_token_endpoint_refuses_a_hostile_username_by_name(db, settings, label):
    settings.AXES_ENABLED = True  # the lockout bookkeeping is what once stored the username
    username = {"300 characters": "u" * 300, "200 KB": "u" * 200_000, "NUL": "a\x00b", "lone surrogate": "a\ud800b"}
    body = json.dumps({"username": username[label], "password": "wrong"})
    response = APIClient(raise_request_exception=False).post(
        "/api/v1/auth/token/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["username"]
