"""Thin, idempotent tasks: they take ids, re-fetch, and do nothing the second time."""

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from permits import kinds
from permits.jobs import chunked, run_job, today_from
from permits.models import Notice

log = logging.getLogger(__name__)


DELIVERY_BATCH = 100  # notices a deliver_notices task sends (a job's 12,000 notices: 120 messages, not 12,000)


@shared_task
def deliver_notice(notice_id: int) -> bool:
    notice = Notice.objects.filter(pk=notice_id, sent_at__isnull=True).first()
    if notice is None:
        return False
    send_mail(notice.subject, notice.body, settings.DEFAULT_FROM_EMAIL, [notice.to])
    # Conditional update: a second delivery of the same task finds it sent and stops.
    return Notice.objects.filter(pk=notice_id, sent_at__isnull=True).update(sent_at=timezone.now()) == 1


@shared_task
def deliver_notices(notice_ids: list[int]) -> int:
    """deliver_notice for each of a batch: one that fails (the mail server refused it) is logged and the others are
    still sent; the task then fails with that error, and each notice stays unsent until delivered. Returns how many
    this run sent."""
    sent, failed = 0, None
    for notice_id in notice_ids:
        try:
            sent += deliver_notice(notice_id)
        except Exception as error:  # noqa: BLE001 - one refused address must not hold back the batch
            log.exception("notice %s could not be delivered", notice_id)
            failed = failed or error
    if failed is not None:
        raise failed
    return sent


def deliver_on_commit(notice_ids: list[int]) -> None:
    """Queue the delivery of these notices once the transaction that wrote them commits, DELIVERY_BATCH a task."""
    batches = list(chunked(notice_ids, DELIVERY_BATCH))
    transaction.on_commit(lambda: [deliver_notices.delay(batch) for batch in batches])


def expire_lapsed(*, today) -> tuple[int, int]:
    """Every permit type with a validity period (its record's `expires`) ends the permits past it."""
    considered = done = 0
    for permit_type in kinds.online_types():
        if permit_type.expires and permit_type.expire_lapsed is not None:
            total, expired = permit_type.expire_lapsed(today=today)
            considered, done = considered + total, done + expired
    return considered, done


@shared_task
def expire_lapsed_permits(today_iso: str | None = None) -> dict:
    """§ 303-4D and each type's validity: permits past their validity become expired (nightly, idempotent)."""
    return run_job("permits.expire_lapsed", expire_lapsed, today=today_from(today_iso))


@shared_task
def seed_office_closures(today_iso: str | None = None) -> dict:
    """§ 303-5F, § 303-5H: keep this year and the next five of the office-closure calendar seeded with the legal
    holidays of Wis. Stat. § 995.20 (yearly, idempotent; the clerk's own entries are left as set)."""
    from permits.office_calendar import seed_coming_years

    return run_job("permits.seed_office_closures", seed_coming_years, today=today_from(today_iso))
