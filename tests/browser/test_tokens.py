"""The API token page in a real browser: create (the key shown once), see only its last four, revoke. axe-core on
every state of the page (WCAG 2.1 A/AA)."""

import pytest
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_owasp_v3_5_a_resident_creates_sees_and_revokes_an_api_token(page, live_server, login, axe_check, resident):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=resident, email=resident.email, verified=True, primary=True)  # mandatory
    login(page, "resident")
    page.get_by_role("link", name="API token").click()
    expect(page.get_by_role("heading", name="API token", exact=True)).to_be_visible()
    expect(page.get_by_text("You have no API token")).to_be_visible()
    axe_check(page, "tokens: none")

    page.get_by_role("button", name="Create a token").click()
    key = Token.objects.get(user=resident).key
    expect(page.get_by_role("textbox", name="Token")).to_have_value(key)
    axe_check(page, "tokens: the new key")

    page.goto(live_server.url + "/account/tokens/")
    expect(page.get_by_text(f"…{key[-4:]}")).to_be_visible()
    assert key not in page.content()
    axe_check(page, "tokens: listed")

    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("Your API token was revoked")).to_be_visible()
    axe_check(page, "tokens: revoked")
    assert not Token.objects.filter(user=resident).exists()
