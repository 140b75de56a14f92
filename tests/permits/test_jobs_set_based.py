"""The set-based helpers of the jobs (permits.jobs): a "once per value" mark for a chunk of rows in two
statements, and a chunk of rows each set to its own value in one."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from permits import jobs
from permits.street_opening.models import StreetOpening
from tests.factories import PermitFactory
from tests.permits.street_opening.field.conftest import add_detail

pytestmark = pytest.mark.django_db


def openings(n):
    return [add_detail(PermitFactory()) for _ in range(n)]


def test_stamp_once_marks_each_row_once_per_value():
    first, second, third = openings(3)
    StreetOpening.objects.filter(pk=second.pk).update(expiry_reminder_for=date(2026, 7, 1))  # marked before
    values = {first.pk: date(2026, 7, 1), second.pk: date(2026, 7, 1), third.pk: date(2026, 8, 1)}
    assert sorted(jobs.stamp_once(StreetOpening, "expiry_reminder_for", values)) == [first.pk, third.pk]
    assert jobs.stamp_once(StreetOpening, "expiry_reminder_for", values) == []  # a second run marks nothing
    marks = dict(StreetOpening.objects.values_list("pk", "expiry_reminder_for"))
    assert marks == values
    assert jobs.stamp_once(StreetOpening, "expiry_reminder_for", {first.pk: date(2026, 7, 31)}) == [first.pk]


def test_stamp_once_statements_do_not_grow_with_the_rows():
    def statements(rows):
        with CaptureQueriesContext(connection) as ctx:
            jobs.stamp_once(StreetOpening, "opening_lapsed_on", {so.pk: date(2026, 7, 2) for so in rows})
        return len(ctx.captured_queries)

    assert statements(openings(3)) == statements(openings(30))


def test_set_each_sets_each_row_to_its_own_value_and_nothing_else():
    rows = openings(4)
    values = {so.pk: date(2026, 7, day) for day, so in enumerate(rows[:3], start=1)}
    jobs.set_each(StreetOpening, "opening_lapsed_on", values)
    assert dict(StreetOpening.objects.values_list("pk", "opening_lapsed_on")) == {**values, rows[3].pk: None}
    jobs.set_each(StreetOpening, "opening_lapsed_on", {})  # nothing to set: no statement


def test_chunked_keeps_the_order():
    assert list(jobs.chunked(list(range(5)), 2)) == [[0, 1], [2, 3], [4]]
