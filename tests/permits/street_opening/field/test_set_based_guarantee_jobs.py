"""§ 303-4H(2), (3) at scale: the guarantee job ends the guarantees and closes their completed permits with
no open defect, and the defect job flags the defects past their deadline and revokes their permittees, in statements
per chunk, not per row; a second run changes nothing."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from permits.models import Notice, PermitEvent, Status
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import DefectNotice, Guarantee
from permits.street_opening.models import ApplicantRevocation
from tests.permits.street_opening.conftest import complete_work
from tests.permits.street_opening.field.conftest import board_finds_defect

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
COMPLETED_ON = datetime.date(2026, 7, 15)
OVER = datetime.date(2027, 7, 16)  # the day after the anniversary


def _completed(make_issued, contractor, count):
    permits = []
    for _ in range(count):
        permit = make_issued()
        complete_work(permit, permittee=contractor, today=COMPLETED_ON)
        permits.append(permit)
    return permits


def _statements_to_end():
    with CaptureQueriesContext(connection) as ctx:
        result = field_work.end_guarantees(today=OVER)
    return result, len(ctx)


def test_303_4h_3_guarantee_statements_do_not_grow_with_the_permits(make_issued, contractor, dpw_director):
    small_permits = _completed(make_issued, contractor, 2)
    small, small_statements = _statements_to_end()
    large_permits = _completed(make_issued, contractor, 8)
    defective = large_permits[0]
    board_finds_defect(defective, deadline=datetime.date(2027, 8, 1), served_on=datetime.date(2027, 7, 1))
    large, large_statements = _statements_to_end()
    assert small == (2, 2) and large == (8, 8)
    assert large_statements == small_statements
    assert Guarantee.objects.filter(ended=True).count() == 10
    for permit in small_permits + large_permits:
        permit.refresh_from_db()
    assert defective.status == Status.COMPLETED  # an open defect keeps it completed
    assert all(p.status == Status.CLOSED for p in small_permits + large_permits[1:])
    ended_events = PermitEvent.objects.filter(reason__startswith="One-year guarantee ended")
    closed_events = PermitEvent.objects.filter(to_status=Status.CLOSED)
    assert ended_events.count() == 10 and closed_events.count() == 9

    # A second run finds every guarantee ended: nothing changes, nothing is recorded.
    events_before = PermitEvent.objects.count()
    assert field_work.end_guarantees(today=OVER) == (0, 0)
    assert PermitEvent.objects.count() == events_before
    defective.refresh_from_db()
    assert defective.status == Status.COMPLETED


def _defects(make_issued, contractor, dpw_director, count):
    """A defect noticed March 1 and due April 1, 2027 on each of `count` completed permits."""
    return [board_finds_defect(permit) for permit in _completed(make_issued, contractor, count)]


def test_303_4h_2_defect_statements_do_not_grow_with_the_notices(make_issued, contractor, dpw_director):
    day = datetime.date(2027, 4, 2)  # the day after the deadline
    _defects(make_issued, contractor, dpw_director, 2)
    with CaptureQueriesContext(connection) as small_ctx:
        small = field_work.flag_defects_past_deadline(today=day)
    _defects(make_issued, contractor, dpw_director, 6)
    with CaptureQueriesContext(connection) as large_ctx:
        large = field_work.flag_defects_past_deadline(today=day)
    assert small == (2, 2) and large == (6, 6)
    assert len(large_ctx) == len(small_ctx)
    assert DefectNotice.objects.filter(past_deadline_on=day).count() == 8
    # § 303-4H(2): one revocation per permit, binding the organization's staff and the applicant, on the timeline.
    assert ApplicantRevocation.objects.count() == 8
    revocation = ApplicantRevocation.objects.first()
    assert revocation.until == datetime.date(2028, 4, 2) and contractor in revocation.bound_users.all()
    assert PermitEvent.objects.filter(reason__startswith="Right to obtain street opening permits revoked").count() == 8
    assert Notice.objects.filter(template="field_defect_past_deadline").count() == 8  # to the DPW director
    before = (PermitEvent.objects.count(), Notice.objects.count(), ApplicantRevocation.objects.count())
    assert field_work.flag_defects_past_deadline(today=day) == (0, 0)
    assert (PermitEvent.objects.count(), Notice.objects.count(), ApplicantRevocation.objects.count()) == before
