"""Scheduled jobs of the field half of a street opening: thin, idempotent (conditional updates), each recording a
JobRun. They take ISO dates/times (default: now in the village's time zone) and call one service in field_work.py;
a second run changes nothing."""

from __future__ import annotations

from datetime import date, datetime

from celery import shared_task
from django.utils import timezone

from permits import field_work
from permits.models import JobRun


def _run(name: str, service, **kwargs) -> dict:
    run = JobRun.objects.create(name=name, started_at=timezone.now())
    try:
        total, done = service(**kwargs)
    except Exception as error:
        JobRun.objects.filter(pk=run.pk).update(
            state=JobRun.State.FAILED, finished_at=timezone.now(), message=repr(error)[:2000]
        )
        raise
    JobRun.objects.filter(pk=run.pk).update(
        state=JobRun.State.FINISHED, finished_at=timezone.now(), items_total=total, items_done=done
    )
    return {"job_run": run.pk, "items_total": total, "items_done": done}


def _today(today_iso: str | None) -> date:
    return date.fromisoformat(today_iso) if today_iso else timezone.localdate()


@shared_task
def flag_winter_patches_not_replaced(today_iso: str | None = None) -> dict:
    """§ 303-5G(4): temporary winter surfaces not replaced by the following June 1."""
    return _run(
        "field.flag_winter_patches_not_replaced", field_work.flag_winter_patches_not_replaced, today=_today(today_iso)
    )


@shared_task
def flag_permanent_pavement_overdue(today_iso: str | None = None) -> dict:
    """§ 303-5G(4): permanent pavement not in within 60 days of the permit date."""
    return _run(
        "field.flag_permanent_pavement_overdue", field_work.flag_permanent_pavement_overdue, today=_today(today_iso)
    )


@shared_task
def end_guarantees(today_iso: str | None = None) -> dict:
    """§ 303-4H(3): guarantee periods end one year after completion."""
    return _run("field.end_guarantees", field_work.end_guarantees, today=_today(today_iso))


@shared_task
def flag_defects_past_deadline(today_iso: str | None = None) -> dict:
    """§ 303-4H(2): defects not corrected by their deadline: Village repair and one-year revocation."""
    return _run("field.flag_defects_past_deadline", field_work.flag_defects_past_deadline, today=_today(today_iso))


@shared_task
def send_due_notice_reminders(now_iso: str | None = None) -> dict:
    """Remind permittees of the notices they must give (§ 303-5B(4), § 303-5B(5), § 303-5F)."""
    now = datetime.fromisoformat(now_iso) if now_iso else timezone.now()
    return _run("field.send_due_notice_reminders", field_work.send_due_notice_reminders, now=now)
