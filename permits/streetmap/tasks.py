"""Scheduled job of the street map: tell subscribers of permits issued on their street (thin, idempotent)."""

from __future__ import annotations

from celery import shared_task

from permits.jobs import run_job, today_from
from permits.streetmap import services


@shared_task
def notify_street_subscribers(today_iso: str | None = None) -> int:
    result = run_job("streetmap.notify_street_subscribers", services.notify_subscribers, today=today_from(today_iso))
    return result["items_done"]
