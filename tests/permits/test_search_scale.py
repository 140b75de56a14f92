"""Every search box matches each table through its own (trigram) index and by id, finds exactly what
`icontains` over the joins finds, and makes the same number of queries however many rows match."""

from datetime import date
from functools import reduce
from operator import or_

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits import text_search
from permits.admin.core import PermitAdmin
from permits.ledger.models import SpecialCharge
from permits.models import Parcel, Permit
from tests.factories import OrganizationFactory, ParcelFactory, PermitFactory, StreetFactory, UserFactory
from tests.permits.ledger.conftest import make_charge

pytestmark = pytest.mark.django_db

TERMS = ["brandt", "BRANDT", "Elm", "0001", "266-9999", "olga", "no such thing", "%", "_", "a"]


def icontains_over_the_joins(model, term, fields, exact=()):
    condition = reduce(or_, [Q(**{f"{f}__icontains": term}) for f in fields])
    for f in exact:
        condition |= Q(**{f"{f}__iexact": term})
    return set(model.objects.filter(condition).values_list("pk", flat=True))


def found_by(model, term, fields, exact=()):
    return set(
        model.objects.filter(text_search.matching(model, term, fields, exact=exact)).values_list("pk", flat=True)
    )


@pytest.fixture
def town(db):
    brandt = UserFactory(username="pbrandt", first_name="Pat", last_name="Brandt", email="pat@brandt.example")
    elm, oak = StreetFactory(name="Elm Street"), StreetFactory(name="Oak Brandt Road")
    parcels = [
        ParcelFactory(owner_name="Brandt Family 1", street=elm),
        ParcelFactory(owner_name="Nelson Family 2", street=oak, site_address="5 Oak Brandt Road"),
        ParcelFactory(owner_name="Owner, Olga", street=elm),
        ParcelFactory(owner_name="100% Owner_s", street=elm, tax_key="266-0001-0001"),
    ]
    org = OrganizationFactory(name="Brandt Excavating LLC")
    PermitFactory(applicant=brandt, street=elm, parcel=parcels[2])
    PermitFactory(organization=org, street=elm, location_description="Behind 7 Elm")
    PermitFactory(street=oak, parcel=parcels[0], location_description="Corner of Oak")
    PermitFactory(street=elm, parcel=None)
    for parcel in parcels:
        make_charge(parcel, description=f"Snow removed at {parcel.site_address}")
    return parcels


@pytest.mark.parametrize("term", TERMS)
def test_matching_finds_exactly_what_icontains_over_the_joins_finds(town, term):
    charge_fields = ["parcel__tax_key", "parcel__site_address", "parcel__owner_name"]
    assert found_by(SpecialCharge, term, charge_fields, exact=["number"]) == icontains_over_the_joins(
        SpecialCharge, term, charge_fields, exact=["number"]
    )
    permit_fields = PermitAdmin.search_fields
    assert found_by(Permit, term, permit_fields) == icontains_over_the_joins(Permit, term, permit_fields)
    parcel_fields = ["site_address", "owner_name", "tax_key"]
    assert found_by(Parcel, term, parcel_fields) == icontains_over_the_joins(Parcel, term, parcel_fields)


@pytest.mark.parametrize("term", ["brandt", "Elm", "a"])
def test_many_related_matches_are_matched_by_a_subquery_with_the_same_result(town, term, monkeypatch):
    monkeypatch.setattr(text_search, "IDS_INLINE", 1)
    fields = PermitAdmin.search_fields
    assert found_by(Permit, term, fields) == icontains_over_the_joins(Permit, term, fields)


def test_a_column_two_relations_away_is_matched_by_id_too(town):
    """A charge by its parcel's street's name: parcels are matched by street ids, charges by parcel ids."""
    fields = ["parcel__street__name"]
    for term in ("oak brandt", "no such street"):
        assert found_by(SpecialCharge, term, fields) == icontains_over_the_joins(SpecialCharge, term, fields)


def test_a_charge_is_found_by_its_exact_number_only(town):
    charge = SpecialCharge.objects.first()
    assert found_by(SpecialCharge, charge.number.lower(), [], exact=["number"]) == {charge.pk}
    assert found_by(SpecialCharge, charge.number[:-1], [], exact=["number"]) == set()


def test_every_term_must_match_as_the_admin_and_drf_split_them(town):
    terms = text_search.search_terms('brandt "family 1"')
    assert terms == ["brandt", "family 1"]
    found = text_search.filter_every_term(Parcel.objects.all(), terms, ["owner_name", "site_address"])
    assert [p.owner_name for p in found] == ["Brandt Family 1"]


def test_admin_permit_search_finds_the_permit_of_the_501st_matching_person(client):
    """The earlier search kept the first 500 matching people, and so lost the permits of the others."""
    get_user_model().objects.bulk_create(
        get_user_model()(username=f"kramer{n}", last_name="Kramer", email=f"k{n}@example.com") for n in range(501)
    )
    last = get_user_model().objects.filter(last_name="Kramer").order_by("-pk").first()
    permit = PermitFactory(applicant=last)
    client.force_login(get_user_model().objects.create_superuser("t-admin", "t-admin@example.org", "x"))
    page = client.get(reverse("admin:permits_permit_changelist"), {"q": "kramer"})
    assert permit.number in page.content.decode()


def _queries(client, url, params):
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url, params).status_code == 200
    return len(seen)


def _grow(n):
    brandt = UserFactory(first_name="Pat", last_name="Brandt")
    for i in range(n):
        parcel = ParcelFactory(owner_name=f"Brandt Family {i}")
        make_charge(parcel, today=date(2026, 3, 2))
        PermitFactory(applicant=brandt, parcel=parcel)


@pytest.mark.parametrize(
    ("who", "url", "params"),
    [
        ("clerk", "ledger:charges", {"q": "Brandt"}),
        ("clerk", "sidewalks:parcel_search", {"q": "Brandt"}),
        ("superuser", "admin:permits_permit_changelist", {"q": "Brandt"}),
        ("superuser", "admin:permits_parcel_changelist", {"q": "Brandt"}),
        ("clerk", "permits:search", {"q": "Brandt"}),
        ("clerk", "permits:search", {"q": "Brandt", "in": "permits"}),
        ("clerk", "permits:search", {"q": "Brandt", "in": "charges"}),
    ],
)
@pytest.mark.slow
def test_a_search_makes_the_same_queries_however_many_rows_match(
    client, clerk, who, url, params, django_assert_max_num_queries
):
    user = clerk if who == "clerk" else get_user_model().objects.create_superuser("t-su", "t-su@example.org", "x")
    client.force_login(user)
    _grow(6)  # more than the all-sources page's five rows a source, so its capped count runs too
    few = _queries(client, reverse(url), params)
    _grow(30)
    with django_assert_max_num_queries(few):
        client.get(reverse(url), params)
    assert few <= 15  # the all-sources page too: its eight sources' id lookups are one query


@pytest.mark.parametrize("few_ids", [200, 1])  # 1: every table matching more than one row left as its subquery
@pytest.mark.parametrize("q", ["Brandt", "brandt family", "0001", "no such thing", "Pat"])
def test_the_all_sources_page_finds_what_each_source_finds_alone(
    clerk, q, few_ids, monkeypatch, django_assert_max_num_queries
):
    from permits.workspace import search
    from permits.workspace.search import ROWS_PER_SOURCE, search_all, sources_for

    monkeypatch.setattr(search, "FEW_IDS", few_ids)
    _grow(7)
    alone = {s.key: [s.row(r) for r in s.find(q)[:ROWS_PER_SOURCE]] for s in sources_for(clerk)}
    with django_assert_max_num_queries(len(alone) + 2):  # a page a source, their ids at once, the clerk's roles
        together = {source.key: hits for source, _, hits, _, _ in search_all(clerk, q)}
    assert together == alone


def test_the_api_parcel_search_makes_the_same_queries_however_many_rows_match(clerk, django_assert_max_num_queries):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(clerk)
    _grow(2)
    with CaptureQueriesContext(connection) as few:
        api.get("/api/v1/parcels/", {"search": "brandt family"})
    _grow(60)
    with django_assert_max_num_queries(len(few)):
        body = api.get("/api/v1/parcels/", {"search": "brandt family"}).json()
    assert body["count"] == 62 and len(body["results"]) == 50


def test_parcel_searches_list_by_address(client, clerk):
    for address in ("30 Elm Street", "10 Oak Street", "20 Birch Street"):
        ParcelFactory(site_address=address, owner_name="Brandt, Ann")
    client.force_login(clerk)
    page = client.get(reverse("sidewalks:parcel_search"), {"q": "brandt"}).content.decode()
    assert page.index("10 Oak Street") < page.index("20 Birch Street") < page.index("30 Elm Street")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="word starts are a PostgreSQL rule; SQLite: icontains")
def test_staff_search_words_begin_words_on_postgresql(client, clerk):
    UserFactory(username="carol1", first_name="Carol", last_name="Kramer", email="carol@example.com")
    client.force_login(clerk)

    def people(q):
        return client.get(reverse("permits:search"), {"q": q, "in": "people"}).content.decode()

    assert "Carol Kramer" in people("kram car")
    assert "Carol Kramer" not in people("ramer")  # inside a word (and no identifier holds it), not its start


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes exist on PostgreSQL only")
def test_every_searched_column_has_its_trigram_index_on_postgresql():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%'")
        names = {row[0] for row in cursor.fetchall()}
    assert {
        "parcel_tax_key_trgm",
        "parcel_address_trgm",
        "parcel_owner_trgm",
        "charge_number_trgm",
        "charge_description_trgm",
        "street_name_trgm",
        "user_first_name_trgm",
        "user_last_name_trgm",
        "user_email_trgm",
        "user_username_trgm",
        "organization_name_trgm",
        "permit_number_trgm",
        "permit_location_trgm",
    } <= names


@pytest.mark.skipif(connection.vendor != "postgresql", reason="word starts are a PostgreSQL rule; SQLite: icontains")
def test_a_word_start_is_one_condition_that_the_trigram_index_finds_on_postgresql():
    """Matching "a word begins with" is one condition on UPPER(col::text), which the column's trigram index finds and
    the planner estimates (it was contains AND a regular expression, estimated a tenth of its rows)."""
    for owner in ("Brandt, Ann", "Smith-Brandt, Lee", "BRANDT TRUST", "Ebrandt, Joe", "Brand, Al"):
        ParcelFactory(owner_name=owner)
    found = Parcel.objects.filter(owner_name__word_starts="brandt")
    assert sorted(found.values_list("owner_name", flat=True)) == ["BRANDT TRUST", "Brandt, Ann", "Smith-Brandt, Lee"]
    with connection.cursor() as cursor:
        # So few rows that a scan is cheaper: ask whether an index can find them at all (no other index of the table
        # can take the condition; the list's order, and its join, left out).
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
    plan = found.order_by().values("pk").explain()
    assert "parcel_owner_trgm" in plan and "\\mBRANDT" in plan, plan
    assert "~*" not in plan  # one condition: no case-insensitive regular expression beside a LIKE


@pytest.mark.skipif(connection.vendor != "postgresql", reason="word starts are a PostgreSQL rule; SQLite: icontains")
def test_the_ids_are_fetched_contains_first_and_the_page_keeps_the_word_start_alone_on_postgresql(clerk, monkeypatch):
    """The query that fetches each table's ids guards the word start with "contains" (a cheap LIKE, and the
    trigram index), while a page that matches by subquery keeps the word start alone (its estimate is right)."""
    from permits.workspace import search

    monkeypatch.setattr(search, "FEW_IDS", 1)  # every table matching more than one row left as its subquery
    _grow(3)
    owner = 'UPPER("permits_parcel"."owner_name"::text)'
    with CaptureQueriesContext(connection) as queries:
        found = {source.key: hits for source, _, hits, _, _ in search.search_all(clerk, "Brandt")}
    assert found["parcels"] and found["charges"]
    probes = [q["sql"] for q in queries if "UNION ALL" in q["sql"]]
    assert len(probes) == 1 and f"{owner} LIKE UPPER('%Brandt%') AND {owner} ~" in probes[0]
    pages = [q["sql"] for q in queries if q["sql"].startswith('SELECT "sidewalks_specialcharge"."id"')]
    column = '"owner_name"::text)'  # in the subquery, under its alias (U0)
    assert len(pages) == 1 and f"{column} ~" in pages[0] and f"{column} LIKE" not in pages[0]
