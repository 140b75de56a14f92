"""ReDoc and Swagger working under the CSP, token use documented on the docs page."""

import json
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_redoc_has_no_inline_script_and_no_web_fonts_and_its_csp_allows_only_its_styles_and_worker(client):
    response = client.get(reverse("api-redoc"))
    page = response.content.decode()
    assert response.status_code == 200
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
    assert "fonts.googleapis.com" not in page
    csp = response["Content-Security-Policy"]
    assert "worker-src blob:" in csp and "'unsafe-inline'" in csp.split("style-src")[1].split(";")[0]
    assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]


def test_other_pages_keep_the_strict_style_policy(client):
    csp = client.get(reverse("home"))["Content-Security-Policy"]
    assert "'unsafe-inline'" not in csp


def test_the_token_call_is_documented_json_first_with_how_to_send_the_token(client):
    schema = json.loads(client.get(reverse("api-schema"), {"format": "json"}).content)
    body = schema["paths"]["/api/v1/auth/token/"]["post"]["requestBody"]["content"]
    assert next(iter(body)) == "application/json"
    assert "Authorization: Token" in schema["info"]["description"]


def test_the_token_call_takes_json(client, resident):
    resident.set_password("correct-horse-battery")
    resident.save()
    response = client.post(
        reverse("api-token"),
        data=json.dumps({"username": resident.username, "password": "correct-horse-battery"}),
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["token"]
