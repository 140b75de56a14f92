"""Scheduled job of online payments: thin, idempotent, recording a JobRun."""

from __future__ import annotations

from celery import shared_task

from permits.jobs import run_job, today_from
from permits.online_payments import settlement


@shared_task
def build_settlements(today_iso: str | None = None) -> int:
    """The treasurer's daily settlement: yesterday's receipts, by method and fee item, for reconciliation."""
    result = run_job("online_payments.build_settlements", settlement.build_settlements, today=today_from(today_iso))
    return result["items_done"]
