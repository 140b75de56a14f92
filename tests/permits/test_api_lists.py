"""The permit list API at scale: a page's primary keys are read first, then its rows with their joins and
the paid total, so a deep page neither joins nor annotates the rows it skips, in a number of queries that does not
grow with the permits."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from permits.models import Payment
from tests.factories import PermitFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/permits/"


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_permits_pages_keep_the_newest_first_order_and_their_queries(clerk, django_assert_max_num_queries):
    permits = PermitFactory.create_batch(55)
    client = api(clerk)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(URL, {"page": 2}).json()
    baseline = len(queries.captured_queries)  # read now: each request resets the query log
    first = client.get(URL).json()
    newest_first = [p.number for p in sorted(permits, key=lambda p: (p.created_at, p.pk), reverse=True)]
    assert [row["number"] for row in first["results"] + second["results"]] == newest_first
    assert first["count"] == 55 and len(second["results"]) == 5 and second["next"] is None
    PermitFactory.create_batch(60)
    with django_assert_max_num_queries(baseline):
        assert len(client.get(URL, {"page": 2}).json()["results"]) == 50


def test_api_permits_deep_page_annotates_only_its_own_rows(clerk):
    """The paid-total subquery ran for each of the 1,950 rows before the 40th page (13 ms at 100,000 permits)."""
    PermitFactory.create_batch(55)
    with CaptureQueriesContext(connection) as queries:
        rows = api(clerk).get(URL, {"page": 2}).json()["results"]
    assert len(rows) == 5
    paid = [q["sql"] for q in queries.captured_queries if Payment._meta.db_table in q["sql"]]
    assert paid and not [sql for sql in paid if "OFFSET" in sql]
    offset = [q["sql"] for q in queries.captured_queries if "OFFSET" in q["sql"]]
    assert len(offset) == 1 and "JOIN" not in offset[0]  # the page's keys, from the permits alone


def test_api_permits_list_rows_have_their_fee_and_no_timeline(clerk):
    PermitFactory.create_batch(3, fee_amount="50.00")
    rows = api(clerk).get(URL).json()["results"]
    assert len(rows) == 3 and all(row["fee_amount"] == "50.00" and "timeline" not in row for row in rows)
