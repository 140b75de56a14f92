"""Two web processes and two Celery workers against one PostgreSQL and one Redis. No job does its
work twice (each lapsed permit expires once, the runs' counts add up to the permits), no notice is delivered twice,
and no number is handed out twice.

Runs only in production mode (DATABASE_URL on PostgreSQL and REDIS_URL set, as .ci/run's second pass does); the
processes are real: gunicorn and `celery worker`, started here against the test database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from bench.seed import seed
from permits.models import JobRun, Notice, Permit, PermitEvent, Status
from permits.street_opening.models import StreetOpening
from tests.processes import celery_worker, database_url, wait_until_serving

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

pytestmark = [pytest.mark.scale_out, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def cluster():
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL on PostgreSQL and REDIS_URL: runs in .ci/run's production pass")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "tests.scale_out_settings",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "SECURE_SSL_REDIRECT": "0",
        "PYTHONPATH": str(ROOT),
    }
    ports = [8771, 8772]
    procs = [
        subprocess.Popen(
            [str(BIN / "gunicorn"), "theresa_permits.wsgi", f"--bind=127.0.0.1:{port}", "--workers=1", "--threads=4"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ] + [celery_worker(f"--hostname=scale{n}@%h", cwd=ROOT, env=env) for n in (1, 2)]
    try:
        wait_until_serving(ports, "/_test/next-number/", seconds=30)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


def test_two_web_processes_and_two_workers_never_do_anything_twice(cluster):
    from permits.tasks import deliver_notice, expire_lapsed_permits

    # Numbers: 200 asked of the two web processes at once, 8 at a time.
    def ask(i):
        port = cluster[i % 2]
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/_test/next-number/", timeout=30).read().decode()

    with ThreadPoolExecutor(8) as pool:
        numbers = list(pool.map(ask, range(200)))
    values = sorted(int(n.rsplit("-", 1)[1]) for n in numbers)
    assert len(set(numbers)) == len(numbers) == 200
    assert values == list(range(values[0], values[0] + 200))  # none skipped, none twice (the fixture asked first)

    # Jobs: the nightly expiry queued four times at once; both workers take runs of it.
    seed(permits=300)
    lapsed = set(
        Permit.objects.filter(
            status__in=(Status.APPROVED, Status.ISSUED, Status.ACTIVE), expires_on__lt="2026-01-01"
        ).values_list("pk", flat=True)
    )
    results = [expire_lapsed_permits.delay("2026-01-01") for _ in range(4)]
    outcome = [r.get(timeout=120) for r in results]
    expired_events = PermitEvent.objects.filter(to_status=Status.EXPIRED, permit__in=lapsed)
    per_permit = expired_events.values_list("permit_id", flat=True)
    assert len(per_permit) > 0 and len(per_permit) == len(set(per_permit))  # each expired once
    assert set(per_permit) <= lapsed
    # § 303-5G: a lapsed permit whose street was opened does not expire; only its right to open ends, once.
    opening_lapsed = set(
        StreetOpening.objects.filter(permit__in=lapsed, opening_lapsed_on__isnull=False).values_list(
            "permit_id", flat=True
        )
    )
    lapse_events = PermitEvent.objects.filter(
        permit__in=opening_lapsed, reason__startswith="The right to open the street ended"
    ).values_list("permit_id", flat=True)
    assert len(lapse_events) == len(set(lapse_events)) == len(opening_lapsed)
    assert not opening_lapsed & set(per_permit)
    done = sum(o["items_done"] for o in outcome)
    assert done == len(set(per_permit)) + len(opening_lapsed)  # the runs' counts are true: each permit once
    assert JobRun.objects.filter(name="permits.expire_lapsed").count() == 4

    # A notice queued six times on two workers is delivered once.
    notice = Notice.objects.create(to="owner@example.com", subject="Test", body="Body", template="test")
    delivered = [r.get(timeout=60) for r in [deliver_notice.delay(notice.pk) for _ in range(6)]]
    assert delivered.count(True) == 1
    notice.refresh_from_db()
    assert notice.sent_at is not None
