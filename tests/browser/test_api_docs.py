"""The API's ReDoc and Swagger pages render under the site's CSP (ReDoc showed "Something went wrong")."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_redoc_renders_the_reference_under_the_csp(page, live_server):
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/api/redoc/")
    expect(page.get_by_role("heading", name="Theresa Permits API").first).to_be_visible(timeout=20000)
    expect(page.get_by_text("Something went wrong")).to_have_count(0)
    # ReDoc's own "powered by" logo is on its CDN: the CSP refuses it, as it should (no CDN); nothing else is refused.
    assert not [m for m in refused if "cdn.redoc.ly/redoc/logo-mini.svg" not in m], refused


def test_swagger_renders_with_the_token_instructions(page, live_server):
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.get_by_text("Signing in with a token.").first).to_be_visible(timeout=20000)
