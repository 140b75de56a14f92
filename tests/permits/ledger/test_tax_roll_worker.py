"""The tax-roll job on PostgreSQL with real Celery workers, including a worker killed (SIGKILL) mid-batch.

Runs only in production mode (REDIS_URL and a PostgreSQL DATABASE_URL set), as in .ci/run."""

import os
import signal
import time
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Count

from permits.ledger.models import SpecialCharge, TaxRollLine
from permits.ledger.tasks import build_tax_roll, mark_delinquent_charges
from permits.models import JobRun
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, make_charge
from tests.processes import celery_worker, database_url

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
YEAR = 2026


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): runs in .ci/run")


def emailed_parcel():
    """A parcel whose owner's email is known: the bill is given by email, so it has a due date (§ 66.0627(4))."""
    return ParcelFactory(owner_email=f"owner-{uuid.uuid4().hex[:8]}@example.com")


def assert_each_charge_once(expected: int):
    assert TaxRollLine.objects.count() == expected
    assert not TaxRollLine.objects.values("charge").annotate(n=Count("pk")).filter(n__gt=1).exists()


def test_real_worker_builds_the_roll_and_a_second_run_changes_nothing(postgres, real_worker, clerk):
    charges = [make_charge(emailed_parcel(), by=clerk) for _ in range(5)]
    assert mark_delinquent_charges.delay(LATE.isoformat()).get(timeout=30) == 5
    assert mark_delinquent_charges.delay(LATE.isoformat()).get(timeout=30) == 0
    assert build_tax_roll.delay(YEAR, LATE.isoformat()).get(timeout=60) == 5
    before = list(TaxRollLine.objects.order_by("pk").values_list("pk", "charge_id", "amount"))
    assert build_tax_roll.delay(YEAR, LATE.isoformat()).get(timeout=60) == 5
    assert list(TaxRollLine.objects.order_by("pk").values_list("pk", "charge_id", "amount")) == before
    assert {line[1] for line in before} == {c.pk for c in charges}
    run = JobRun.objects.filter(name="sidewalks.build_tax_roll").first()
    assert (run.state, run.items_total, run.items_done) == ("finished", 5, 5)


def test_worker_killed_mid_batch_then_rerun_charges_nobody_twice(postgres, real_worker, clerk, tmp_path):
    total = 60
    for _ in range(total):
        make_charge(emailed_parcel(), by=clerk)
    assert mark_delinquent_charges.delay(LATE.isoformat()).get(timeout=30) == total

    # A separate worker process on a queue of its own, pointed at this test database.
    queue = f"tax-roll-drill-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database_url(), "MEDIA_ROOT": str(tmp_path / "worker-media")}
    worker = celery_worker("-Q", queue, cwd=settings.BASE_DIR, env=env)
    try:
        build_tax_roll.apply_async(args=[YEAR, LATE.isoformat(), 1.5, 20], queue=queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            written = TaxRollLine.objects.count()
            if written >= 20:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the worker never committed its first chunk")
        os.kill(worker.pid, signal.SIGKILL)  # mid-batch: the next chunk is due only after the 1.5 s pause
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=10)

    written = TaxRollLine.objects.count()
    assert 0 < written < total, "the kill should land mid-batch"
    assert_each_charge_once(written)
    killed_run = JobRun.objects.get(name="sidewalks.build_tax_roll")
    assert killed_run.state == "running" and killed_run.items_done == written

    # Rerun (the in-process real worker), twice: the rest is added, nothing is added twice.
    assert build_tax_roll.delay(YEAR, LATE.isoformat()).get(timeout=120) == total
    assert build_tax_roll.delay(YEAR, LATE.isoformat()).get(timeout=120) == total
    assert_each_charge_once(total)
    assert set(TaxRollLine.objects.values_list("charge_id", flat=True)) == set(
        SpecialCharge.objects.values_list("pk", flat=True)
    )
    killed_run.refresh_from_db()
    assert killed_run.state == "failed" and "Interrupted" in killed_run.message


def test_a_killed_workers_job_goes_to_another_worker_after_the_visibility_timeout(
    postgres, real_worker, clerk, tmp_path
):
    """acks_late with a visibility timeout that fits the jobs: the killed worker's message is handed to the next
    worker (here after 3 s, not kombu's hour), whose run marks the killed run failed, with why, and finishes."""
    total = 60
    for _ in range(total):
        make_charge(emailed_parcel(), by=clerk)
    mark_delinquent_charges(LATE.isoformat())
    queue = f"tax-roll-redelivery-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(tmp_path / "worker-media"),
        "JOB_VISIBILITY_TIMEOUT": "3",
    }
    first = celery_worker("-Q", queue, cwd=settings.BASE_DIR, env=env)
    second = None
    try:
        build_tax_roll.apply_async(args=[YEAR, LATE.isoformat(), 0.5, 20], queue=queue)
        deadline = time.monotonic() + 60
        while TaxRollLine.objects.count() < 20:
            assert time.monotonic() < deadline, "the worker never committed its first chunk"
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        killed = JobRun.objects.get(name="sidewalks.build_tax_roll")
        assert killed.state == "running" and killed.worker.endswith(f":{first.pid}")

        second = celery_worker("-Q", queue, cwd=settings.BASE_DIR, env=env)  # nothing is sent again
        deadline = time.monotonic() + 60
        while not JobRun.objects.filter(name="sidewalks.build_tax_roll", state="finished").exists():
            assert time.monotonic() < deadline, "the killed worker's message was never handed to another worker"
            time.sleep(0.1)
    finally:
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                worker.kill()
                worker.wait(timeout=10)
    assert_each_charge_once(total)
    killed.refresh_from_db()
    assert killed.state == "failed"
    assert killed.message == f"Interrupted: its worker ({killed.worker}) stopped before it finished; run again."
