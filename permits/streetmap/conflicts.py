"""Conflict checks at review: every other permit, case and Board repaving decision on the same or an adjoining
segment whose dates overlap the permit's, or come within the DPW's margin (ConflictMargin), with the § 303-5I
moratorium and street use closures marked. The rules are pure functions; conflicts_for() reads the database in a
fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from permits.errors import Violation
from permits.models import Permit, PermitKind, Status
from permits.streetmap import impacts, placement
from permits.streetmap.models import ConflictMargin
from permits.streetmap.selectors import with_placement

# Permits that can still occupy the street: applied for, under review, approved, issued, under way.
LIVE_STATUSES = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED, Status.ACTIVE)
DEFAULT_MARGIN_DAYS = 0  # until the DPW sets one: only overlapping dates conflict


@dataclass(frozen=True)
class Conflict:
    what: str  # "permit", "repaving", "moratorium", "case"
    title: str
    detail: str
    starts: date | None
    ends: date | None
    number: str = ""
    kind: str = ""
    citation: str = ""

    @property
    def is_street_use_closure(self) -> bool:
        return self.kind == PermitKind.STREET_USE

    def as_record(self) -> str:
        return f"{self.title}: {self.detail}"


def dates_conflict(
    a_start: date | None, a_end: date | None, b_start: date | None, b_end: date | None, *, margin_days: int
) -> bool:
    """Two works conflict when their date ranges, each widened by the DPW's margin, overlap; both ends count
    (a work ending the day another starts conflicts). An open end (no date yet) reaches indefinitely."""
    margin = timedelta(days=margin_days)
    if a_start is not None and b_end is not None and b_end + margin < a_start:
        return False
    if b_start is not None and a_end is not None and a_end + margin < b_start:
        return False
    return True


def street_use_closure_refused(permit_kind: str, conflicts: list[Conflict], *, dpw_accepted: bool) -> list[Violation]:
    """§ 303-15A: the Village regulates and controls street use; a street use closure over a street opening's
    work is refused unless the Director of Public Works has accepted it (ConflictReview.accepts_closure)."""
    if permit_kind != PermitKind.STREET_USE or dpw_accepted:
        return []
    over = [c.number for c in conflicts if c.kind == PermitKind.STREET_OPENING]
    if not over:
        return []
    return [
        Violation(
            "conflicts",
            "street_use_over_street_opening",
            "§ 303-15A",
            f"The closure is over street opening work ({', '.join(over)}): the Director of Public Works must accept "
            "it before the street use permit is approved (§ 303-15A).",
        )
    ]


def margin_days(today: date) -> int:
    row = ConflictMargin.objects.filter(effective_from__lte=today).order_by("-effective_from", "-set_at").first()
    return row.days if row is not None else DEFAULT_MARGIN_DAYS


def conflicts_for(permit: Permit, *, today: date, index: placement.SegmentIndex | None = None) -> list[Conflict]:
    index = index or placement.SegmentIndex.load()
    permit = with_placement(Permit.objects.filter(pk=permit.pk)).get()
    own = {s.pk for s in placement.segments_for(permit, index)}
    near = index.near(own)
    near_streets = {index.segments[pk].street_id for pk in near} | {placement.permit_street_id(permit)} - {None}
    margin = margin_days(today)
    start, end = permit.start_date, permit.end_date or permit.expires_on
    found: list[Conflict] = []

    candidates = with_placement(
        Permit.objects.filter(status__in=LIVE_STATUSES).exclude(pk=permit.pk).order_by("start_date", "number")
    ).filter(_on_streets(near_streets))
    for other in candidates:
        other_segments = placement.segments_for(other, index)
        if not ({s.pk for s in other_segments} & near):
            continue
        other_end = other.end_date or other.expires_on
        if not dates_conflict(start, end, other.start_date, other_end, margin_days=margin):
            continue
        where = "; ".join(str(s) for s in other_segments)
        found.append(
            Conflict(
                what="permit",
                title=f"{other.get_kind_display()} {other.number} ({other.get_status_display().lower()})",
                detail=f"{where}, {describe_dates(other.start_date, other_end)}",
                starts=other.start_date,
                ends=other_end,
                number=other.number,
                kind=other.kind,
            )
        )

    for record in impacts.records():  # each type's other records on these streets (repaving, sidewalk orders)
        if record.area_conflicts is not None:
            found.extend(record.area_conflicts(near_streets, near, index, start, end, margin, today))
    return found


def _on_streets(street_ids):
    from django.db.models import Q

    return (
        Q(street_id__in=street_ids)
        | Q(parcel__street_id__in=street_ids)
        | Q(placement__segments__street_id__in=street_ids)
    )


def describe_dates(start: date | None, end: date | None) -> str:
    left = f"{start:%b %-d, %Y}" if start else "no start date"
    right = f"{end:%b %-d, %Y}" if end else "no end date"
    return f"{left} to {right}"
