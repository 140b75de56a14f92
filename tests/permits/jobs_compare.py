"""A set-based job must write, row for row, what its per-row version wrote. run_rolled_back() runs a job
(the per-row reference or the set-based one) on the same rows, delivers its notices as a commit would, records what
it wrote and rolls it all back, so that both versions start from the same data."""

from contextlib import contextmanager

from django.db import transaction

from permits.models import Notice, Permit, PermitEvent


class _Rollback(Exception):
    pass


def written(permit_ids, *, details=()) -> dict:
    """What the jobs write about these permits: their statuses and dates, their timelines (each permit's rows in
    order), their notices (delivered or not) and the given detail rows' fields, as (queryset, fields)."""
    permits = Permit.objects.filter(pk__in=permit_ids).order_by("pk")
    return {
        "permits": list(permits.values_list("pk", "status", "expires_on", "closed_on", "completed_on")),
        "events": list(
            PermitEvent.objects.filter(permit_id__in=permit_ids)
            .order_by("permit_id", "pk")
            .values_list("permit_id", "kind", "from_status", "to_status", "actor_id", "actor_label", "reason")
        ),
        "notices": list(
            Notice.objects.filter(permit_id__in=permit_ids)
            .order_by("permit_id", "pk")
            .values_list(
                "permit_id", "channel", "to", "subject", "body", "template", "record_type_id", "record_id", "mailed_on"
            )
        ),
        "delivered": sorted(
            Notice.objects.filter(permit_id__in=permit_ids, sent_at__isnull=False).values_list("permit_id", "template")
        ),
        "details": [list(qs.order_by("pk").values_list(*fields)) for qs, fields in details],
    }


def mark_once(rows, field: str, value) -> bool:
    """The per-row versions' once-only guard: write `value` to `field` of `rows` unless it holds it already. False
    when an earlier run got there first, and the row is skipped."""
    return bool(rows.exclude(**{field: value}).update(**{field: value}))


@contextmanager
def _deliveries_in_process():
    """The on-commit deliveries run here, as the worker would run them: in production mode (.ci/run's second pass)
    they would otherwise be queued to Redis, where no worker serves this test."""
    from theresa_permits.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


def run_rolled_back(job, capture, *, permit_ids, details=(), **kwargs):
    """(job's result, what it wrote) with its on-commit deliveries run; then everything is rolled back."""
    try:
        with transaction.atomic(), _deliveries_in_process():
            with capture(execute=True):
                result = job(**kwargs)
            seen = written(permit_ids, details=details)
            raise _Rollback
    except _Rollback:
        pass
    return result, seen
