"""§ 303-7E's nightly job (a JobRun each run; told a week ahead; ended after the last day with the closing inspection
opened). How an obstruction case reads a § 303-7 permit (§ 303-6B(1)) is in tests/obstructions/test_materials.py."""

from datetime import date, timedelta

import pytest

from permits.models import JobRun, Notice, Permit, Status
from permits.street_privilege import tasks

pytestmark = pytest.mark.django_db
LAST_DAY = date(2027, 6, 10)  # issued March 10, 2027


def test_303_7e_the_last_day_is_still_in_force(world):
    permit = world.walk("issued")
    result = tasks.end_terminated_street_privileges(LAST_DAY.isoformat())
    assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED
    assert JobRun.objects.get(pk=result["job_run"]).state == JobRun.State.FINISHED


def test_303_7e_the_day_after_the_last_day_the_job_ends_it(world):
    permit = world.walk("issued")
    result = tasks.end_terminated_street_privileges((LAST_DAY + timedelta(days=1)).isoformat())
    permit.refresh_from_db()
    assert permit.status == Status.EXPIRED
    assert permit.street_privilege.closing_inspection_opened_on == LAST_DAY + timedelta(days=1)
    assert result["items_done"] == 1
    assert Notice.objects.filter(permit=permit, template="street_privilege_ended").count() == 1


def test_303_7e_a_second_run_changes_nothing(world):
    world.walk("issued")
    day = (LAST_DAY + timedelta(days=1)).isoformat()
    tasks.end_terminated_street_privileges(day)
    again = tasks.end_terminated_street_privileges(day)
    assert again["items_done"] == 0
    assert JobRun.objects.filter(name="street_privileges.end_terminated").count() == 2


def test_303_7e_the_permittee_is_told_a_week_ahead_once(world):
    permit = world.walk("issued")
    tasks.end_terminated_street_privileges((LAST_DAY - timedelta(days=8)).isoformat())
    assert not Notice.objects.filter(permit=permit, template="street_privilege_terminating").exists()
    tasks.end_terminated_street_privileges((LAST_DAY - timedelta(days=7)).isoformat())
    tasks.end_terminated_street_privileges((LAST_DAY - timedelta(days=6)).isoformat())
    assert Notice.objects.filter(permit=permit, template="street_privilege_terminating").count() == 1


def test_the_nightly_job_is_in_the_beat_schedule(settings):
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "permits.street_privilege.tasks.end_terminated_street_privileges" in tasks_scheduled
