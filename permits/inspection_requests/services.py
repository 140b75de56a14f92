"""The verbs of inspection requests, one path for the pages, the admin and the shell. The slot's row is locked while its
requests are counted, so two permittees cannot both take the last place."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from permits import workflow
from permits.access import require_role
from permits.errors import RulesBroken
from permits.inspection_requests import rules
from permits.models import InspectionKind, InspectionRequest, InspectionSlot, Permit, PermitKind
from permits.roles import Role, has_role

SLOT_KEEPERS = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)
# The inspections each type's work needs: a street opening's backfill (§ 303-5F) and its restored surface, a
# sidewalk's forms and subgrade before the pour (§ 303-3D(5)) and the finished walk. Other types are not inspected.
KINDS_BY_TYPE: dict[str, tuple[str, ...]] = {
    PermitKind.STREET_OPENING: (InspectionKind.BACKFILL, InspectionKind.FINAL),
    PermitKind.SIDEWALK: (InspectionKind.POUR, InspectionKind.FINAL),
}


def kinds_for(permit: Permit) -> tuple[str, ...]:
    return KINDS_BY_TYPE.get(permit.kind, ())


def window_opens(slot: InspectionSlot) -> datetime:
    return timezone.make_aware(datetime.combine(slot.day, slot.starts_at))


def open_requests(slot_ids) -> dict[int, int]:
    """How many live (not cancelled) requests each slot holds."""
    from django.db.models import Count

    rows = (
        InspectionRequest.objects.filter(slot_id__in=list(slot_ids), cancelled_at=None)
        .values("slot_id")
        .annotate(n=Count("id"))
    )
    return {r["slot_id"]: r["n"] for r in rows}


def offer_slot(*, by, day: date, starts_at, ends_at, inspector, capacity: int, today: date) -> InspectionSlot:
    """The DPW offers an inspection time."""
    require_role(by, *SLOT_KEEPERS, action="offer inspection times: the Director of Public Works and the inspectors do")
    errors = rules.slot_violations(day=day, starts_at=starts_at, ends_at=ends_at, capacity=capacity, today=today)
    if errors:
        raise RulesBroken(errors)
    return InspectionSlot.objects.create(
        day=day, starts_at=starts_at, ends_at=ends_at, inspector=inspector, capacity=capacity, offered_by=by
    )


def _check_requester(by, permit: Permit) -> None:
    if not workflow.is_applicant_side(by, permit):
        raise RulesBroken.one(None, "not_permittee", "§ 303-5F", "Only the permittee asks for an inspection (§ 303-5F)")


def request_inspection(*, by, permit: Permit, slot: InspectionSlot, kind: str, now: datetime) -> InspectionRequest:
    """The permittee asks for the inspection `kind` in `slot`; refused, naming the rule, when the slot is full, has
    begun, is too soon for a backfill's four hours' notice, or the permit is not issued."""
    _check_requester(by, permit)
    with transaction.atomic():
        slot = InspectionSlot.objects.select_for_update().get(pk=slot.pk)
        taken = InspectionRequest.objects.filter(slot=slot, cancelled_at=None).count()
        errors = rules.request_violations(
            permit_status=Permit.objects.values_list("status", flat=True).get(pk=permit.pk),
            kind=kind,
            kinds_allowed=kinds_for(permit),
            requested_at=now,
            window_opens=window_opens(slot),
            taken=taken,
            capacity=slot.capacity,
        )
        if errors:
            raise RulesBroken(errors)
        return InspectionRequest.objects.create(permit=permit, slot=slot, kind=kind, requested_by=by, requested_at=now)


def cancel_request(*, by, request: InspectionRequest, now: datetime) -> InspectionRequest:
    """The permittee (or the DPW) cancels a request before its window opens; the row stays, marked cancelled."""
    if not (workflow.is_applicant_side(by, request.permit) or has_role(by, *SLOT_KEEPERS)):
        raise RulesBroken.one(None, "not_permittee", "§ 303-5F", "Only the permittee or the DPW cancels a request")
    if window_opens(request.slot) <= now:
        raise RulesBroken.one(
            None, "slot_past", "§ 303-5F", "Time: this inspection time has begun; it cannot be cancelled"
        )
    changed = InspectionRequest.objects.filter(pk=request.pk, cancelled_at=None).update(
        cancelled_at=now, cancelled_by=by
    )
    if not changed:
        raise RulesBroken.one(None, "already_cancelled", "§ 303-5F", "This request was already cancelled")
    request.refresh_from_db()
    return request


def reschedule_request(*, by, request: InspectionRequest, slot: InspectionSlot, now: datetime) -> InspectionRequest:
    """Move a request to another offered time: the new one is checked as a new request; both or neither happen."""
    with transaction.atomic():
        cancel_request(by=by, request=request, now=now)
        return request_inspection(by=by, permit=request.permit, slot=slot, kind=request.kind, now=now)


def slots_open_for(permit: Permit, *, now: datetime):
    """The offered times from now on with a place left (one query for the slots, one for their counts)."""
    slots = list(
        InspectionSlot.objects.filter(day__gte=timezone.localtime(now).date()).select_related("inspector")[:200]
    )
    taken = open_requests(s.pk for s in slots)
    return [s for s in slots if window_opens(s) > now and taken.get(s.pk, 0) < s.capacity]
