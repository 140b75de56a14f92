"""Staff find any permit, parcel, person, company, charge or case from the search box."""

import re
from datetime import date

import pytest
from django.urls import reverse

from permits.models import Permit, Status
from permits.workspace import search
from tests.factories import OrganizationFactory, ParcelFactory, PermitFactory, UserFactory

pytestmark = pytest.mark.django_db


def page_of(client, q, source=""):
    response = client.get(reverse("permits:search"), {"q": q, "in": source})
    assert response.status_code == 200
    return response.content.decode()


def found(client, q, source=""):
    """The labels of the records found (not the page, which repeats what was typed)."""
    return " | ".join(
        re.findall(r'<li class="list-group-item"><a href="[^"]+">([^<]+)</a>', page_of(client, q, source))
    )


@pytest.fixture
def world(db):
    kramer = UserFactory(username="ckramer", first_name="Carol", last_name="Kramer", email="carol@example.com")
    org = OrganizationFactory(name="Brandt Excavating LLC")
    parcel = ParcelFactory(tax_key="266-1116-1000", site_address="120 Henni Street", owner_name="Anderson, Rita")
    permit = PermitFactory(applicant=kramer, organization=org, parcel=parcel, number="SO-2026-0042")
    Permit.objects.filter(pk=permit.pk).update(status=Status.SUBMITTED)
    return {"kramer": kramer, "org": org, "parcel": parcel, "permit": permit}


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("SO-2026-0042", "SO-2026-0042"),  # a permit by its number
        ("0042", "SO-2026-0042"),  # a part of the number
        ("266-1116-1000", "266-1116-1000: 120 Henni Street"),  # a parcel by tax key
        ("120 Henni", "266-1116-1000: 120 Henni Street"),  # by address
        ("Kramer", "Carol Kramer"),  # a person by name
        ("carol@example.com", "Carol Kramer"),  # by email
        ("Brandt", "Brandt Excavating LLC"),  # a company
    ],
)
def test_clerk_finds_by_number_address_tax_key_name_or_company(client, clerk, world, typed, expected):
    client.force_login(clerk)
    assert expected in found(client, typed)


def test_a_permit_is_found_by_its_applicants_name_and_its_company(client, clerk, world):
    client.force_login(clerk)
    assert "SO-2026-0042" in found(client, "Kramer", "permits")
    assert "SO-2026-0042" in found(client, "Brandt Excavating", "permits")


def test_a_charge_is_found_by_tax_key(client, clerk, world):
    from permits.ledger import services as ledger

    charge = ledger.add_charge(
        parcel=world["parcel"],
        source="rubbish",
        route="special_charge_66_0627",
        citation="§ 303-2",
        amount=75,
        description="Rubbish removed",
        incurred_on=date(2026, 5, 1),
        by=clerk,
    )
    client.force_login(clerk)
    assert charge.number in found(client, "266-1116-1000", "charges")


def test_drafts_are_not_found(client, clerk, world):
    Permit.objects.filter(pk=world["permit"].pk).update(status=Status.DRAFT)
    client.force_login(clerk)
    assert "SO-2026-0042" not in found(client, "SO-2026-0042", "permits")


def test_nothing_typed_finds_nothing_and_explains_what_to_type(client, clerk, world):
    client.force_login(clerk)
    page = page_of(client, "   ")
    assert "Type a permit number" in page and "SO-2026-0042" not in page


def test_search_is_for_staff_only(client, resident, contractor):
    for user in (resident, contractor):
        client.force_login(user)
        assert client.get(reverse("permits:search"), {"q": "SO"}).status_code == 403


def test_every_staff_role_may_search(client, world, dpw_director, inspector, building_inspector, police_chief):
    for user in (dpw_director, inspector, building_inspector, police_chief):
        client.force_login(user)
        assert "SO-2026-0042" in found(client, "SO-2026-0042")


def test_the_query_is_trimmed_bounded_and_nul_free():
    assert search.clean_query("  a\x00b   c ") == "ab c"
    assert len(search.clean_query("x" * 500)) == search.MAX_QUERY


def test_an_unknown_source_searches_everything(client, clerk, world):
    client.force_login(clerk)
    page = page_of(client, "SO-2026-0042", "nonsense")
    assert "Permits: 1 found" in page


def test_search_one_source_is_paginated_and_its_queries_do_not_grow(client, clerk, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(3):
        Permit.objects.filter(pk=PermitFactory(location_description="Elm").pk).update(status=Status.SUBMITTED)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as few:
        found(client, "Elm", "permits")
    for _ in range(30):
        Permit.objects.filter(pk=PermitFactory(location_description="Elm").pk).update(status=Status.SUBMITTED)
    with django_assert_max_num_queries(len(few)):
        page = page_of(client, "Elm", "permits")
    assert "Page 1 of 2" in page


def test_search_one_source_lists_its_first_pages_then_asks_for_more_words(client, clerk, monkeypatch):
    """A source's own page counts as far as SEARCH_PAGES pages (a surname a tenth of the parcels bear would
    make the count grow with the data), then says more match; a deeper page number shows the last counted page."""
    from permits import paging
    from permits.paging import SEARCH_PAGES

    monkeypatch.setattr(paging, "PAGE_SIZE", 2)
    for _ in range(2 * SEARCH_PAGES + 1):
        Permit.objects.filter(pk=PermitFactory(location_description="Elm").pk).update(status=Status.SUBMITTED)
    client.force_login(clerk)
    page = page_of(client, "Elm", "permits")
    assert f"Page 1 of {SEARCH_PAGES}+ (more match: add words to narrow the search)" in page
    deeper = client.get(reverse("permits:search"), {"q": "Elm", "in": "permits", "page": SEARCH_PAGES + 3})
    assert deeper.context["page"].number == SEARCH_PAGES
    for _ in range(2 * SEARCH_PAGES):  # exactly SEARCH_PAGES full pages: counted, not capped
        Permit.objects.filter(pk=PermitFactory(location_description="Oak").pk).update(status=Status.SUBMITTED)
    exact = client.get(reverse("permits:search"), {"q": "Oak", "in": "permits"}).context["page"].paginator
    assert exact.count == 2 * SEARCH_PAGES and not exact.capped


def test_search_everything_queries_do_not_grow(client, clerk, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(7):
        Permit.objects.filter(pk=PermitFactory(location_description="Oak").pk).update(status=Status.SUBMITTED)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as few:
        found(client, "Oak")
    for _ in range(20):
        Permit.objects.filter(pk=PermitFactory(location_description="Oak").pk).update(status=Status.SUBMITTED)
    with django_assert_max_num_queries(len(few)):
        page = page_of(client, "Oak")
    assert "Permits: more than 5 found" in page
    assert "All permits matching “Oak”" in page


def test_the_header_has_the_search_box_on_staff_pages_only(client, clerk, resident):
    client.force_login(clerk)
    assert 'id="header-search"' in client.get(reverse("permits:office")).content.decode()
    assert 'id="admin-search"' in client.get(reverse("admin:index")).content.decode()
    client.force_login(resident)
    assert 'id="header-search"' not in client.get(reverse("permits:my_applications")).content.decode()
