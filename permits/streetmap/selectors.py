"""What the public map, the list and the feeds show: permits that are approved, issued or under way (scheduled or
active), placed on their segments, with what they close. Nothing private: no applicant's name, phone or email;
only an organization's name (a contractor or utility works in public under it).

Each function runs a fixed number of queries whatever the number of permits (asserted in the tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet
from django.urls import reverse

from permits.kinds import get_type
from permits.models import Permit, Status
from permits.models.core import IN_EFFECT_UNTIL
from permits.streetmap import impacts, placement
from permits.streetmap.impacts import Impact
from permits.streetmap.models import StreetSegment

# On the map: approved (scheduled), issued, under way. Submitted applications are not public works yet.
PUBLIC_STATUSES = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)


@dataclass
class Work:
    permit: Permit
    impact: Impact
    segments: list[StreetSegment]
    drawn: dict | None

    @property
    def number(self) -> str:
        return self.permit.number

    @property
    def type_title(self) -> str:
        permit_type = get_type(self.permit.kind)
        return permit_type.title if permit_type else self.permit.get_kind_display()

    @property
    def starts(self) -> date | None:
        return self.permit.start_date

    @property
    def ends(self) -> date | None:
        return self.permit.end_date or self.permit.expires_on

    def phase(self, today: date) -> str:
        """ "Under way" once work has begun or its start day has come; "Scheduled" before."""
        if self.permit.status == Status.ACTIVE or (self.starts is not None and self.starts <= today):
            return "Under way"
        return "Scheduled"

    @property
    def street_name(self) -> str:
        if self.segments:
            return self.segments[0].street.name
        if self.permit.street_id:
            return self.permit.street.name
        return ""

    @property
    def where(self) -> str:
        extents = "; ".join(s.extent for s in self.segments)
        return f"{self.street_name}, {extents}" if extents else self.street_name

    @property
    def permittee(self) -> str:
        return self.permit.organization.name if self.permit.organization_id else ""

    @property
    def status_url(self) -> str:
        return reverse("permits:public_status", args=[self.permit.public_token])

    def map_feature(self, today: date) -> dict:
        """A GeoJSON Feature for the public map (the segments' lines, and the drawn point or line)."""
        lines = [s.geometry["coordinates"] for s in self.segments]
        geometries = [{"type": "MultiLineString", "coordinates": lines}] if lines else []
        if self.drawn:
            geometries.append(self.drawn)
        return {
            "type": "Feature",
            "id": self.number,
            "geometry": {"type": "GeometryCollection", "geometries": geometries},
            "properties": {
                "number": self.number,
                "type": self.type_title,
                "impact": self.impact.what,
                "impact_label": self.impact.label,
                "phase": self.phase(today),
                "where": self.where,
                "starts": self.starts.isoformat() if self.starts else None,
                "ends": self.ends.isoformat() if self.ends else None,
                "permittee": self.permittee,
                "url": self.status_url,
            },
        }


def public_permits(
    *, today: date, kinds=(), starts_by: date | None = None, ends_from: date | None = None, street_id=None
) -> QuerySet:
    """Public permits whose dates reach [ends_from, starts_by] (default: from today on), newest start first."""
    ends_from = ends_from or today
    qs = (
        Permit.objects.filter(status__in=PUBLIC_STATUSES)
        # No last day: in effect for ever. One range of permit_in_effect_idx, not an OR it cannot use.
        .alias(in_effect_until=IN_EFFECT_UNTIL)
        .filter(in_effect_until__gte=ends_from)
    )
    if starts_by is not None:
        qs = qs.filter(Q(start_date__lte=starts_by) | Q(start_date__isnull=True))
    if kinds:
        qs = qs.filter(kind__in=kinds)
    if street_id:
        ids = Permit.objects.filter(
            Q(street_id=street_id) | Q(parcel__street_id=street_id) | Q(placement__segments__street_id=street_id)
        ).values("pk")
        qs = qs.filter(pk__in=ids)
    return with_placement(qs).order_by("start_date", "number")


def with_placement(qs: QuerySet) -> QuerySet:
    return qs.select_related(
        "street", "parcel", "organization", "placement", *impacts.related_names()
    ).prefetch_related("placement__segments")


def works(permits, index: placement.SegmentIndex | None = None) -> list[Work]:
    index = index or placement.SegmentIndex.load()
    return [
        Work(
            permit=p,
            impact=impacts.for_kind(p.kind).impact(p),
            segments=placement.segments_for(p, index),
            drawn=placement.drawn_geometry(p),
        )
        for p in permits
    ]
