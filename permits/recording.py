"""Writing register entries: who recorded them, and the writes that happen once however many clerks, pages or job
runs try them (the database decides, not a prior read).

- `recorded_by`: the stamp every register entry carries, the person who recorded it and when.
- `create_once`: a register entry a uniqueness constraint allows once (one grade in force, one pending application,
  one presence per agenda item, one signature per person); the second is refused as the rule that forbids it.
- `stamp_once`: a nightly job's chunk, stamping only the rows whose stamp is still empty (a reminder sent, a report
  flagged), so a second or concurrent run does nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from permits.errors import RulesBroken


def recorded_by(by) -> dict:
    """The fields that say who recorded an entry and when: `Model.objects.create(..., **recorded_by(by))`."""
    return {"recorded_by": by, "recorded_at": timezone.now()}


def create_once(model, *, refusal: RulesBroken, **fields):
    """Create a `model` row from `fields` in its own savepoint; when a uniqueness constraint refuses it (someone
    recorded it first), raise `refusal` instead and leave the caller's transaction usable."""
    try:
        with transaction.atomic():
            return model.objects.create(**fields)
    except IntegrityError:
        raise refusal from None


def stamp_once(model, records, *, field: str, value) -> set:
    """Lock those of `records` whose `field` is still empty, set it to `value` in one UPDATE, and return their
    primary keys: the ones this run may act on (the others were stamped by an earlier or concurrent run). Call it
    inside the transaction that also does the work, so the stamp and the work commit together."""
    unstamped = set(
        model.objects.select_for_update()
        .filter(pk__in=[record.pk for record in records], **{f"{field}__isnull": True})
        .values_list("pk", flat=True)
    )
    model.objects.filter(pk__in=unstamped).update(**{field: value})
    return unstamped
