"""Demo field work: on an issued street opening (the application half's demo permit if there is one, else a minimal
the application half's demo is loaded first), the planned notices, one given notice and three inspections: backfill
passed, a compaction test failed (retest fee) and its retest passed, a barriers-and-lights check (§ 303-5B(1)) and
the Village's flagger billed as its expenses (§ 303-4F(2)). Safe to load twice."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits.models import Permit, PermitKind, Status
from permits.street_opening.field import services as field_work

DEMO_LOCATION = "Juneau Street, 300 block (field demo)"


def _issued_permit(users, today) -> Permit | None:
    permit = (
        Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=(Status.ISSUED, Status.ACTIVE))
        .order_by("created_at")
        .first()
    )
    if permit is not None:
        return permit
    # No issued street opening yet: the application half's demo makes them, through its own verbs and rules.
    from permits.street_opening import demo as application_demo

    application_demo.load()
    return (
        Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=(Status.ISSUED, Status.ACTIVE))
        .order_by("created_at")
        .first()
    )


@transaction.atomic
def load() -> dict:
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=["contractor", "clerk", "dpw", "inspector"])}
    if len(users) < 4:
        return {}
    today = timezone.localdate()
    permit = _issued_permit(users, today)
    if permit is None or permit.inspections.exists():
        return {"permit": permit}
    applicant = permit.applicant
    start = timezone.make_aware(datetime.combine(today + timedelta(days=2), time(8, 0)))
    field_work.schedule_notice_reminders(
        permit=permit, by=applicant, work_starts_at=start, backfill_at=start + timedelta(hours=6)
    )
    field_work.record_permittee_notice(
        permit=permit,
        by=applicant,
        kind="affected_parties",
        planned_work_at=start,
        given_to="Owners and tenants of the 300 block",
        method="written",
    )
    now = timezone.now()
    inspector = users["inspector"]
    field_work.log_inspection(
        permit=permit,
        kind="backfill",
        by=inspector,
        at=now - timedelta(hours=3),
        values={"largest_stone_inches": Decimal("6")},
    )
    compaction_tests = [  # (hours ago, lift, percent compacted, notes): a soft lift, then the retest
        (2, "12", "93.5", "Second lift soft on the north side."),
        (1, "10", "96.2", "Retest after recompaction."),
    ]
    for hours_ago, lift, percent, notes in compaction_tests:
        field_work.log_inspection(
            permit=permit,
            kind="compaction",
            by=inspector,
            at=now - timedelta(hours=hours_ago),
            values={
                "lift_inches": Decimal(lift),
                "compaction_percent": Decimal(percent),
                "mechanical": True,
                "flooded": False,
            },
            notes=notes,
        )
    field_work.log_inspection(
        permit=permit,
        kind="protection",
        by=inspector,
        at=now - timedelta(minutes=30),
        values={"barriers": True, "signs": True, "warning_lights": True, "open_flame": False},
    )
    field_work.bill_village_expenses(  # labor only: no receipt needed (§ 303-4F(2))
        permit=permit,
        by=users["dpw"],
        incurred_on=today,
        description="Village flagger for the lane closure, 2 hours",
        labor=Decimal("84.00"),
        today=today,
    )
    return {"permit": permit}
