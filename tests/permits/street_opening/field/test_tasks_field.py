"""The field jobs: each records a JobRun and a second run changes nothing."""

import datetime
from decimal import Decimal as D

import pytest

from permits.models import JobRun
from permits.street_opening.field import services as field_work
from permits.street_opening.field import tasks as tasks_field
from permits.street_opening.field.models import PavementRestoration
from tests.permits.street_opening.conftest import complete_work
from tests.permits.street_opening.field.conftest import board_finds_defect, issue, record_defect


def _job(name):
    return JobRun.objects.filter(name=name).order_by("started_at", "pk")


@pytest.mark.django_db
def test_pavement_overdue_job_flags_once_and_records_two_runs(issued_permit):
    first = tasks_field.flag_permanent_pavement_overdue("2026-08-01")
    second = tasks_field.flag_permanent_pavement_overdue("2026-08-01")
    assert (first["items_total"], first["items_done"]) == (1, 1)
    assert (second["items_total"], second["items_done"]) == (0, 0)
    runs = list(_job("field.flag_permanent_pavement_overdue"))
    assert [r.state for r in runs] == ["finished", "finished"] and runs[0].items_done == 1
    assert PavementRestoration.objects.get().overdue_flagged_on == datetime.date(2026, 8, 1)


@pytest.mark.django_db
def test_winter_patch_job_is_a_no_op_the_second_time(make_issued, contractor):
    permit = make_issued(emergency=True)
    field_work.record_temporary_pavement(
        permit=permit, by=contractor, placed_on=datetime.date(2026, 12, 3), depth_inches=D("3")
    )
    assert tasks_field.flag_winter_patches_not_replaced("2027-06-01")["items_done"] == 0
    assert tasks_field.flag_winter_patches_not_replaced("2027-06-02")["items_done"] == 1
    assert tasks_field.flag_winter_patches_not_replaced("2027-06-02")["items_done"] == 0


@pytest.mark.django_db
def test_guarantee_job_is_a_no_op_the_second_time(issued_permit, contractor):
    complete_work(issued_permit, permittee=contractor, today=datetime.date(2026, 7, 15))
    assert tasks_field.end_guarantees("2027-07-16")["items_done"] == 1
    assert tasks_field.end_guarantees("2027-07-16")["items_done"] == 0
    assert _job("field.end_guarantees").count() == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("board_designations")
def test_defect_job_is_a_no_op_the_second_time(issued_permit, contractor, dpw_director):
    complete_work(issued_permit, permittee=contractor, today=datetime.date(2026, 7, 15))
    record_defect(issued_permit, dpw_director)  # due 4/1/2027
    assert tasks_field.flag_defects_past_deadline("2027-04-02")["items_done"] == 1
    assert tasks_field.flag_defects_past_deadline("2027-04-02")["items_done"] == 0


@pytest.mark.django_db
def test_reminder_job_is_a_no_op_the_second_time(issued_permit, contractor):
    start = datetime.datetime(2026, 6, 10, 8, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    field_work.schedule_notice_reminders(permit=issued_permit, by=contractor, work_starts_at=start)
    assert tasks_field.send_due_notice_reminders("2026-06-09T12:00:00-05:00")["items_done"] == 2
    assert tasks_field.send_due_notice_reminders("2026-06-09T12:00:00-05:00")["items_done"] == 0


@pytest.mark.django_db
def test_a_failing_job_records_a_failed_run(monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(field_work, "end_guarantees", broken)
    with pytest.raises(RuntimeError):
        tasks_field.end_guarantees("2027-01-01")
    run = _job("field.end_guarantees").get()
    assert run.state == "failed" and "database on fire" in run.message


def test_field_jobs_are_on_the_beat_schedule_and_registered():
    from django.conf import settings

    from theresa_permits.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    for name in (
        "flag_winter_patches_not_replaced",
        "flag_permanent_pavement_overdue",
        "end_guarantees",
        "flag_defects_past_deadline",
        "send_due_notice_reminders",
    ):
        assert f"permits.street_opening.field.tasks.{name}" in scheduled
        assert f"permits.street_opening.field.tasks.{name}" in app.tasks


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_pavement_overdue_job_on_a_real_worker_flags_once(real_worker, contractor, contractor_org):
    from tests.factories import PermitFactory

    issue(PermitFactory(applicant=contractor, organization=contractor_org))
    first = tasks_field.flag_permanent_pavement_overdue.delay("2026-08-01").get(timeout=30)
    second = tasks_field.flag_permanent_pavement_overdue.delay("2026-08-01").get(timeout=30)
    assert (first["items_done"], second["items_done"]) == (1, 0)
    assert PavementRestoration.objects.get().overdue
    assert _job("field.flag_permanent_pavement_overdue").filter(state="finished").count() == 2


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.usefixtures("board_designations")
def test_defect_job_on_a_real_worker_revokes_once(real_worker, make_issued, contractor, contractor_org, dpw_director):
    from permits.street_opening.models import ApplicantRevocation

    permit = make_issued()
    complete_work(permit, permittee=contractor, today=datetime.date(2026, 7, 15))
    board_finds_defect(permit)  # due 4/1/2027
    assert tasks_field.flag_defects_past_deadline.delay("2027-04-02").get(timeout=30)["items_done"] == 1
    assert tasks_field.flag_defects_past_deadline.delay("2027-04-02").get(timeout=30)["items_done"] == 0
    assert ApplicantRevocation.objects.filter(organization=contractor_org).count() == 1


@pytest.mark.slow
@pytest.mark.django_db
def test_demo_loader_is_idempotent():
    from permits.demo import load_demo
    from permits.street_opening.field.demo import load
    from permits.street_opening.field.models import Inspection, PermitteeNotice, VillageExpense

    load_demo(password="demo-password-123")
    first = load()["permit"]
    load()
    assert first is not None and first.inspections.count() == 4
    assert Inspection.objects.count() == 4
    assert VillageExpense.objects.get().permit == first
    assert PermitteeNotice.objects.filter(given_at__isnull=False).count() == 1
