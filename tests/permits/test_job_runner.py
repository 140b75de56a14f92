"""The one job runner (permits/jobs.py): every scheduled job records a JobRun, and one that raises is marked failed
with its error, never left "running"."""

import pytest

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


def test_a_run_left_running_by_a_stopped_worker_is_marked_interrupted_by_the_next():
    stale = jobs.start_job("test.interrupted")
    jobs.run_job("test.interrupted", lambda: (0, 0))
    stale.refresh_from_db()
    assert stale.state == JobRun.State.FAILED and "Interrupted" in stale.message


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
