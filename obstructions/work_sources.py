"""The enforcement cases on each role's start page (permits.workspace.sources): cases whose notice's deadline has
passed,
and street numbers whose § 303-14C days have run, oldest first."""

from __future__ import annotations

from datetime import date

from obstructions.services import NUMBER_CASE_ROLES
from permits.workspace.sources import WorkRow, WorkSource, numbered_row


def _needing_attention(user, today: date):
    """§ 303-6D/E, § 303-9C, § 303-12, § 303-13, § 303-14C: the notice's deadline passed, or a § 303-14C step is
    due (set by the jobs obstructions.tasks.flag_cases_past_deadline and flag_street_number_timers)."""
    from obstructions.models import Case

    return (
        Case.objects.exclude(attention=Case.Attention.NONE)
        .filter(status__in=[Case.Status.OPEN, Case.Status.NOTICED])
        .order_by("deadline_at", "opened_at", "pk")
    )


def _case_row(case) -> WorkRow:
    since = case.deadline_at or case.opened_at
    return numbered_row(case, f"{case.reported_address} ({case.get_attention_display()})", since)


WORK_SOURCES = (
    WorkSource(
        "Enforcement cases needing action",
        NUMBER_CASE_ROLES,
        _needing_attention,
        _case_row,
        url_name="obstructions:cases",
        citation="§ 303-6, § 303-14C",
    ),
)
