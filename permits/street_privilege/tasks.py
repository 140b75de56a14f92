"""The nightly job of the street privilege permit (§ 303-7E): thin, idempotent, recording a JobRun."""

from __future__ import annotations

from celery import shared_task

from permits.jobs import run_job, today_from
from permits.street_privilege import services as sp_services


@shared_task
def end_terminated_street_privileges(today_iso: str | None = None) -> dict:
    """§ 303-7E: permits past their last day end (closing inspection opened); those ending within a week are told."""
    return run_job(
        "street_privileges.end_terminated", sp_services.end_terminated_privileges, today=today_from(today_iso)
    )
