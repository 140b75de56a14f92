import pytest
from django.core import mail

from permits.models import Notice
from permits.tasks import deliver_notice


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_notice_is_delivered_once_by_a_real_worker(real_worker):
    notice = Notice.objects.create(to="owner@example.com", subject="Hello", body="Body", template="t")
    assert deliver_notice.delay(notice.pk).get(timeout=30) is True
    assert deliver_notice.delay(notice.pk).get(timeout=30) is False  # idempotent: the second run does nothing
    notice.refresh_from_db()
    assert notice.sent_at is not None


@pytest.mark.django_db
def test_deliver_notice_twice_sends_one_email():
    notice = Notice.objects.create(to="owner@example.com", subject="Hello", body="Body", template="t")
    assert deliver_notice(notice.pk) is True
    assert deliver_notice(notice.pk) is False
    assert len(mail.outbox) == 1
