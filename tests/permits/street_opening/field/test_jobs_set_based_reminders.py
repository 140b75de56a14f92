"""The 15-minute reminder job of the permittee's notices (§ 303-4G and the DPW's advance notices) is
set-based (statements per chunk, not per notice) and writes, row for row, what its per-row version wrote."""

import datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from permits import services
from permits.street_opening.field import rules
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import PermitteeNotice
from tests.permits.jobs_compare import run_rolled_back

pytestmark = pytest.mark.django_db
CHICAGO = datetime.timezone(datetime.timedelta(hours=-5))
START = datetime.datetime(2026, 6, 10, 8, tzinfo=CHICAGO)
NOW = datetime.datetime(2026, 6, 9, 12, tzinfo=CHICAGO)  # the two 24-hour notices' reminders are due


def per_row_send_due_notice_reminders(*, now):
    due = list(
        PermitteeNotice.objects.filter(
            given_at__isnull=True,
            reminder_sent_at__isnull=True,
            reminder_at__lte=now,
            permit__status__in=field_work.WORK_UNDER_WAY,
        )
        .select_related("permit", "permit__applicant")
        .order_by("pk")
    )
    sent = 0
    for notice in due:
        with transaction.atomic():
            if (
                PermitteeNotice.objects.filter(pk=notice.pk, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
                != 1
            ):
                continue
            services.send_notice(
                notice.permit,
                to=notice.permit.applicant.email,
                template="field_notice_reminder",
                context={
                    "permit": notice.permit,
                    "notice": notice,
                    "rule": rules.NOTICE_RULES[notice.kind],
                    "due_by": timezone.localtime(notice.due_by),
                    "planned": timezone.localtime(notice.planned_work_at),
                },
            )
            sent += 1
    return len(due), sent


def planned(make_issued, contractor, n):
    permits = [make_issued() for _ in range(n)]
    for permit in permits:
        field_work.schedule_notice_reminders(permit=permit, by=contractor, work_starts_at=START)
    return permits


def test_reminders_write_what_the_per_row_job_wrote(make_issued, contractor, django_capture_on_commit_callbacks):
    permits = planned(make_issued, contractor, 3)
    PermitteeNotice.objects.filter(permit=permits[1]).update(reminder_sent_at=NOW)  # reminded before
    details = [(PermitteeNotice.objects.all(), ("permit_id", "kind", "reminder_sent_at"))]
    kwargs = dict(permit_ids=[p.pk for p in permits], details=details, now=NOW)
    old = run_rolled_back(per_row_send_due_notice_reminders, django_capture_on_commit_callbacks, **kwargs)
    new = run_rolled_back(field_work.send_due_notice_reminders, django_capture_on_commit_callbacks, **kwargs)
    assert new == old
    assert new[0] == (4, 4) and len(new[1]["delivered"]) == 4


def test_reminder_statements_do_not_grow_with_the_notices(make_issued, contractor):
    def statements():
        with CaptureQueriesContext(connection) as ctx:
            result = field_work.send_due_notice_reminders(now=NOW)
        return result, len(ctx.captured_queries)

    planned(make_issued, contractor, 3)
    few = statements()
    planned(make_issued, contractor, 30)
    many = statements()
    assert few[0] == (6, 6) and many[0] == (60, 60)
    assert many[1] == few[1]
