"""Thin, idempotent tasks: they take ids, re-fetch, and do nothing the second time."""

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.utils import timezone

from permits.models import Notice


@shared_task
def deliver_notice(notice_id: int) -> bool:
    notice = Notice.objects.filter(pk=notice_id, sent_at__isnull=True).first()
    if notice is None:
        return False
    send_mail(notice.subject, notice.body, settings.DEFAULT_FROM_EMAIL, [notice.to])
    # Conditional update: a second delivery of the same task finds it sent and stops.
    return Notice.objects.filter(pk=notice_id, sent_at__isnull=True).update(sent_at=timezone.now()) == 1


from permits import tasks_field, tasks_street_opening
