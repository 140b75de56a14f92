"""Wis. Stat. § 70.65 roll at scale: a rebuild that changes nothing reads a digest of the build's inputs
and stops, in a constant number of statements; any change to what the build reads rebuilds it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from permits.ledger.models import TaxRollLine
from permits.ledger.tax_roll import build_tax_roll
from permits.models import JobRun
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, make_delinquent

pytestmark = pytest.mark.django_db


def _delinquent(n, clerk):
    return [make_delinquent(ParcelFactory(owner_email=f"o{i}@example.com"), by=clerk) for i in range(n)]


def _rebuild_statements():
    with CaptureQueriesContext(connection) as ctx:
        batch = build_tax_roll(year=2026, today=LATE)
    return batch, len(ctx)


def test_70_65_unchanged_rebuild_statements_do_not_grow_with_the_roll(clerk):
    _delinquent(2, clerk)
    build_tax_roll(year=2026, today=LATE)
    _, small = _rebuild_statements()
    _delinquent(10, clerk)
    build_tax_roll(year=2026, today=LATE)
    batch, large = _rebuild_statements()
    assert batch.lines.count() == 12
    assert small == large <= 12
    run = JobRun.objects.order_by("-pk").first()
    assert (run.items_total, run.items_done) == (12, 12) and "nothing changed" in run.message


def test_70_65_unchanged_rebuild_writes_no_line(clerk):
    _delinquent(3, clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    with CaptureQueriesContext(connection) as ctx:
        build_tax_roll(year=2026, today=LATE)
    writes = [q["sql"] for q in ctx.captured_queries if "sidewalks_taxrollline" in q["sql"]]
    assert not [sql for sql in writes if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert batch.lines.count() == 3


def test_70_65_an_owner_renamed_since_the_build_is_rebuilt(clerk):
    [charge, _] = _delinquent(2, clerk)
    build_tax_roll(year=2026, today=LATE)
    charge.parcel.owner_name = "Renamed, Rita"
    charge.parcel.save()
    build_tax_roll(year=2026, today=LATE)
    assert TaxRollLine.objects.get(charge=charge).owner == "Renamed, Rita"


def test_70_65_a_new_delinquent_charge_is_added_on_rebuild(clerk):
    _delinquent(1, clerk)
    build_tax_roll(year=2026, today=LATE)
    [late] = _delinquent(1, clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    assert batch.lines.count() == 2 and batch.lines.filter(charge=late).exists()


def test_70_65_a_line_removed_behind_the_builds_back_is_written_again(clerk):
    [charge] = _delinquent(1, clerk)
    build_tax_roll(year=2026, today=LATE)
    TaxRollLine.objects.filter(charge=charge).delete()
    assert build_tax_roll(year=2026, today=LATE).lines.filter(charge=charge).exists()
