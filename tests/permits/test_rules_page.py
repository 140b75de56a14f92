"""The public rules page states the readings the Village chose (issue: the law, whole)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_anyone_reads_how_the_village_counts_time(client, django_assert_max_num_queries):
    """Two queries for the time readings, one for the Board's § 66.0627(4) period in force."""
    with django_assert_max_num_queries(3):
        response = client.get(reverse("permits:rules"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Wis. Stat. § 990.001(4)(a)" in html
    assert "Saturday at 10:00 a.m. with 24 hours to act runs to Monday at 10:00 a.m." in html
    assert "SNOW_HOURS_ARE_CLOCK_HOURS" in html and "Set now: the statute&#x27;s reading" in html


def test_the_page_says_when_the_attorney_chose_clock_hours_for_snow(client, settings):
    settings.SNOW_HOURS_ARE_CLOCK_HOURS = True
    html = client.get(reverse("permits:rules")).content.decode()
    assert "Set now: clock hours" in html


def test_every_page_links_to_the_rules(client):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("permits:rules")}"' in html


def test_the_rules_page_takes_no_post(client):
    assert client.post(reverse("permits:rules")).status_code == 405


def test_the_rules_page_states_the_readings_of_notices_bonds_orders_and_terraces(client, db):
    page = client.get("/rules/").content.decode()
    for section in ("When a notice is given", "Presumed receipt", "§ 303-5I", "§ 303-9B", "§ 303-3C", "§ 303-15H"):
        assert section in page, section
