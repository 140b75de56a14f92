"""§ 303-5G(4) at scale: the overdue-pavement job opens the missing restoration records and flags the
overdue ones in statements per chunk, not per permit; each record gets its history row, each permit its events."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from permits.models import Notice
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import PavementRestoration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
OVERDUE_DAY = datetime.date(2026, 8, 1)


def _statements_to_flag():
    with CaptureQueriesContext(connection) as ctx:
        result = field_work.flag_permanent_pavement_overdue(today=OVERDUE_DAY)
    return result, len(ctx)


def test_303_5g_4_overdue_pavement_statements_do_not_grow_with_the_permits(make_issued):
    for _ in range(2):
        make_issued()
    PavementRestoration.objects.all().delete()  # the records are opened by the job (a backlog, as at 100,000)
    PavementRestoration.history.all().delete()
    small, small_statements = _statements_to_flag()
    for _ in range(8):
        make_issued()
    PavementRestoration.objects.filter(overdue=False).delete()
    large, large_statements = _statements_to_flag()
    assert small == (2, 2) and large == (8, 8)
    assert large_statements == small_statements
    assert PavementRestoration.objects.count() == 10
    assert PavementRestoration.history.filter(history_type="+").count() >= 10  # each opened record has its history
    assert Notice.objects.filter(template="field_pavement_overdue").count() == 10


def test_303_5g_4_a_record_opened_meanwhile_is_not_made_twice(make_issued):
    permit = make_issued()
    PavementRestoration.objects.all().delete()
    assert field_work.open_missing_restorations(today=OVERDUE_DAY) == 1
    assert field_work.open_missing_restorations(today=OVERDUE_DAY) == 0
    assert PavementRestoration.objects.filter(permit=permit).count() == 1
