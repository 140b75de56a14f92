"""Scheduled jobs of the street use permit: thin, idempotent, each recording a JobRun."""

from __future__ import annotations

from celery import shared_task

from permits.jobs import run_job, today_from
from permits.street_use import services


@shared_task
def complete_ended_street_uses(today_iso: str | None = None) -> dict:
    """§ 303-15B(4): street use permits whose event has ended become completed (nightly; a second run changes
    nothing)."""
    return run_job("street_uses.complete_ended", services.complete_ended_events, today=today_from(today_iso))
