"""Scheduled jobs of the enforcement cases: thin, idempotent, each recording a JobRun."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from obstructions import services
from permits.jobs import run_job, today_from


@shared_task
def flag_cases_past_deadline(now_iso: str | None = None) -> int:
    """Served cases whose deadline has passed are flagged for re-inspection (§ 303-6D/E: the 24 hours)."""
    now = datetime.fromisoformat(now_iso) if now_iso else None
    return run_job("obstructions.flag_cases_past_deadline", services.flag_cases_past_deadline, now=now)["items_done"]


@shared_task
def flag_street_number_timers(today_iso: str | None = None) -> int:
    """§ 303-14C: 20 days of neglect -> the notice is due; 10 days after service -> the referral may be made."""
    result = run_job(
        "obstructions.flag_street_number_timers", services.flag_street_number_timers, today=today_from(today_iso)
    )
    return result["items_done"]
