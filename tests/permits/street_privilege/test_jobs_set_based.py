"""§ 303-7E's nightly job is set-based (statements per chunk, not per permit) and writes, row for row, what
its per-row version wrote: told a week ahead once per last day; ended after it, with the § 303-7D(7) closing
inspection opened and the permittee told. The per-row version is kept here as the reference."""

import uuid
from datetime import date, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from permits import services, workflow
from permits.models import NoticePreference, Permit, PermitKind, Status
from permits.street_privilege import rules
from permits.street_privilege import services as sp
from permits.street_privilege.models import StreetPrivilege
from tests.permits.jobs_compare import mark_once, run_rolled_back

pytestmark = pytest.mark.django_db
LAST_DAY = date(2027, 6, 10)  # world.walk("issued") issues on March 10, 2027


def per_row_end_terminated_privileges(*, today):
    due = list(
        Permit.objects.filter(
            kind=PermitKind.STREET_PRIVILEGE, status__in=sp.IN_FORCE, expires_on__lte=today + rules.TERMINATION_WARNING
        ).select_related("applicant", "street_privilege")
    )
    done = 0
    for permit in due:
        privilege = permit.street_privilege
        if rules.has_terminated(last_day=permit.expires_on, today=today):
            with transaction.atomic():
                try:
                    workflow.transition(
                        permit,
                        Status.EXPIRED,
                        by=None,
                        today=today,
                        reason="Ended three months after issue, or on "
                        "the Building Inspector's date (§ 303-7E); closing inspection opened (§ 303-7D(7))",
                    )
                except workflow.IllegalTransition:
                    continue
                StreetPrivilege.objects.filter(permit_id=permit.pk, closing_inspection_opened_on__isnull=True).update(
                    closing_inspection_opened_on=today
                )
                services.send_notice(
                    permit, to=permit.applicant.email, template="street_privilege_ended", context={"permit": permit}
                )
            done += 1
        elif rules.is_due_termination_notice(last_day=permit.expires_on, today=today):
            with transaction.atomic():
                rows = StreetPrivilege.objects.filter(pk=privilege.pk)
                if not mark_once(rows, "termination_notice_for", permit.expires_on):
                    continue
                services.send_notice(
                    permit,
                    to=permit.applicant.email,
                    template="street_privilege_terminating",
                    context={"permit": permit},
                )
            done += 1
    return len(due), done


def _fields(row) -> dict:
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields if not f.primary_key}


def copies(permit, n, **changes):
    """n more permits like `permit` (its detail too), as a backlog at scale would hold."""
    privilege = StreetPrivilege.objects.get(permit=permit)
    start = Permit.objects.count()
    made = Permit.objects.bulk_create(
        [
            Permit(
                **{
                    **_fields(Permit.objects.get(pk=permit.pk)),
                    "number": f"SP-2027-{start + i + 5000}",
                    "public_token": uuid.uuid4(),
                    **changes,
                }
            )
            for i in range(n)
        ]
    )
    StreetPrivilege.objects.bulk_create(
        [StreetPrivilege(**{**_fields(privilege), "permit_id": clone.pk}) for clone in made]
    )
    return made


@pytest.fixture
def every_case(world, contractor):
    """Ended yesterday; ended, with its closing inspection already open; ending in a week; in its last week and
    already told; revoked; not yet in its last week; a permittee with expiry notices turned off."""
    first = world.walk("issued")
    ended = copies(first, 2, expires_on=LAST_DAY - timedelta(days=1))
    StreetPrivilege.objects.filter(permit=ended[1]).update(closing_inspection_opened_on=LAST_DAY)
    ending = copies(first, 2, expires_on=LAST_DAY + timedelta(days=6))
    StreetPrivilege.objects.filter(permit=ending[1]).update(termination_notice_for=LAST_DAY + timedelta(days=6))
    revoked = copies(first, 1, expires_on=LAST_DAY - timedelta(days=1), status=Status.REVOKED)
    later = copies(first, 1, expires_on=LAST_DAY + timedelta(days=30))
    return [first.pk, *(p.pk for p in ended + ending + revoked + later)]


DETAILS = [(StreetPrivilege.objects.all(), ("permit_id", "termination_notice_for", "closing_inspection_opened_on"))]


@pytest.mark.parametrize("quiet", [False, True])
def test_303_7e_the_job_writes_what_the_per_row_job_wrote(every_case, contractor, quiet, capture_on_commit):
    if quiet:
        NoticePreference.objects.create(user=contractor, topic="expiry", by_email=False)
    kwargs = dict(permit_ids=every_case, details=DETAILS, today=LAST_DAY)
    old = run_rolled_back(per_row_end_terminated_privileges, capture_on_commit, **kwargs)
    new = run_rolled_back(sp.end_terminated_privileges, capture_on_commit, **kwargs)
    assert new == old
    (considered, done), wrote = new
    assert (considered, done) == (5, 4)  # two ended, two told (the first on its last day); none told twice
    assert [s for _, s, *_ in wrote["permits"]].count(Status.EXPIRED) == 2
    assert bool(wrote["delivered"]) is not quiet


@pytest.fixture
def capture_on_commit(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _statements(today):
    with CaptureQueriesContext(connection) as ctx:
        result = sp.end_terminated_privileges(today=today)
    return result, len(ctx.captured_queries)


def test_303_7e_statements_do_not_grow_with_the_permits(world):
    first = world.walk("issued")
    copies(first, 2, expires_on=LAST_DAY - timedelta(days=1))
    copies(first, 3, expires_on=LAST_DAY + timedelta(days=6))
    few = _statements(LAST_DAY)
    copies(first, 29, expires_on=LAST_DAY - timedelta(days=1))
    copies(first, 30, expires_on=LAST_DAY + timedelta(days=5))
    many = _statements(LAST_DAY)
    assert few[0] == (6, 6) and many[0] == (63, 59)  # the first (its last day) and the 3 told before: not again
    assert many[1] == few[1]
