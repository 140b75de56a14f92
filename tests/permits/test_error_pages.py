"""The designed error pages: the demo (DEBUG on) shows the 404 a resident would see, not Django's list of URLs, and
a wrong method gets a page that says what happened instead of an empty 405."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_missing_page_in_the_demo_is_the_designed_404(client, settings):
    settings.DEBUG = True
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "We could not find that page" in page and "/no-such-page/" in page
    assert "URLconf" not in page


def test_a_developer_may_ask_for_djangos_technical_404(client, settings):
    settings.DEBUG = True
    settings.DESIGNED_ERROR_PAGES = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "URLconf" in response.content.decode()


def test_a_wrong_method_gets_a_page_that_says_why_and_keeps_allow(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("resident", password="x" * 12))
    response = client.get(reverse("permits:delete_draft", args=[1]))
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert "cannot be used that way" in page and "it accepts POST" in page


def test_an_api_404_stays_json(client, settings):
    settings.DEBUG = True
    response = client.get("/api/v1/permits/NO-SUCH/")
    assert response.status_code in (401, 403, 404)
    assert "We could not find that page" not in response.content.decode()
