"""A job's transitions are set-based (workflow.transition_many): statements per chunk, not per permit;
the same questions as transition(); the job's condition checked again under the lock."""

from datetime import date

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from permits import workflow
from permits.models import Permit, PermitEvent, Status
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 1)
LAPSED = Q(status=Status.ISSUED, expires_on__lt=TODAY)


def issued_and_lapsed(n):
    permits = [permit_in(Status.ISSUED) for _ in range(n)]
    Permit.objects.filter(pk__in=[p.pk for p in permits]).update(expires_on=date(2026, 5, 1))
    return list(Permit.objects.filter(pk__in=[p.pk for p in permits]))


def expire(permits):
    with CaptureQueriesContext(connection) as ctx:
        done = workflow.transition_many(
            permits, Status.EXPIRED, by=None, today=TODAY, where=LAPSED, reason_for=lambda p: "Validity ended"
        )
    return done, len(ctx.captured_queries)


def test_statements_do_not_grow_with_the_permits():
    done_few, few = expire(issued_and_lapsed(2))
    done_many, many = expire(issued_and_lapsed(8))
    assert (done_few, done_many) == (2, 8)
    assert many == few
    events = PermitEvent.objects.filter(to_status=Status.EXPIRED)
    assert events.count() == 10 and {e.reason for e in events} == {"Validity ended"}


def test_a_permit_renewed_meanwhile_is_not_expired_and_a_second_run_does_nothing():
    permits = issued_and_lapsed(3)
    Permit.objects.filter(pk=permits[0].pk).update(expires_on=date(2026, 7, 1))  # renewed after the job listed it
    assert expire(permits)[0] == 2
    assert Permit.objects.get(pk=permits[0].pk).status == Status.ISSUED
    assert expire(permits)[0] == 0  # already expired: nothing twice
    assert PermitEvent.objects.filter(to_status=Status.EXPIRED).count() == 2


def test_the_status_table_still_refuses():
    permit = permit_in(Status.SUBMITTED)  # submitted cannot become expired
    done = workflow.transition_many([permit], Status.EXPIRED, by=None, today=TODAY, reason_for=lambda p: "x")
    assert done == 0 and Permit.objects.get(pk=permit.pk).status == Status.SUBMITTED


def test_a_step_whose_notice_transition_sends_is_refused():
    permit = permit_in(Status.UNDER_REVIEW)
    with pytest.raises(ValueError):  # approved, denied, withdrawn: the applicant is told (permits.notices)
        workflow.transition_many([permit], Status.DENIED, by=None, today=TODAY, reason_for=lambda p: "x")
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW
