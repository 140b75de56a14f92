"""§ 303-15B(4): a street use permit is completed by the nightly job once its event has ended."""

from datetime import date

import pytest

from permits.models import JobRun, Permit, PermitEvent, PermitKind, Status
from permits.street_use import rules
from permits.street_use.tasks import complete_ended_street_uses
from tests.factories import PermitFactory

pytestmark = pytest.mark.django_db
LAST_DAY = date(2026, 7, 4)


def issued_event(last_day=LAST_DAY):
    permit = PermitFactory(kind=PermitKind.STREET_USE)
    Permit.objects.filter(pk=permit.pk).update(status=Status.ISSUED, start_date=last_day, end_date=last_day)
    return permit


@pytest.mark.parametrize(("today", "ended"), [(date(2026, 7, 3), False), (LAST_DAY, False), (date(2026, 7, 5), True)])
def test_303_15b_4_the_event_ends_the_day_after_its_last_day(today, ended):
    assert rules.event_has_ended(end_date=LAST_DAY, today=today) is ended


def test_303_15b_4_the_job_leaves_the_permit_issued_on_its_last_day():
    permit = issued_event()
    complete_ended_street_uses(LAST_DAY.isoformat())
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED


def test_303_15b_4_the_job_completes_it_the_day_after_once_and_audited():
    permit = issued_event()
    complete_ended_street_uses("2026-07-05")
    complete_ended_street_uses("2026-07-05")  # a second run changes nothing
    permit.refresh_from_db()
    assert (permit.status, permit.completed_on) == (Status.COMPLETED, date(2026, 7, 5))
    steps = PermitEvent.objects.filter(permit=permit, to_status=Status.COMPLETED)
    assert steps.count() == 1 and steps.get().actor is None and "§ 303-15B(4)" in steps.get().reason
    assert JobRun.objects.filter(name="street_uses.complete_ended").count() == 2


def test_the_job_is_on_the_beat_schedule(settings):
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "permits.street_use.tasks.complete_ended_street_uses" in tasks


@pytest.mark.parametrize(("today", "allowed"), [(date(2026, 7, 3), False), (LAST_DAY, True)])
def test_303_15b_4_the_clerk_completes_it_early_from_its_first_day_not_before(clerk, today, allowed):
    from permits import workflow
    from permits.errors import RulesBroken

    permit = issued_event()
    permit.refresh_from_db()
    if allowed:
        workflow.transition(permit, Status.COMPLETED, by=clerk, today=today)
        assert Permit.objects.get(pk=permit.pk).status == Status.COMPLETED
    else:
        with pytest.raises(RulesBroken) as refused:
            workflow.transition(permit, Status.COMPLETED, by=clerk, today=today)
        assert "§ 303-15B(4)" in str(refused.value.violations[0].message)
        assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED
