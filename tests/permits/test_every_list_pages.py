"""Every list page, list API and report the bench measures (bench/pages.py, the same list) runs the same
number of queries (at most 15) with four times the rows, and pages with a cap (no whole-table count, no deep OFFSET).
The rows come from the bench's seeder (bench/seed.py): permits of every type in every status, payments, street
openings, sidewalk permits, parcels, charges, hearings, cases, Board records."""

import os
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bench.pages import pages, personas
from bench.seed import seed as bench_seed
from permits.ledger import tax_roll
from permits.models import Permit
from permits.paging import MAX_PAGES, CappedPaginator

pytestmark = pytest.mark.django_db


def seed(**options):
    with open(os.devnull, "w") as out:
        bench_seed(**options, out=out)
    year = timezone.localdate().year
    tax_roll.build_tax_roll(year=year, today=date(year, 11, 1))  # the draft roll's page lists lines, as in the bench


def counts(client) -> dict[str, tuple[int, int]]:
    """Each list page's and report's (status, queries)."""
    people = personas()
    out = {}
    for kind, name, persona, url in pages(people):
        if kind not in ("list", "report"):
            continue
        client.force_login(people[persona])
        client.get(url)  # warm (sessions, content types)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        out[name] = (response.status_code, len(ctx.captured_queries))
    return out


# The Board queue reads each kind of matter that has something waiting (one query, and its facts' few), so its count
# is bounded by the number of kinds the parts bring to the Board (17 with § 66.0703 and § 303-4H(4)), not by rows.
CEILING = {"Board queue": 20}


@pytest.mark.slow
def test_every_list_the_bench_measures_runs_the_same_queries_with_four_times_the_rows(client):
    # Enough rows that every list and every section of a page has some (an empty section runs no query: 60 permits
    # made no street use event under way), then four times as many.
    seed(permits=150)
    seed(permits=150, more="A")
    # Every applicant a Brandt, so that the searches for "Brandt" fill more than a page here too: the admin lists a
    # search that fits on one page without paging it (Django's changelist: one query fewer, whatever the table holds).
    get_user_model().objects.filter(permits__isnull=False).update(last_name="Brandt")
    few = counts(client)
    seed(permits=900, more="B")
    assert Permit.objects.count() == 1200
    many = counts(client)
    assert len(many) >= 50  # every list page and report of the bench, not a few of them
    assert {name: status for name, (status, _) in many.items() if status != 200} == {}
    assert {name: (few[name][1], q) for name, (_, q) in many.items() if q != few[name][1]} == {}
    assert {name: q for name, (_, q) in many.items() if q > CEILING.get(name, 15)} == {}


def test_pages_are_capped_and_counted_over_the_cap_only():
    with open(os.devnull, "w") as out:
        bench_seed(permits=60, out=out)
    qs = Permit.objects.order_by("-created_at")
    capped = CappedPaginator(qs, 1)  # 60 pages of one row: past the cap of 40
    assert capped.num_pages == MAX_PAGES and capped.capped
    assert capped.get_page(1000).number == MAX_PAGES  # a deeper page is the last capped one
    with CaptureQueriesContext(connection) as ctx:
        assert CappedPaginator(qs, 1).count == MAX_PAGES
    assert "LIMIT 41" in ctx.captured_queries[0]["sql"]  # the count reads at most the cap and one more row
    whole = CappedPaginator(qs, 2)  # 30 pages: under the cap, exact
    assert whole.num_pages == 30 and not whole.capped
