"""403 and 404 pages inside the site's layout, saying what the user may do instead."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_403_is_in_the_layout_with_the_reason_and_the_way_back(client, dpw_director):
    client.force_login(dpw_director)
    response = client.get(reverse("ledger:hearings"))  # the clerk records hearings
    page = response.content.decode()
    assert response.status_code == 403
    assert 'id="main"' in page and "Theresa Permits" in page  # the site's header and main landmark
    assert "You may not record Board hearings" in page
    assert reverse("permits:start") in page and reverse("permits:search") in page


def test_403_for_an_applicant_offers_their_applications_not_staff_pages(client, resident):
    client.force_login(resident)
    response = client.get(reverse("permits:office"))
    page = response.content.decode()
    assert response.status_code == 403
    assert reverse("permits:my_applications") in page
    assert reverse("permits:search") not in page


def test_404_is_in_the_layout_and_offers_search_to_staff(client, clerk):
    client.force_login(clerk)
    response = client.get("/permits/SO-1999-0000/")
    page = response.content.decode()
    assert response.status_code == 404
    assert 'id="main"' in page and "We could not find that page" in page
    assert reverse("permits:search") in page


def test_404_for_the_public_offers_to_log_in(client):
    response = client.get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert reverse("account_login") in page and reverse("home") in page
