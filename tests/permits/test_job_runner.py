"""The one job runner (permits/jobs.py): every scheduled job records a JobRun, and one that raises is marked failed
with its error, never left "running"."""

import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from permits import jobs
from permits.ledger import services as ledger_services
from permits.ledger import tasks as ledger_tasks
from permits.models import JobRun

pytestmark = pytest.mark.django_db


def test_a_job_records_its_counts():
    result = jobs.run_job("test.counts", lambda *, today: (3, 2), today=None)
    run = JobRun.objects.get(pk=result["job_run"])
    assert (run.state, run.items_total, run.items_done) == (JobRun.State.FINISHED, 3, 2) and run.finished_at


def test_the_ledger_job_that_fails_is_marked_failed_not_left_running(monkeypatch):
    def boom(*, today):
        raise RuntimeError("database away")

    monkeypatch.setattr(ledger_services, "mark_delinquent_charges", boom)
    with pytest.raises(RuntimeError):
        ledger_tasks.mark_delinquent_charges("2026-05-01")
    run = JobRun.objects.get(name="ledger.mark_delinquent_charges")
    assert run.state == JobRun.State.FAILED and "database away" in run.message and run.finished_at


def a_dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def running(name: str, *, worker: str, started_ago: timedelta = timedelta(0)) -> JobRun:
    return JobRun.objects.create(name=name, started_at=timezone.now() - started_ago, worker=worker)


def test_a_run_left_running_by_a_stopped_worker_is_marked_interrupted_by_the_next():
    stale = running("test.interrupted", worker=f"{socket.gethostname()}:{a_dead_pid()}")
    jobs.run_job("test.interrupted", lambda: (0, 0))
    stale.refresh_from_db()
    assert stale.state == JobRun.State.FAILED and stale.finished_at
    assert stale.message == f"Interrupted: its worker ({stale.worker}) stopped before it finished; run again."


def test_a_run_whose_worker_still_works_is_left_running():
    alive = jobs.start_job("test.concurrent")
    assert alive.worker == jobs.this_worker()
    jobs.run_job("test.concurrent", lambda: (0, 0))
    alive.refresh_from_db()
    assert alive.state == JobRun.State.RUNNING


TIMEOUT = timedelta(seconds=600)
NOW = datetime(2026, 6, 1, 3, 0, tzinfo=UTC)


def reason(worker: str, started_at: datetime, alive: bool = True) -> str:
    run = JobRun(name="test", started_at=started_at, worker=worker)
    return jobs.interrupted_reason(run, now=NOW, host="web1", alive=lambda pid: alive, stale_after=TIMEOUT)


def test_a_live_worker_at_exactly_the_visibility_timeout_is_still_working():
    assert reason("web1:42", NOW - TIMEOUT) == ""
    assert reason("web2:42", NOW - TIMEOUT) == ""  # another host: not asked, but not yet stale


def test_one_second_past_the_visibility_timeout_a_run_is_taken_as_interrupted():
    for worker in ("web1:42", "web2:42", ""):
        assert reason(worker, NOW - TIMEOUT - timedelta(seconds=1)).startswith("Interrupted: still marked running")


def test_a_stopped_worker_on_this_host_is_known_at_once():
    assert reason("web1:42", NOW, alive=False).startswith("Interrupted: its worker (web1:42) stopped")
    assert reason("web2:42", NOW, alive=False) == ""  # a pid on another host says nothing here


def test_the_jobs_page_shows_why_a_run_failed(client, clerk):
    stale = running("test.page", worker=f"{socket.gethostname()}:{a_dead_pid()}")
    jobs.run_job("test.page", lambda: (0, 0))
    client.force_login(clerk)
    page = client.get(reverse("admin:permits_jobrun_changelist")).content.decode()
    assert f"Interrupted: its worker ({stale.worker}) stopped before it finished" in page


def test_a_long_job_reports_its_progress_and_its_message():
    seen = {}

    def long_job(*, progress, items):
        progress.total(len(items))
        progress.done(1)
        seen["midway"] = JobRun.objects.values_list("state", "items_total", "items_done").get()
        return len(items), 2, "2 of 3 written"

    result = jobs.run_job("test.progress", long_job, progress=True, items=[1, 2, 3])
    assert seen["midway"] == (JobRun.State.RUNNING, 3, 1)
    run = JobRun.objects.get(pk=result["job_run"])
    assert (run.state, run.items_total, run.items_done, run.message) == (JobRun.State.FINISHED, 3, 2, "2 of 3 written")


def test_a_job_stopped_by_the_worker_shutting_down_is_marked_failed():
    def stopped():
        raise KeyboardInterrupt("worker shutting down")

    with pytest.raises(KeyboardInterrupt):
        jobs.run_job("test.stopped", stopped)
    run = JobRun.objects.get(name="test.stopped")
    assert run.state == JobRun.State.FAILED and run.message == "worker shutting down"
