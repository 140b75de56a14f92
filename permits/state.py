"""The one audited state change for records other than permits (special charges, sidewalk orders, snow and rubbish
cases, tax-roll batches, obstructions, Board waiver requests, grade applications, parcel link requests, renewal
requests). Permits change status only through permits.workflow.transition(); tests/permits/test_status_writes_audited.py
refuses any other status write.

Like transition(): a conditional UPDATE (two clerks, or a clerk and a nightly job, cannot both move a record), and a
StateChange row with who, when, from, to and why in the same transaction.
"""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from permits.errors import IllegalTransition, RulesBroken, Violation
from permits.models import StateChange
from permits.roles import STAFF_ROLES, roles_of

SYSTEM_ACTOR = "the permit system"


def actor_label(user) -> str:
    """Who acted, as a timeline shows it to the applicant, the staff and the public record: a person's name, and a
    staff member's office; never a username (it names a login, not a person). `None` is the system itself: a job,
    or a notice sent on its own when something happened."""
    if user is None:
        return SYSTEM_ACTOR
    name = user.get_full_name()
    offices = ", ".join(sorted(roles_of(user) & set(STAFF_ROLES))) if user.pk else ""
    if offices:
        return f"{name}, {offices}" if name else offices
    return name or "the applicant"


def change_state(
    record,
    *,
    to: str,
    from_states,
    by,
    reason: str = "",
    field: str = "status",
    refusal: Violation | None = None,
    **fields,
):
    """Move `record` from one of `from_states` to `to` (its `field`), writing `fields` in the same UPDATE and a
    StateChange row. `by=None` is the system (a scheduled job). Raises IllegalTransition when the record is no longer
    in one of `from_states` (someone else acted first, or it is frozen); with a `refusal`, RulesBroken([refusal])
    instead, for the services whose pages show the refusal as a form error."""
    model = type(record)
    now = timezone.now()
    with transaction.atomic():
        current = model.objects.filter(pk=record.pk).values_list(field, flat=True).first()
        updated = model.objects.filter(pk=record.pk, **{f"{field}__in": list(from_states)}).update(
            **{field: to}, **fields
        )
        if updated != 1:
            record.refresh_from_db()
            if refusal is not None:
                raise RulesBroken([refusal])
            labels = dict(model._meta.get_field(field).choices or [])
            now_label = labels.get(getattr(record, field), getattr(record, field))
            raise IllegalTransition(
                f"{record} is {str(now_label).lower()}: it cannot become {str(labels.get(to, to)).lower()}."
            )
        StateChange.objects.create(
            record_type=ContentType.objects.get_for_model(model),
            record_id=record.pk,
            field=field,
            from_state=current or "",
            to_state=to,
            actor=by,
            actor_label=actor_label(by),
            at=now,
            reason=reason,
        )
    record.refresh_from_db()
    return record


def change_state_many(model, reasons: dict, *, to: str, from_states, by, field: str = "status", **fields) -> list:
    """change_state() for many records of `model` at once (a job's chunk): `reasons` maps each primary key
    to its reason. The rows still in one of `from_states` are locked, moved by one UPDATE (`fields` may be
    expressions, e.g. F("due_on") + 1 day) and get their StateChange rows in one insert; the others (someone acted
    first) are left alone. Returns the primary keys moved. Three statements per chunk, whatever its size."""
    now = timezone.now()
    with transaction.atomic():
        current = dict(
            model.objects.select_for_update()
            .filter(pk__in=list(reasons), **{f"{field}__in": list(from_states)})
            .values_list("pk", field)
        )
        if not current:
            return []
        model.objects.filter(pk__in=list(current)).update(**{field: to}, **fields)
        record_type, label = ContentType.objects.get_for_model(model), actor_label(by)
        StateChange.objects.bulk_create(
            [
                StateChange(
                    record_type=record_type,
                    record_id=pk,
                    field=field,
                    from_state=before or "",
                    to_state=to,
                    actor=by,
                    actor_label=label,
                    at=now,
                    reason=reasons[pk],
                )
                for pk, before in current.items()
            ]
        )
    return list(current)


def history_of(record):
    """The record's state changes, oldest first (one query)."""
    return StateChange.objects.filter(
        record_type=ContentType.objects.get_for_model(type(record)), record_id=record.pk
    ).select_related("actor")
