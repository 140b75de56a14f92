"""Scheduled jobs of the field half of a street opening: thin, idempotent (conditional updates), each recording a
JobRun. They take ISO dates/times (default: now in the village's time zone) and call one service in field_work.py;
a second run changes nothing."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from permits.jobs import run_job, today_from
from permits.street_opening.field import services as field_work


@shared_task
def flag_winter_patches_not_replaced(today_iso: str | None = None) -> dict:
    """§ 303-5G(4): temporary winter surfaces not replaced by the following June 1."""
    return run_job(
        "field.flag_winter_patches_not_replaced",
        field_work.flag_winter_patches_not_replaced,
        today=today_from(today_iso),
    )


@shared_task
def flag_permanent_pavement_overdue(today_iso: str | None = None) -> dict:
    """§ 303-5G(4): permanent pavement not in within 60 days of the permit date."""
    return run_job(
        "field.flag_permanent_pavement_overdue", field_work.flag_permanent_pavement_overdue, today=today_from(today_iso)
    )


@shared_task
def end_guarantees(today_iso: str | None = None) -> dict:
    """§ 303-4H(3): guarantee periods end one year after completion."""
    return run_job("field.end_guarantees", field_work.end_guarantees, today=today_from(today_iso))


@shared_task
def flag_defects_past_deadline(today_iso: str | None = None) -> dict:
    """§ 303-4H(2): defects not corrected by their deadline: Village repair and one-year revocation."""
    return run_job(
        "field.flag_defects_past_deadline", field_work.flag_defects_past_deadline, today=today_from(today_iso)
    )


@shared_task
def send_due_notice_reminders(now_iso: str | None = None) -> dict:
    """Remind permittees of the notices they must give (§ 303-5B(4), § 303-5B(5), § 303-5F)."""
    now = datetime.fromisoformat(now_iso) if now_iso else timezone.now()
    return run_job("field.send_due_notice_reminders", field_work.send_due_notice_reminders, now=now)
