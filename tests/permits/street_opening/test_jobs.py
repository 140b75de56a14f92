"""Scheduled jobs: each records a JobRun and is a no-op on its second run; one runs on a real worker."""

import dataclasses
from datetime import date, datetime

import pytest
import time_machine

from permits.models import JobRun, Notice, Permit, Status
from permits.street_opening import services as so
from permits.street_opening.models import ApplicantRevocation
from permits.street_opening.tasks import (
    expire_lapsed_street_openings,
    flag_unfiled_emergencies,
    lift_ended_revocations,
    remind_expiring_street_openings,
)
from tests.permits.street_opening.conftest import CHICAGO, annual_bond, emergency

pytestmark = pytest.mark.django_db


def test_expire_job_records_a_run_and_does_nothing_the_second_time(approved):
    first = expire_lapsed_street_openings("2026-06-04")
    assert (first["items_total"], first["items_done"]) == (1, 1)
    run = JobRun.objects.get(pk=first["job_run"])
    assert run.state == JobRun.State.FINISHED and run.finished_at and run.name == "street_openings.expire_lapsed"
    events = approved.events.count()
    second = expire_lapsed_street_openings("2026-06-04")
    assert (second["items_total"], second["items_done"]) == (0, 0)
    assert approved.events.count() == events
    assert Permit.objects.get(pk=approved.pk).status == Status.EXPIRED


def test_remind_job_is_a_no_op_the_second_time(issued):
    assert remind_expiring_street_openings("2026-05-29")["items_done"] == 1
    notices = Notice.objects.count()
    assert remind_expiring_street_openings("2026-05-29")["items_done"] == 0
    assert Notice.objects.count() == notices
    assert JobRun.objects.filter(name="street_openings.remind_expiring").count() == 2


def test_flag_job_is_a_no_op_the_second_time(street, clerk):
    emergency(street, clerk)
    assert flag_unfiled_emergencies("2026-05-04")["items_done"] == 1
    assert flag_unfiled_emergencies("2026-05-04")["items_done"] == 0


def test_lift_job_is_a_no_op_the_second_time(application, dpw_director):
    so.revoke_applicant(permit=application, by=dpw_director, reason="x", today=date(2026, 5, 4))
    assert lift_ended_revocations("2027-05-04")["items_done"] == 1
    assert lift_ended_revocations("2027-05-04")["items_done"] == 0
    assert ApplicantRevocation.objects.get().lifted_at is not None


def test_job_without_a_date_uses_today(approved):
    with time_machine.travel(datetime(2026, 6, 4, 1, 0, tzinfo=CHICAGO), tick=False):
        assert expire_lapsed_street_openings()["items_done"] == 1


def test_a_failing_job_records_its_failure(monkeypatch):
    def boom(*, today):
        raise RuntimeError("database away")

    monkeypatch.setattr(so, "lift_ended_revocations", boom)
    with pytest.raises(RuntimeError):
        lift_ended_revocations("2027-01-01")
    run = JobRun.objects.get()
    assert run.state == JobRun.State.FAILED and "database away" in run.message


def test_jobs_are_on_the_beat_schedule(settings):
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    # § 303-4D expiry runs in the core's job over every type that expires (permits.kinds), street openings among them.
    assert "permits.tasks.expire_lapsed_permits" in tasks
    for name in (
        "remind_expiring_street_openings",
        "flag_unfiled_emergencies",
        "lift_ended_revocations",
    ):
        assert f"permits.street_opening.tasks.{name}" in tasks


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_expire_job_on_a_real_worker_is_idempotent(
    real_worker, street, contractor, contractor_org, clerk, dpw_director, board_bond_amounts
):
    from permits.models import FeeItem
    from tests.permits.street_opening.conftest import file_certificate, valid_data

    # A transactional test may follow another that flushed the fee rows the data migration seeded.
    FeeItem.objects.get_or_create(
        code="street_opening",
        effective_from=date(2020, 1, 1),
        defaults={"name": "Street opening permit", "amount": 50, "citation": "§ 303-4F(2)", "basis": "test"},
    )
    annual_bond(contractor_org, clerk, surety="S", amount=25000)
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO), tick=False):
        permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
        file_certificate(permit, contractor)
        so.begin_review(permit=permit, by=clerk)
        so.approve_street_opening(permit=permit, by=dpw_director)
    first = expire_lapsed_street_openings.delay("2026-06-04").get(timeout=30)
    second = expire_lapsed_street_openings.delay("2026-06-04").get(timeout=30)
    assert first["items_done"] == 1 and second["items_done"] == 0
    assert Permit.objects.get(pk=permit.pk).status == Status.EXPIRED
    assert JobRun.objects.filter(name="street_openings.expire_lapsed", state="finished").count() == 2


@pytest.mark.django_db
def test_303_4d_the_core_expiry_job_reads_the_registry_and_expires_street_openings(
    spring, street, contractor, contractor_org, clerk, dpw_director, monkeypatch
):
    from permits import kinds
    from permits.tasks import expire_lapsed_permits

    expiring = [t.kind for t in kinds.online_types() if t.expires]
    assert expiring == ["street_opening"]
    calls = []
    record = kinds.registry()["street_opening"]
    monkeypatch.setitem(
        kinds.registry(),
        "street_opening",
        dataclasses.replace(record, expire_lapsed=lambda *, today: calls.append(today) or (2, 1)),
    )
    result = expire_lapsed_permits("2026-06-04")
    assert calls == [date(2026, 6, 4)] and result["items_total"] == 2 and result["items_done"] == 1
    assert JobRun.objects.get(pk=result["job_run"]).name == "permits.expire_lapsed"
