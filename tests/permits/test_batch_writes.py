"""A job's events and notices are written a batch at a time (permits.services.record_events and
send_notices: on PostgreSQL as arrays unnested, elsewhere bulk_create). Both ways write the same rows, in order."""

import pytest

from permits import services
from permits.models import Notice, PermitEvent
from tests.factories import PermitFactory

pytestmark = pytest.mark.django_db


def test_record_events_writes_one_event_a_permit_in_order_with_its_kind_and_actor(clerk):
    permits = [PermitFactory() for _ in range(3)]
    services.record_events([(p, f"reason {i}") for i, p in enumerate(permits)], by=clerk, kind="note")
    events = list(PermitEvent.objects.filter(permit__in=permits, reason__startswith="reason").order_by("pk"))
    assert [(e.permit_id, e.reason) for e in events] == [(p.pk, f"reason {i}") for i, p in enumerate(permits)]
    assert {(e.kind, e.actor_id, e.from_status, e.to_status) for e in events} == {("note", clerk.pk, "", "")}
    assert len({e.at for e in events}) == 1 and events[0].actor_label


def test_record_events_of_nothing_writes_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        services.record_events([])


def test_send_notices_returns_the_stored_notices_with_their_ids(django_capture_on_commit_callbacks):
    permits = [PermitFactory() for _ in range(2)]
    items = [(p, f"owner{i}@example.com", "street_privilege_ended", {"permit": p}) for i, p in enumerate(permits)]
    items.append((permits[0], "", "street_privilege_ended", {"permit": permits[0]}))  # no address: no notice
    notices = services.send_notices(items)
    stored = {n.pk: n for n in Notice.objects.filter(permit__in=permits)}
    assert [n.pk for n in notices] == sorted(stored) and len(notices) == 2
    for notice, permit, i in zip(notices, permits, range(2), strict=True):
        row = stored[notice.pk]
        assert (row.permit_id, row.to, row.channel, row.template) == (
            permit.pk,
            f"owner{i}@example.com",
            "email",
            "street_privilege_ended",
        )
        assert row.subject == notice.subject and row.body == notice.body and permit.number in row.body
        assert row.created_at is not None and row.sent_at is None
    assert PermitEvent.objects.filter(permit__in=permits, kind="notice").count() == 2
