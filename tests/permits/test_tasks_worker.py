import pytest
from django.core import mail

from permits.models import Notice
from permits.tasks import deliver_notice


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
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


@pytest.mark.django_db
def test_a_batch_delivers_each_notice_once_and_one_refused_address_holds_back_none(monkeypatch):
    """A job's notices are delivered DELIVERY_BATCH a task; a notice the mail server refuses is logged,
    the rest of its batch still goes, the task then fails, and the refused one stays unsent for a later try."""
    from django.core.mail import backends

    from permits import tasks

    notices = [
        Notice.objects.create(to=f"owner{i}@example.com", subject=f"Hello {i}", body="Body", template="t")
        for i in range(4)
    ]
    real_send = backends.locmem.EmailBackend.send_messages

    def refuse_owner1(self, messages):
        if any("owner1@example.com" in m.to for m in messages):
            raise OSError("550 mailbox unavailable")
        return real_send(self, messages)

    monkeypatch.setattr(backends.locmem.EmailBackend, "send_messages", refuse_owner1)
    with pytest.raises(OSError, match="550"):
        tasks.deliver_notices([n.pk for n in notices])
    assert sorted(m.to[0] for m in mail.outbox) == ["owner0@example.com", "owner2@example.com", "owner3@example.com"]
    assert list(Notice.objects.filter(sent_at__isnull=True).values_list("to", flat=True)) == ["owner1@example.com"]
    monkeypatch.setattr(backends.locmem.EmailBackend, "send_messages", real_send)
    assert tasks.deliver_notices([n.pk for n in notices]) == 1  # again: only the one left unsent goes
    assert len(mail.outbox) == 4


@pytest.mark.django_db
def test_a_jobs_notices_are_queued_a_batch_a_task_once_committed(monkeypatch, django_capture_on_commit_callbacks):
    from permits import services, tasks
    from tests.factories import PermitFactory

    queued = []
    monkeypatch.setattr(tasks.deliver_notices, "delay", lambda ids: queued.append(list(ids)))
    permit = PermitFactory()
    items = [
        (permit, f"p{i}@example.com", "permit_approved", {"permit": permit})
        for i in range(2 * tasks.DELIVERY_BATCH + 1)
    ]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notices = services.send_notices(items)
    assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert [len(batch) for batch in queued] == [tasks.DELIVERY_BATCH, tasks.DELIVERY_BATCH, 1]
    assert sorted(pk for batch in queued for pk in batch) == sorted(n.pk for n in notices)
