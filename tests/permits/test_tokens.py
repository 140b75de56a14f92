"""/account/tokens/: the owner lists, creates and revokes their API token (OWASP ASVS V3.5.2/V3.5.3 and
permits/accounts/views.py): the key is shown once, when created, never again; afterwards only its last 4."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

URL = reverse("permits:tokens")


def test_owasp_v3_5_tokens_page_needs_a_login(client):
    response = client.get(URL)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert client.post(URL, {"action": "create"}).status_code == 302
    assert not Token.objects.exists()


def test_owasp_v3_5_create_shows_the_key_once_then_only_its_last_four(client, resident):
    client.force_login(resident)
    assert "You have no API token" in client.get(URL).content.decode()
    created = client.post(URL, {"action": "create"})
    key = Token.objects.get(user=resident).key
    assert created.status_code == 200 and key in created.content.decode()
    assert "no-store" in created["Cache-Control"]
    later = client.get(URL).content.decode()
    assert key not in later
    assert f"…{key[-4:]}" in later
    # The key works against the API.
    api = client.__class__().get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {key}")
    assert api.status_code == 200


def test_owasp_v3_5_revoke_deletes_the_token_and_the_api_refuses_it(client, resident):
    key = Token.objects.create(user=resident).key
    client.force_login(resident)
    response = client.post(URL, {"action": "revoke"}, follow=True)
    assert "revoked" in response.content.decode()
    assert not Token.objects.filter(user=resident).exists()
    api = client.__class__().get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {key}")
    assert api.status_code == 401


def test_owasp_v3_5_create_again_replaces_the_old_key(client, resident):
    old = Token.objects.create(user=resident).key
    client.force_login(resident)
    client.post(URL, {"action": "create"})
    assert Token.objects.filter(user=resident).count() == 1
    assert Token.objects.get(user=resident).key != old


@pytest.mark.parametrize("who", ["clerk", "inspector", "contractor", "contractor_staff", "outsider"])
def test_owasp_v3_5_each_user_sees_and_revokes_only_their_own_token(who, persona, client, resident):
    theirs = Token.objects.create(user=resident)
    client.force_login(persona(who))
    html = client.get(URL).content.decode()
    assert theirs.key not in html and f"…{theirs.key[-4:]}" not in html
    assert "You have no API token" in html
    client.post(URL, {"action": "revoke"})
    assert Token.objects.filter(pk=theirs.pk).exists()


def test_owasp_v3_5_an_unknown_action_changes_nothing(client, resident):
    token = Token.objects.create(user=resident)
    client.force_login(resident)
    response = client.post(URL, {"action": "delete-everything"}, follow=True)
    assert "Choose Create or Revoke" in response.content.decode()
    assert Token.objects.get(user=resident) == token


def test_the_account_menu_links_to_the_tokens_page(client, resident):
    client.force_login(resident)
    assert f'href="{URL}"' in client.get(reverse("permits:my_applications")).content.decode()
