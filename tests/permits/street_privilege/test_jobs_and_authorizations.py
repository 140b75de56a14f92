"""§ 303-7E's nightly job (a JobRun each run; told a week ahead; ended after the last day with the closing inspection
opened) and the § 303-6B(2) authorizations the obstruction cases read."""

from datetime import date, timedelta
from decimal import Decimal as D

import pytest

from permits.models import JobRun, Notice, Permit, Status
from permits.street_privilege import tasks
from permits.street_privilege.authorizations import MaterialsAuthorization, materials_authorizations_on
from tests.permits.street_privilege.conftest import materials_data

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


def test_303_6b2_an_issued_materials_permit_is_an_authorization_in_its_period(world, main_street):
    permit = world.walk("issued")
    (auth,) = materials_authorizations_on(street_id=main_street.pk, day=date(2027, 3, 15))
    assert auth == MaterialsAuthorization(
        permit_number=permit.number,
        street_id=main_street.pk,
        location_description="In front of 204 Main Street",
        starts_on=date(2027, 3, 15),
        ends_on=LAST_DAY,
        street_width_feet=D("36.0"),
        occupied_street_feet=D("12.0"),
        sidewalk_width_feet=D("5.0"),
        occupied_sidewalk_feet=D("2.5"),
        gutter_kept_flowing=True,
    )
    assert materials_authorizations_on(street_id=main_street.pk, day=LAST_DAY)
    assert materials_authorizations_on(street_id=main_street.pk, day=LAST_DAY + timedelta(days=1)) == []
    assert materials_authorizations_on(street_id=main_street.pk, day=date(2027, 3, 14)) == []


def test_303_6b2_a_free_sidewalk_has_no_sidewalk_widths(world, main_street):
    world.walk("issued", data=materials_data(main_street, sidewalk_occupied=False))
    (auth,) = materials_authorizations_on(street_id=main_street.pk, day=date(2027, 3, 20))
    assert (auth.sidewalk_width_feet, auth.occupied_sidewalk_feet) == (None, None)


def test_303_6b2_approved_and_revoked_permits_authorize_nothing(world, main_street, police_chief):
    from permits.street_privilege import services as sp

    world.walk("approved")
    revoked = world.walk("issued", data=materials_data(main_street, location_description="At 210 Main Street"))
    sp.revoke_street_privilege(permit=revoked, by=police_chief, reason="Not lighted")
    assert materials_authorizations_on(street_id=main_street.pk, day=date(2027, 3, 20)) == []
