"""The special-charges tax roll: build, rebuild unchanged, certify and freeze, CSV and PDF, constraints."""

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction

from permits.ledger.models import SpecialCharge, TaxRollBatch, TaxRollLine
from permits.ledger.services import mark_delinquent_charges, record_charge_payment
from permits.ledger.tax_roll import (
    FrozenRoll,
    build_tax_roll,
    certify_tax_roll,
    render_csv,
    transfer_tax_roll,
    write_roll_pdf,
)
from permits.models import JobRun
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, hearing, make_charge, make_delinquent

S = SpecialCharge.Status
pytestmark = pytest.mark.django_db


def lines_of(batch):
    return list(batch.lines.order_by("charge_id").values_list("charge_id", "tax_key", "owner", "amount", "citation"))


def test_roll_holds_delinquent_charges_only(parcel, other_parcel, clerk):
    delinquent = make_delinquent(parcel, by=clerk)
    make_charge(other_parcel, by=clerk, today=date(2026, 4, 20))  # billed, not yet due on LATE
    batch = build_tax_roll(year=2026, today=LATE)
    assert [line.charge for line in batch.lines.all()] == [delinquent]
    line = batch.lines.get()
    assert (line.tax_key, line.owner, line.amount, line.citation) == (
        parcel.tax_key,
        "Owner, Olga",
        Decimal("75.00"),
        "§ 303-8B",
    )
    run = JobRun.objects.get(name="sidewalks.build_tax_roll")
    assert (run.state, run.items_total, run.items_done) == ("finished", 1, 1)


def test_rebuild_changes_nothing(parcel, other_parcel, clerk):
    make_delinquent(parcel, by=clerk)
    make_delinquent(other_parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    before = lines_of(batch)
    first_csv = render_csv(batch)
    pks = set(batch.lines.values_list("pk", flat=True))
    batch = build_tax_roll(year=2026, today=LATE)
    assert lines_of(batch) == before
    assert set(batch.lines.values_list("pk", flat=True)) == pks
    assert render_csv(batch) == first_csv
    assert TaxRollBatch.objects.count() == 1


def test_charge_paid_before_certification_leaves_the_draft_roll(parcel, clerk):
    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    assert batch.lines.count() == 1
    record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=LATE)
    assert batch.lines.count() == 0
    assert build_tax_roll(year=2026, today=LATE).lines.count() == 0


def test_clerk_certifies_and_the_batch_is_frozen(parcel, other_parcel, clerk):
    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    certify_tax_roll(batch=batch, by=clerk, today=LATE)
    batch.refresh_from_db()
    assert batch.state == "certified" and batch.certified_by == clerk
    charge.refresh_from_db()
    assert charge.status == S.CERTIFIED
    make_delinquent(other_parcel, by=clerk)  # a new delinquent charge waits for next year's roll
    with pytest.raises(FrozenRoll):
        build_tax_roll(year=2026, today=LATE)
    assert batch.lines.count() == 1
    with pytest.raises(ValidationError):
        certify_tax_roll(batch=batch, by=clerk, today=LATE)
    transfer_tax_roll(batch=batch, by=clerk, today=date(2026, 12, 1))
    charge.refresh_from_db()
    assert charge.status == S.ON_ROLL


def test_certified_charge_never_goes_on_a_second_roll(parcel, clerk):
    make_delinquent(parcel, by=clerk)
    certify_tax_roll(batch=build_tax_roll(year=2026, today=LATE), by=clerk, today=LATE)
    assert build_tax_roll(year=2027, today=date(2027, 11, 1)).lines.count() == 0


def test_charge_delinquent_after_cutoff_waits_for_next_years_roll(parcel, clerk):
    from permits.ledger.services import mark_delinquent_charges

    make_charge(parcel, by=clerk, today=date(2026, 10, 20))  # due Nov 19, delinquent Nov 20 > Nov 15
    mark_delinquent_charges(today=date(2026, 11, 25))
    assert build_tax_roll(year=2026, today=date(2026, 11, 25)).lines.count() == 0
    assert build_tax_roll(year=2027, today=date(2027, 11, 1)).lines.count() == 1


def test_resident_and_inspector_cannot_certify(parcel, clerk, resident, inspector):
    make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    for user in (resident, inspector):
        with pytest.raises(PermissionDenied):
            certify_tax_roll(batch=batch, by=user, today=LATE)


def test_66_0627_sidewalk_repair_without_hearing_is_held_back(parcel, clerk):
    charge = make_delinquent(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR, citation="§ 303-3B(1)")
    assert charge.status == S.PENDING  # § 66.0627(3)(b): not billed, so never delinquent, before the hearing
    assert build_tax_roll(year=2026, today=LATE).lines.count() == 0
    day = date(2026, 4, 21)  # published 19 days before
    hearing(clerk, day, published_on=date(2026, 4, 2), mailed_on=date(2026, 4, 11), charges=[charge], today=day)
    charge.refresh_from_db()
    assert charge.status == S.PENDING
    mark_delinquent_charges(today=LATE)
    assert build_tax_roll(year=2026, today=LATE).lines.count() == 0
    day = date(2026, 4, 22)  # 20 and 10 days: billed the day of the hearing
    hearing(clerk, day, published_on=date(2026, 4, 2), mailed_on=date(2026, 4, 12), charges=[charge], today=day)
    charge.refresh_from_db()
    assert charge.status == S.BILLED and charge.billed_on == date(2026, 4, 22)
    after_due = date(2026, 6, 1)  # due May 22, 30 days after the bill
    mark_delinquent_charges(today=after_due)
    batch = build_tax_roll(year=2026, today=after_due)
    assert batch.lines.count() == 1
    certify_tax_roll(batch=batch, by=clerk, today=after_due)


def roll_line(batch, charge, *, source, amount):
    """A roll line written straight to the table, around build_tax_roll and its checks."""
    return TaxRollLine.objects.create(
        batch=batch, charge=charge, tax_key="x", owner="x", source=source, description="x", amount=amount, citation="x"
    )


def test_66_0627_certification_refuses_a_line_whose_hearing_is_missing(parcel, clerk):
    charge = make_delinquent(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR, citation="§ 303-3B(1)")
    # An older record, billed and delinquent before the rule held billing back until the hearing:
    SpecialCharge.objects.filter(pk=charge.pk).update(status=S.DELINQUENT)
    charge.refresh_from_db()
    batch = TaxRollBatch.objects.create(year=2026)
    roll_line(batch, charge, source="sidewalk_repair", amount=charge.amount)  # slipped in around the builder
    with pytest.raises(ValidationError) as exc:
        certify_tax_roll(batch=batch, by=clerk, today=LATE)
    assert "66.0627(3)(b)" in str(exc.value)
    charge.refresh_from_db()
    assert charge.status == S.DELINQUENT


def test_duplicate_roll_line_raises_integrity_error(parcel, clerk):
    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    other = TaxRollBatch.objects.create(year=2027)
    for target in (batch, other):
        with pytest.raises(IntegrityError), transaction.atomic():
            roll_line(target, charge, source="snow_ice", amount=Decimal("1.00"))


def test_one_roll_per_year_in_the_database(db):
    TaxRollBatch.objects.create(year=2026)
    with pytest.raises(IntegrityError), transaction.atomic():
        TaxRollBatch.objects.create(year=2026)


def test_build_interrupted_midway_then_rerun_has_no_duplicates(clerk):
    charges = [make_delinquent(ParcelFactory(), by=clerk) for _ in range(7)]

    def die_after_five(n):
        if n == 5:
            raise RuntimeError("worker killed")

    with pytest.raises(RuntimeError):
        build_tax_roll(year=2026, today=LATE, chunk_size=2, on_line=die_after_five)
    # The first two chunks (4 lines) committed; the chunk that died left nothing behind.
    assert TaxRollLine.objects.count() == 4
    assert JobRun.objects.get(name="sidewalks.build_tax_roll").state == "failed"
    batch = build_tax_roll(year=2026, today=LATE, chunk_size=2)
    assert sorted(batch.lines.values_list("charge_id", flat=True)) == sorted(c.pk for c in charges)
    build_tax_roll(year=2026, today=LATE)
    assert TaxRollLine.objects.count() == 7


def test_csv_columns_and_formula_escaping(clerk):
    parcel = ParcelFactory(owner_name='=HYPERLINK("http://evil")', tax_key="266-0000-0001")
    make_delinquent(parcel, by=clerk, description="+cmd|' /C calc'!A0", citation="@SUM(1)")
    batch = build_tax_roll(year=2026, today=LATE)
    rows = list(csv.reader(io.StringIO(render_csv(batch).decode())))
    assert rows[0][:6] == ["tax_key", "owner", "source", "description", "amount", "citation"]
    assert rows[1][0] == "266-0000-0001"
    assert rows[1][1].startswith("'=") and rows[1][3].startswith("'+") and rows[1][5].startswith("'@")
    assert rows[1][4] == "75.00"


@pytest.mark.slow
def test_pdf_has_the_certification_block(parcel, clerk):
    make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    write_roll_pdf(batch)  # the worker's render, queued by the build
    assert batch.pdf_file.read()[:5] == b"%PDF-"
    batch = certify_tax_roll(batch=batch, by=clerk, today=LATE)
    write_roll_pdf(batch)
    assert batch.pdf_file.name.endswith("special-charges-2026.pdf")


@pytest.mark.slow
def test_build_tax_roll_command_prints_where_the_files_are(parcel, clerk, capsys):
    make_delinquent(parcel, by=clerk)
    call_command("build_tax_roll", "--year", "2026")
    out = capsys.readouterr().out
    assert "1 charges" in out and "special-charges-2026.csv" in out and "special-charges-2026.pdf" in out
    call_command("build_tax_roll", "--year", "2026")
    assert TaxRollLine.objects.count() == 1


def test_scheduled_jobs_are_declared(settings):
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"permits.ledger.tasks.mark_delinquent_charges", "permits.ledger.tasks.build_tax_roll"} <= tasks


def test_roll_job_builds_only_in_the_window_before_the_cutoff(parcel, clerk):
    from permits.ledger.tasks import build_tax_roll as job
    from permits.ledger.tasks import mark_delinquent_charges as delinquency_job

    make_charge(parcel, by=clerk)
    assert delinquency_job("2026-05-01") == 1
    assert delinquency_job("2026-05-02") == 0
    assert job(None, "2026-06-01") is None
    assert not TaxRollBatch.objects.exists()
    assert job(None, "2026-11-01") == 1
    assert job(None, "2026-11-02") == 1
    assert TaxRollLine.objects.count() == 1
