"""The rules of an inspection request: pure functions of dates, times and counts."""

from __future__ import annotations

from datetime import datetime, timedelta

from permits.errors import Violation
from permits.models import InspectionKind, Status

# § 303-5F: "The Village Clerk-Treasurer or Director of Public Works shall also be notified at least four hours prior
# to backfilling": a backfill inspection is asked for at least four hours before its window opens.
BACKFILL_NOTICE = timedelta(hours=4)
# Work goes on (and is inspected) only under an issued permit.
INSPECTABLE = (Status.ISSUED, Status.ACTIVE)


def backfill_notice_too_short(*, kind: str, requested_at: datetime, window_opens: datetime) -> bool:
    """§ 303-5F: a backfill inspection asked for less than four hours before its window opens (exactly four is on
    time)."""
    return kind == InspectionKind.BACKFILL and window_opens - requested_at < BACKFILL_NOTICE


def slot_is_full(*, taken: int, capacity: int) -> bool:
    """§ 303-5F: the DPW inspects at the times it offers, as many visits as the window holds; a full window takes no
    more."""
    return taken >= capacity


def request_violations(
    *,
    permit_status: str,
    kind: str,
    kinds_allowed,
    requested_at: datetime,
    window_opens: datetime,
    taken: int,
    capacity: int,
) -> list[Violation]:
    errors = []
    if permit_status not in INSPECTABLE:
        errors.append(
            Violation(
                None,
                "permit_not_issued",
                "§ 303-5F",
                "Inspections are asked for once the permit is issued and while the work goes on (§ 303-5F)",
            )
        )
    if kind not in kinds_allowed:
        errors.append(
            Violation(
                "kind", "kind_not_needed", "§ 303-5F", "Inspection: choose one of the inspections this permit needs"
            )
        )
    if window_opens <= requested_at:
        errors.append(
            Violation("slot", "slot_past", "§ 303-5F", "Time: this inspection time has begun; choose a later one")
        )
    elif backfill_notice_too_short(kind=kind, requested_at=requested_at, window_opens=window_opens):
        errors.append(
            Violation(
                "slot",
                "backfill_notice",
                "§ 303-5F",
                "Time: a backfill inspection is asked for at least four hours before backfilling (§ 303-5F); "
                "choose a later time",
            )
        )
    if slot_is_full(taken=taken, capacity=capacity):
        errors.append(
            Violation(
                "slot",
                "slot_full",
                "§ 303-5F",
                f"Time: this inspection time is full ({capacity} of {capacity} taken); choose another (§ 303-5F)",
            )
        )
    return errors


def slot_violations(*, day, starts_at, ends_at, capacity: int, today) -> list[Violation]:
    errors = []
    if day is not None and day < today:
        errors.append(Violation("day", "day_past", "§ 303-5F", "Day: offer a time from today on"))
    if starts_at is not None and ends_at is not None and ends_at <= starts_at:
        errors.append(Violation("ends_at", "ends_before_start", "§ 303-5F", "Until: the window ends after it starts"))
    if capacity is not None and capacity < 1:
        errors.append(Violation("capacity", "no_capacity", "§ 303-5F", "Capacity: at least one inspection"))
    return errors
