"""The tax roll's pages at scale: the draft's stored lines a page at a time with their count and total from
one aggregate query, the held-back charges a page at a time without counting them, and the rolls' list with each
roll's count and total, all in a number of queries that does not grow with the lines or the charges held back."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.ledger.models import SpecialCharge, TaxRollBatch
from permits.ledger.services import mark_delinquent_charges
from permits.ledger.tax_roll import build_tax_roll
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, mail_letters, make_charge

pytestmark = pytest.mark.django_db
S = SpecialCharge.Status


def delinquent(n, clerk, amount="75.00"):
    """`n` delinquent snow-and-ice charges: each goes on the roll."""
    charges = [make_charge(ParcelFactory(), by=clerk, amount=amount) for _ in range(n)]
    for charge in charges:
        mail_letters(charge, charge.billed_on)
    mark_delinquent_charges(today=LATE)
    return charges


def held_back(n, clerk):
    """`n` delinquent sidewalk-repair charges that no Board hearing covered: § 66.0627(3)(b) holds each back (an older
    record, billed before the rule held billing back until the hearing)."""
    charges = [
        make_charge(ParcelFactory(), by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR, citation="§ 303-3B(1)")
        for _ in range(n)
    ]
    SpecialCharge.objects.filter(pk__in=[c.pk for c in charges]).update(status=S.DELINQUENT, delinquent_on=LATE)
    return charges


def roll_page(client, **query):
    return client.get(reverse("ledger:tax_roll", args=[2026]), query)


@pytest.mark.slow
def test_tax_roll_page_queries_do_not_grow_with_many_lines_and_many_held_back_charges(
    client, clerk, django_assert_max_num_queries
):
    delinquent(2, clerk)
    held_back(1, clerk)
    build_tax_roll(year=2026, today=LATE)
    client.force_login(clerk)
    with django_assert_max_num_queries(15) as few:
        assert roll_page(client).status_code == 200
    delinquent(60, clerk)  # more than a page of lines (50)
    held_back(30, clerk)  # more than a page of held-back charges (25)
    build_tax_roll(year=2026, today=LATE)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = roll_page(client)
    assert response.status_code == 200
    assert len(response.context["page"]) == 50 and response.context["page"].paginator.count == 62
    assert response.context["total"] == Decimal("75.00") * 62  # every line, not the page's
    assert len(response.context["held_back"].rows) == 25 and response.context["held_back"].has_next
    with django_assert_max_num_queries(len(few.captured_queries)):
        last = roll_page(client, page=2, held=2)
    assert len(last.context["page"]) == 12
    assert len(last.context["held_back"].rows) == 6 and not last.context["held_back"].has_next


def test_tax_roll_page_shows_the_held_back_charges_with_why_a_page_at_a_time(client, clerk):
    [on_roll] = delinquent(1, clerk)
    waiting = held_back(26, clerk)
    build_tax_roll(year=2026, today=LATE)
    client.force_login(clerk)
    first = roll_page(client).content.decode()
    assert on_roll.number in first and 'Charges</dt><dd class="col-sm-9">1, totalling $75' in first
    assert "§ 66.0627(3)(b)" in first  # each held-back charge says why, citing the statute
    assert "held=2" in first
    shown = [c.number for c in waiting if c.number in first]
    assert len(shown) == 25
    second = roll_page(client, held=2).content.decode()
    assert [c.number for c in waiting if c.number in second] == [c.number for c in waiting if c.number not in shown]
    assert roll_page(client, held="abc").status_code == 200 and roll_page(client, held="-1").status_code == 200


def test_tax_roll_page_never_counts_the_held_back_charges(client, clerk):
    """Counting them read every delinquent charge on every view; the last build says how many it held
    back."""
    delinquent(2, clerk)
    held_back(3, clerk)
    build_tax_roll(year=2026, today=LATE)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as queries:
        page = roll_page(client).content.decode()
    assert "1 held back" not in page and "3 held back" in page  # the build's run message
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert not [sql for sql in counts if '"sidewalks_specialcharge"."delinquent_on"' in sql]
    assert len(counts) == 1  # the lines' count and total, in one aggregate query


def test_a_certified_roll_shows_no_held_back_list(client, clerk):
    from permits.ledger.tax_roll import certify_tax_roll

    delinquent(1, clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    certify_tax_roll(batch=batch, by=clerk, today=LATE)
    held_back(2, clerk)
    client.force_login(clerk)
    response = roll_page(client)
    assert response.status_code == 200 and response.context["held_back"] is None
    assert "Held back" not in response.content.decode()


def test_tax_rolls_list_shows_each_rolls_count_and_total_in_fixed_queries(client, clerk, django_assert_max_num_queries):
    delinquent(2, clerk, amount="40.00")
    build_tax_roll(year=2026, today=LATE)
    TaxRollBatch.objects.create(year=2025)  # a roll with no line yet
    client.force_login(clerk)
    with django_assert_max_num_queries(15) as few:
        response = client.get(reverse("ledger:tax_rolls"))
    rows = {batch.year: (batch.line_count, batch.total) for batch in response.context["page"]}
    assert rows == {2026: (2, Decimal("80.00")), 2025: (0, None)}
    assert "$0.00" in response.content.decode()  # the empty roll's total
    TaxRollBatch.objects.create(year=2024)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(client.get(reverse("ledger:tax_rolls")).context["page"]) == 3


@pytest.mark.slow
def test_tax_roll_pages_keep_roll_order_when_lines_share_a_tax_key_across_a_page_break(client, clerk):
    """The page's lines are read from its first and last tax keys: a parcel with several charges straddling
    a page break still shows each line once, in tax key then charge number order, as the CSV lists them."""
    from permits.ledger.tax_roll import RollLinesPages, roll_lines

    parcels = [ParcelFactory() for _ in range(7)]
    charges = [make_charge(parcels[i % 7], by=clerk) for i in range(63)]  # 9 charges on each parcel
    for charge in charges:
        mail_letters(charge, charge.billed_on)
    mark_delinquent_charges(today=LATE)
    batch = build_tax_roll(year=2026, today=LATE)
    expected = [line.pk for line in roll_lines(batch)]
    assert len(expected) == 63
    pages = RollLinesPages(batch, 63)
    for start, stop in [(0, 50), (50, 100), (5, 14), (8, 9), (62, 63), (63, 70)]:
        assert [line.pk for line in pages[start:stop]] == expected[start:stop]
    client.force_login(clerk)
    second = roll_page(client, page=2).context["page"]
    assert [line.pk for line in second] == expected[50:]
