"""Issue 13: every list page and list API runs the same number of queries (at most 15) with four times the rows, and
pages with a cap (no whole-table count, no deep OFFSET). The rows come from the bench's seeder (manage.py seed_bench):
permits of every type in every status, payments, street openings, sidewalk permits, parcels, charges, hearings."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from permits.models import Organization, Permit
from permits.paging import MAX_PAGES, CappedPaginator

pytestmark = pytest.mark.django_db

LISTS = [
    ("clerk", "/office/"),
    ("clerk", "/office/?status=issued"),
    ("contractor", "/permits/"),
    ("clerk", "/charges/"),
    ("clerk", "/charges/?q=Brandt"),
    ("clerk", "/hearings/"),
    ("clerk", "/tax-roll/"),
    ("inspector", "/field/"),
    ("inspector", "/sidewalks/inspections/"),
    ("clerk", "/sidewalks/parcels/?q=Brandt"),
    ("clerk", "/sidewalks/surveys/"),
    ("clerk", "/sidewalks/orders/"),
    ("clerk", "/sidewalks/snow/"),
    ("clerk", "/sidewalks/rubbish/"),
    ("clerk", "/api/v1/permits/"),
    ("contractor", "/api/v1/permits/"),
    ("contractor", "/api/v1/street-openings/"),
    ("clerk", "/api/v1/sidewalk-permits/"),
    ("clerk", "/api/v1/parcels/?search=Brandt"),
    ("admin", "/admin/permits/permit/"),
    ("admin", "/admin/permits/permit/?q=Brandt"),
    ("admin", "/admin/permits/payment/"),
    ("admin", "/admin/permits/parcel/?q=Brandt"),
    ("admin", "/admin/permits/specialcharge/"),
]


def persona(name):
    User = get_user_model()
    if name == "admin":
        return User.objects.get_or_create(username="bench-admin", defaults={"is_staff": True, "is_superuser": True})[0]
    if name == "contractor":
        org = Organization.objects.annotate(n=Count("permits")).order_by("-n").first()
        return User.objects.filter(memberships__organization=org).order_by("pk").first()
    return User.objects.get(username={"clerk": "bench-clerk", "inspector": "bench-dpw_inspector"}[name])


def counts(client):
    out = {}
    for who, url in LISTS:
        client.force_login(persona(who))
        client.get(url)  # warm (sessions, content types)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, url
        out[(who, url)] = len(ctx.captured_queries)
    return out


def test_every_list_runs_the_same_queries_with_three_times_the_rows(client):
    call_command("seed_bench", permits=30, stdout=open("/dev/null", "w"))
    call_command("seed_bench", permits=30, more="A", stdout=open("/dev/null", "w"))  # every list has rows now
    few = counts(client)
    call_command("seed_bench", permits=120, more="B", stdout=open("/dev/null", "w"))
    assert Permit.objects.count() == 180
    many = counts(client)
    assert many == few
    assert max(many.values()) <= 15, {k: v for k, v in many.items() if v > 15}


def test_pages_are_capped_and_counted_over_the_cap_only():
    call_command("seed_bench", permits=60, stdout=open("/dev/null", "w"))
    qs = Permit.objects.order_by("-created_at")
    capped = CappedPaginator(qs, 1)  # 60 pages of one row: past the cap of 40
    assert capped.num_pages == MAX_PAGES and capped.capped
    assert capped.get_page(1000).number == MAX_PAGES  # a deeper page is the last capped one
    with CaptureQueriesContext(connection) as ctx:
        assert CappedPaginator(qs, 1).count == MAX_PAGES
    assert "LIMIT 41" in ctx.captured_queries[0]["sql"]  # the count reads at most the cap and one more row
    whole = CappedPaginator(qs, 2)  # 30 pages: under the cap, exact
    assert whole.num_pages == 30 and not whole.capped
