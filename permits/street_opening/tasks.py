"""Scheduled jobs of the street opening permit: thin, idempotent, each recording a JobRun. They take ISO dates
(default: today in the village's time zone) and call one service; a second run the same day changes nothing."""

from __future__ import annotations

from celery import shared_task

from permits.jobs import run_job, today_from
from permits.street_opening import services as so_services
from permits.street_opening.field import tasks as field_tasks  # noqa: F401  (registers the field jobs)


@shared_task
def expire_lapsed_street_openings(today_iso: str | None = None) -> dict:
    """§ 303-4D: permits past their 30 days (and renewals) become expired."""
    return run_job(
        "street_openings.expire_lapsed", so_services.expire_lapsed_street_openings, today=today_from(today_iso)
    )


@shared_task
def remind_expiring_street_openings(today_iso: str | None = None) -> dict:
    """Remind permittees 5 days before expiry (§ 303-4D, § 303-4E)."""
    return run_job(
        "street_openings.remind_expiring", so_services.remind_expiring_street_openings, today=today_from(today_iso)
    )


@shared_task
def flag_unfiled_emergencies(today_iso: str | None = None) -> dict:
    """§ 303-5H: emergencies with no application by the next business day are flagged to the clerk."""
    return run_job(
        "street_openings.flag_unfiled_emergencies", so_services.flag_unfiled_emergencies, today=today_from(today_iso)
    )


@shared_task
def lift_ended_revocations(today_iso: str | None = None) -> dict:
    """§ 303-4H(2): revocations end one year after they began."""
    return run_job(
        "street_openings.lift_ended_revocations", so_services.lift_ended_revocations, today=today_from(today_iso)
    )


@shared_task
def warn_stale_tickets_before_work(today_iso: str | None = None) -> dict:
    """Wis. Stat. § 182.0175: the day before work, a ticket stale by the start is told to the applicant and the DPW."""
    return run_job(
        "street_openings.warn_stale_tickets", so_services.warn_stale_tickets_before_work, today=today_from(today_iso)
    )
