"""The Village office's address, phone, email and hours (permits/village_office.py): one record the Clerk-Treasurer
keeps on a page, shown on every page that sends a person to the office."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import VillageOffice
from permits.village_office import office_facts, phone_is_reachable, update_office_facts

PAGE = reverse("permits:village_office")
pytestmark = pytest.mark.django_db

FACTS = {
    "address": "Village Hall, 202 S. Milwaukee St., Theresa, WI 53091",
    "phone": "(920) 555-0142",
    "email": "clerk@example.org",
    "hours": "Monday to Friday, 8 am to 4 pm\nClosed on legal holidays",
}


@pytest.mark.parametrize(
    ("phone", "reachable"),
    [("(920) 555-0142", True), ("1-920-555-0142", True), ("920 555 014", False), ("920-555-01420", False)],
)
def test_303_5f_the_phone_needs_ten_digits_with_the_area_code(phone, reachable):
    assert phone_is_reachable(phone) is reachable


def test_before_the_clerk_saves_it_the_office_is_the_deployments_address(settings):
    facts = office_facts()
    assert facts.address == settings.VILLAGE_OFFICE and facts.phone == ""


def test_the_clerk_saves_the_offices_details_on_the_page_and_every_page_shows_them(client, clerk):
    client.force_login(clerk)
    response = client.post(PAGE, FACTS)
    assert response.status_code == 302
    facts = VillageOffice.objects.get()
    assert (facts.phone, facts.updated_by) == ("(920) 555-0142", clerk)
    client.logout()
    for url in (reverse("home"), reverse("permits:lookup")):
        page = client.get(url).content.decode()
        assert 'href="tel:+19205550142"' in page, url
        assert "Monday to Friday, 8 am to 4 pm" in page and "clerk@example.org" in page


def test_a_bad_phone_is_refused_naming_the_field_and_nothing_is_stored(client, clerk):
    client.force_login(clerk)
    response = client.post(PAGE, {**FACTS, "phone": "555-0142"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The phone number needs ten digits" in page and "§ 303-5F" in page
    assert not VillageOffice.objects.exists()


def test_the_address_is_required_on_every_path(clerk):
    with pytest.raises(RulesBroken) as refused:
        update_office_facts(by=clerk, **{**FACTS, "address": "  "})
    assert refused.value.violations[0].field == "address"


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "board_member", "resident"])
def test_only_the_clerk_may_change_the_offices_details(client, request, persona):
    user = request.getfixturevalue(persona)
    client.force_login(user)
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, FACTS).status_code == 403
    with pytest.raises(PermissionDenied):
        update_office_facts(by=user, **FACTS)
    assert not VillageOffice.objects.exists()


def test_a_visitor_is_sent_to_log_in(client):
    assert client.get(PAGE).status_code == 302


def test_a_second_save_changes_the_one_record(clerk):
    update_office_facts(by=clerk, **FACTS)
    update_office_facts(by=clerk, **{**FACTS, "phone": "920-555-0199"})
    assert VillageOffice.objects.count() == 1
    assert office_facts().phone == "920-555-0199"


def test_the_clerks_start_page_links_the_office_page(client, clerk):
    client.force_login(clerk)
    assert f'href="{PAGE}"' in client.get(reverse("admin:index")).content.decode()


def test_the_footer_of_every_page_shows_the_record_the_clerk_keeps_not_the_setting(client, clerk, settings):
    update_office_facts(by=clerk, **{**FACTS, "address": "Village Hall, 202 S. Milwaukee St."})
    page = client.get(reverse("permits:rules")).content.decode()
    footer = page[page.index("<footer") :]
    assert "Village Hall, 202 S. Milwaukee St." in footer
    assert settings.VILLAGE_OFFICE not in footer


def test_the_footer_reads_the_record_at_most_once_a_page(client):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()  # the worst case: the record is not in the cache yet
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("permits:rules"))
    office_reads = [q for q in queries.captured_queries if "villageoffice" in q["sql"]]
    assert len(office_reads) == 1
