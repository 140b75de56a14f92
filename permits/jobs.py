"""The one runner of scheduled jobs: every run is a JobRun row the clerk can see (started, finished, items done),
marked failed with the error when the job raises."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from permits.models import JobRun


def today_from(today_iso: str | None) -> date:
    """Tasks take ISO dates (JSON-safe); none means the Village's today."""
    return date.fromisoformat(today_iso) if today_iso else timezone.localdate()


def start_job(name: str) -> JobRun:
    """Start a run of `name`. A run of the same job still marked running was interrupted (its worker stopped)."""
    JobRun.objects.filter(name=name, state=JobRun.State.RUNNING).update(
        state=JobRun.State.FAILED, finished_at=timezone.now(), message="Interrupted (the worker stopped); run again."
    )
    return JobRun.objects.create(name=name, started_at=timezone.now())


def fail_job(run: JobRun, error: BaseException) -> None:
    JobRun.objects.filter(pk=run.pk).update(
        state=JobRun.State.FAILED, finished_at=timezone.now(), message=repr(error)[:2000]
    )


def finish_job(run: JobRun, *, total: int, done: int, message: str = "") -> None:
    JobRun.objects.filter(pk=run.pk).update(
        state=JobRun.State.FINISHED, finished_at=timezone.now(), items_total=total, items_done=done, message=message
    )


def run_job(name: str, service, **kwargs) -> dict:
    """Run `service(**kwargs)`, which returns (items considered, items done), as a recorded JobRun."""
    run = start_job(name)
    try:
        total, done = service(**kwargs)
    except Exception as error:
        fail_job(run, error)
        raise
    finish_job(run, total=total, done=done)
    return {"job_run": run.pk, "items_total": total, "items_done": done}
