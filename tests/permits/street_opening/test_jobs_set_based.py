"""The street opening's nightly jobs are set-based (statements per chunk, not per permit) and write, row for
row, what their per-row versions wrote: § 303-4D expiry and the end of the right to open (§ 303-5G), and the
reminder five days before expiry (once per expiry date). The per-row versions are kept here as the reference."""

from datetime import date, timedelta

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from permits import services, workflow
from permits.models import Notice, NoticePreference, Permit, PermitEvent, PermitKind, Status
from permits.roles import Role
from permits.street_opening import lifecycle, validity
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so_services
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import PavementRestoration
from permits.street_opening.models import DiggersTicket, EmergencyReport, StreetOpening
from permits.tasks import expire_lapsed
from tests.conftest import staff_user
from tests.factories import PermitFactory, UserFactory
from tests.permits.jobs_compare import mark_once, run_rolled_back
from tests.permits.street_opening.conftest import REPORTED, emergency
from tests.permits.street_opening.field.conftest import add_detail, issue

pytestmark = pytest.mark.django_db

ISSUED = date(2026, 6, 1)  # valid through July 1 (§ 303-4D)
LAPSED_DAY = date(2026, 7, 2)
REMIND_DAY = date(2026, 6, 27)  # five days before July 1


# --- The per-row versions, as the reference ------------------------------------------------------------------------


def per_row_end_lapsed_validity(*, today):
    lapsed = list(
        Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=lifecycle.VALID_STATUSES, expires_on__lt=today)
        .select_related("applicant", "street_opening")
        .order_by("pk")
    )
    done = 0
    for permit in lapsed:
        so = getattr(permit, "street_opening", None)
        opened = lifecycle.was_opened(permit, so)
        outcome = validity.lapse_outcome(expires_on=permit.expires_on, today=today, opened=opened)
        if outcome == "expire":
            with transaction.atomic():
                workflow.transition(
                    permit,
                    Status.EXPIRED,
                    by=None,
                    today=today,
                    reason=f"Validity ended {permit.expires_on:%B %-d, %Y} with the street never opened (§ 303-4D)",
                )
            done += 1
        elif outcome == "opening_lapsed" and so is not None:
            lapsed_on = permit.expires_on + validity.ONE_DAY
            with transaction.atomic():
                if not mark_once(StreetOpening.objects.filter(pk=so.pk), "opening_lapsed_on", lapsed_on):
                    continue
                restoration = PavementRestoration.objects.filter(permit=permit).first()
                due = (
                    f"permanent pavement due by {restoration.permanent_due_on:%B %-d, %Y} (§ 303-5G(4)), "
                    if restoration and restoration.permanent_completed_on is None
                    else ""
                )
                services.record_event(
                    permit,
                    by=None,
                    reason=f"The right to open the street ended {lapsed_on:%B %-d, %Y} (§ 303-4D). The restoration "
                    f"duties remain: {due}inspections, completion and the one-year guarantee (§ 303-5G, § 303-4H(3)).",
                )
                services.send_notice(
                    permit,
                    to=permit.applicant.email,
                    template="street_opening_opening_lapsed",
                    context={"permit": permit, "lapsed_on": lapsed_on, "restoration": restoration},
                )
            done += 1
    return len(lapsed), done


def per_row_remind_expiring(*, today):
    due = list(
        StreetOpening.objects.select_related("permit__applicant")
        .filter(
            permit__status__in=so_services.ACTIVE_STATUSES,
            permit__expires_on__gte=today,
            permit__expires_on__lte=today + so_services.REMINDER_LEAD,
        )
        .exclude(expiry_reminder_for=F("permit__expires_on"))
    )
    sent = 0
    for so in due:
        permit = so.permit
        with transaction.atomic():
            if not mark_once(StreetOpening.objects.filter(pk=so.pk), "expiry_reminder_for", permit.expires_on):
                continue
            services.send_notice(
                permit, to=permit.applicant.email, template="street_opening_expiry_reminder", context={"permit": permit}
            )
            sent += 1
    return len(due), sent


# --- A handful of permits in every case the jobs tell apart --------------------------------------------------------


@pytest.fixture
def opening(contractor, contractor_org):
    def make(*, applicant=None, on=ISSUED, **detail):
        permit = PermitFactory(
            applicant=applicant or contractor,
            organization=contractor_org,
            start_date=on,
            end_date=on + timedelta(days=2),
        )
        add_detail(permit, **detail)
        return issue(permit, on=on)

    return make


@pytest.fixture
def every_case(opening, inspector):
    """Never opened (issued, approved); begun; inspected (so active); a winter patch; pavement done; already marked
    lapsed; still valid; an applicant who turned expiry notices off; one with no email on file."""
    quiet = UserFactory(username="quiet")
    NoticePreference.objects.create(user=quiet, topic="expiry", by_email=False)
    never = opening()
    approved = opening()
    Permit.objects.filter(pk=approved.pk).update(status=Status.APPROVED, issued_on=None)
    begun = opening(work_begun_on=date(2026, 6, 3))
    PavementRestoration.objects.create(permit=begun, permanent_due_on=date(2026, 7, 31))
    inspected = opening()
    field_work.log_inspection(
        permit=inspected,
        kind="trench",
        by=inspector,
        values={"excavated_ahead_feet": 100, "unfilled_feet": 200},
    )
    patched = opening()
    PavementRestoration.objects.create(
        permit=patched, permanent_due_on=date(2027, 6, 1), temporary_placed_on=date(2026, 6, 20)
    )
    done = opening(work_begun_on=date(2026, 6, 3))
    PavementRestoration.objects.create(
        permit=done, permanent_due_on=date(2026, 7, 31), permanent_completed_on=date(2026, 6, 25)
    )
    marked = opening(work_begun_on=date(2026, 6, 3))
    StreetOpening.objects.filter(permit=marked).update(opening_lapsed_on=LAPSED_DAY)
    valid = opening(on=date(2026, 6, 20))
    quiet_never = opening(applicant=quiet)
    quiet_begun = opening(applicant=quiet, work_begun_on=date(2026, 6, 3))
    no_email = opening(applicant=UserFactory(username="noemail", email=""), work_begun_on=date(2026, 6, 3))
    permits = [never, approved, begun, inspected, patched, done, marked, valid, quiet_never, quiet_begun, no_email]
    return [p.pk for p in permits]


DETAILS = [(StreetOpening.objects.all(), ("permit_id", "opening_lapsed_on", "expiry_reminder_for"))]


def test_303_4d_expiry_writes_what_the_per_row_job_wrote(every_case, django_capture_on_commit_callbacks):
    old = run_rolled_back(
        per_row_end_lapsed_validity,
        django_capture_on_commit_callbacks,
        permit_ids=every_case,
        details=DETAILS,
        today=LAPSED_DAY,
    )
    new = run_rolled_back(
        lifecycle.end_lapsed_validity,
        django_capture_on_commit_callbacks,
        permit_ids=every_case,
        details=DETAILS,
        today=LAPSED_DAY,
    )
    assert new == old
    (considered, changed), wrote = new
    assert (considered, changed) == (10, 9)  # the valid one is not lapsed; the marked one is told once only
    statuses = [status for _, status, *_ in wrote["permits"]]
    assert statuses.count(Status.EXPIRED) == 3  # never opened: issued, approved, and the quiet applicant's
    assert {t for _, t in wrote["delivered"]} == {"street_opening_opening_lapsed"}
    assert any("turned off in their notice preferences" in e[-1] for e in wrote["events"])


def test_303_4d_reminder_writes_what_the_per_row_job_wrote(every_case, django_capture_on_commit_callbacks):
    kwargs = dict(permit_ids=every_case, details=DETAILS, today=REMIND_DAY)
    old = run_rolled_back(per_row_remind_expiring, django_capture_on_commit_callbacks, **kwargs)
    new = run_rolled_back(so_services.remind_expiring_street_openings, django_capture_on_commit_callbacks, **kwargs)
    assert new == old
    assert new[0] == (10, 10)  # every one in force but the valid one, which expires later


def test_303_4d_reminder_once_per_expiry_date(opening):
    permit = opening()
    assert so_services.remind_expiring_street_openings(today=REMIND_DAY) == (1, 1)
    assert so_services.remind_expiring_street_openings(today=REMIND_DAY) == (0, 0)
    Permit.objects.filter(pk=permit.pk).update(expires_on=date(2026, 7, 31))  # renewed: a new reminder is due
    assert so_services.remind_expiring_street_openings(today=date(2026, 7, 27)) == (1, 1)
    assert permit.notices.filter(template="street_opening_expiry_reminder").count() == 2


def _statements(job, **kwargs):
    with CaptureQueriesContext(connection) as ctx:
        result = job(**kwargs)
    return result, len(ctx.captured_queries)


def _backlog(opening, n):
    """n never opened, n begun (their right to open lapses), n expiring in five days."""
    for _ in range(n):
        opening()
        opening(work_begun_on=date(2026, 6, 3))


def test_303_4d_expiry_statements_do_not_grow_with_the_lapsed_permits(opening):
    _backlog(opening, 3)
    few = _statements(expire_lapsed, today=LAPSED_DAY)
    Permit.objects.filter(status=Status.EXPIRED).update(status=Status.CLOSED)  # out of the next run's way
    StreetOpening.objects.update(opening_lapsed_on=LAPSED_DAY)
    _backlog(opening, 30)
    many = _statements(expire_lapsed, today=LAPSED_DAY)
    assert few[0] == (6, 6) and many[0] == (60 + 3, 60)  # the 3 marked before are considered, not told twice
    assert many[1] == few[1]


def test_303_4d_reminder_statements_do_not_grow_with_the_permits(opening):
    for _ in range(3):
        opening()
    few = _statements(so_services.remind_expiring_street_openings, today=REMIND_DAY)
    for _ in range(30):
        opening()
    many = _statements(so_services.remind_expiring_street_openings, today=REMIND_DAY)
    assert few[0] == (3, 3) and many[0] == (30, 30)
    assert many[1] == few[1]


# --- Wis. Stat. § 182.0175: stale tickets the day before work ------------------------------------------------------

WORK_DAY = date(2026, 6, 10)


def per_row_warn_stale_tickets(*, today):
    due = list(
        Permit.objects.filter(
            kind=PermitKind.STREET_OPENING,
            status__in=so_services.ACTIVE_STATUSES,
            start_date__gte=today,
            start_date__lte=today + timedelta(days=1),
            street_opening__work_begun_on__isnull=True,
        )
        .select_related("applicant", "street_opening")
        .order_by("pk")
    )
    warned = 0
    for permit in due:
        with transaction.atomic():
            if so_services.warn_about_tickets(permit, today=today, when="before work starts"):
                warned += 1
    return len(due), warned


def ticket(permit, *, legal_start, contractor="Brandt Excavating", number=None):
    DiggersTicket.objects.create(
        street_opening=permit.street_opening,
        contractor=contractor,
        number=number or f"T{permit.pk}-{contractor}",
        requested_at=timezone.now(),
        legal_start=legal_start,
        entered_by=permit.applicant,
        entered_at=timezone.now(),
    )


@pytest.fixture
def starting_tomorrow(opening):
    def make(*legal_starts, **kw):
        permit = opening(**kw)
        Permit.objects.filter(pk=permit.pk).update(
            start_date=WORK_DAY + timedelta(days=1), end_date=WORK_DAY + timedelta(days=3)
        )
        for i, legal in enumerate(legal_starts):
            ticket(permit, legal_start=legal, contractor=f"Excavator {i}")
        return permit

    return make


def test_182_0175_stale_tickets_write_what_the_per_row_job_wrote(
    starting_tomorrow, dpw_director, django_capture_on_commit_callbacks
):
    stale = starting_tomorrow(date(2026, 5, 25))  # stale after June 4
    two = starting_tomorrow(date(2026, 5, 25), date(2026, 5, 30))  # both stale by the start
    fresh = starting_tomorrow(date(2026, 6, 8))
    none = starting_tomorrow()
    told = starting_tomorrow(date(2026, 5, 25))
    services.record_event(
        told, by=None, reason=f"Diggers Hotline ticket check before work starts ({WORK_DAY:%B %-d, %Y}): told"
    )
    ids = [p.pk for p in (stale, two, fresh, none, told)]
    kwargs = dict(permit_ids=ids, today=WORK_DAY)
    old = run_rolled_back(per_row_warn_stale_tickets, django_capture_on_commit_callbacks, **kwargs)
    new = run_rolled_back(so_services.warn_stale_tickets_before_work, django_capture_on_commit_callbacks, **kwargs)
    assert new == old
    assert new[0][1] == 3  # the stale ones, the one told today among them
    assert {to for _, _, to, *_ in new[1]["notices"]} == {stale.applicant.email, dpw_director.email}


def test_182_0175_stale_ticket_statements_do_not_grow_with_the_permits(starting_tomorrow, dpw_director):
    for _ in range(3):
        starting_tomorrow(date(2026, 5, 25))
    few = _statements(so_services.warn_stale_tickets_before_work, today=WORK_DAY)
    for _ in range(30):
        starting_tomorrow(date(2026, 5, 25))
    PermitEvent.objects.filter(reason__startswith="Diggers Hotline ticket check").delete()
    many = _statements(so_services.warn_stale_tickets_before_work, today=WORK_DAY)
    assert few[0] == (3, 3) and many[0] == (33, 33)
    assert many[1] == few[1]


# --- § 303-5H: emergencies with no application by the next business day -------------------------------------------

MAY_5 = date(2026, 5, 5)  # Thursday April 30's next business day, May 1, has passed


def per_row_flag_unfiled_emergencies(*, today):
    pending = list(
        EmergencyReport.objects.filter(permit__isnull=True, flagged_at__isnull=True).select_related("street")
    )
    late = [r for r in pending if today > ordinance.emergency_filing_deadline(r.began_on)]
    flagged = 0
    for report in late:
        with transaction.atomic():
            if not EmergencyReport.objects.filter(pk=report.pk, flagged_at__isnull=True).update(
                flagged_at=timezone.now()
            ):
                continue
            for email in so_services._clerk_emails():
                services.send_notice(
                    None,
                    to=email,
                    template="street_opening_emergency_unfiled",
                    context={"report": report, "deadline": ordinance.emergency_filing_deadline(report.began_on)},
                )
            flagged += 1
    return len(late), flagged


def flagged_and_told(capture, job, **kwargs):
    try:
        with transaction.atomic():
            with capture(execute=True):
                result = job(**kwargs)
            seen = (
                result,
                sorted(EmergencyReport.objects.filter(flagged_at__isnull=False).values_list("pk", flat=True)),
                sorted(
                    (n.permit_id, n.channel, n.to, n.subject, n.body, n.sent_at is not None)
                    for n in Notice.objects.filter(template="street_opening_emergency_unfiled")
                ),
            )
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    return seen


def test_303_5h_unfiled_emergencies_write_what_the_per_row_job_wrote(
    street, clerk, contractor_org, django_capture_on_commit_callbacks
):
    staff_user("clerk2", Role.CLERK)
    emergency(street, clerk)
    emergency(street, clerk, organization=contractor_org)
    emergency(street, clerk, began_on=date(2026, 5, 4))  # its next business day has not passed
    emergency(street, clerk, flagged_at=REPORTED)  # flagged before
    old = flagged_and_told(django_capture_on_commit_callbacks, per_row_flag_unfiled_emergencies, today=MAY_5)
    new = flagged_and_told(django_capture_on_commit_callbacks, so_services.flag_unfiled_emergencies, today=MAY_5)
    assert new == old
    assert new[0] == (2, 2) and len(new[2]) == 4  # two reports, each told to both clerks


def test_303_5h_unfiled_emergency_statements_do_not_grow_with_the_reports(street, clerk):
    def statements():
        with CaptureQueriesContext(connection) as ctx:
            result = so_services.flag_unfiled_emergencies(today=MAY_5)
        return result, len(ctx.captured_queries)

    emergency(street, clerk)
    statements()  # the first run reads the office-closure calendar once (cached for the process)
    for _ in range(3):
        emergency(street, clerk)
    few = statements()
    for _ in range(30):
        emergency(street, clerk)
    many = statements()
    assert few[0] == (3, 3) and many[0] == (30, 30)
    assert many[1] == few[1]
