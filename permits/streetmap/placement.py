"""Which street segments a permit is on. In order:

1. a Placement the Village or the applicant drew (a point, a line) or chose (segments): its segments;
2. the point drawn on the application (the type's RightOfWay.point): the nearest segment of the permit's street;
3. the address: the segment of the permit's street whose address range holds the parcel's number;
4. otherwise every segment of the permit's street.

All segments are loaded once (SegmentIndex, two queries) and every permit is placed from it in Python, so placing
a page of permits costs no query per permit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from permits.streetmap import geometry, impacts
from permits.streetmap.models import Placement, StreetSegment

NUMBER = re.compile(r"\b(\d{1,5})\b")


def address_number(address: str) -> int | None:
    """The first house number in an address or a location ("102 Highland Avenue", "In front of 118 Henni
    Street", "Church Street, 100 block")."""
    match = NUMBER.search(address or "")
    return int(match.group(1)) if match else None


@dataclass
class SegmentIndex:
    segments: dict[int, StreetSegment]
    by_street: dict[int, list[StreetSegment]] = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    adjoining: dict[int, set[int]] = field(default_factory=dict)

    @classmethod
    def load(cls) -> SegmentIndex:
        segments = {s.pk: s for s in StreetSegment.objects.select_related("street").prefetch_related("adjoining")}
        index = cls(segments=segments)
        for segment in segments.values():
            index.by_street.setdefault(segment.street_id, []).append(segment)
            index.lines[segment.pk] = geometry.line_from_geojson(segment.geometry)
            index.adjoining[segment.pk] = {other.pk for other in segment.adjoining.all()}
        return index

    def street_lines(self, street_id: int | None) -> dict:
        if street_id is None:
            return self.lines
        return {s.pk: self.lines[s.pk] for s in self.by_street.get(street_id, [])} or self.lines

    def near(self, ids: set[int]) -> set[int]:
        """The segments `ids` and those adjoining them."""
        found = set(ids)
        for pk in ids:
            found |= self.adjoining.get(pk, set())
        return found


def permit_street_id(permit) -> int | None:
    if permit.street_id:
        return permit.street_id
    return permit.parcel.street_id if permit.parcel_id else None


def permit_address(permit) -> str:
    if permit.parcel_id:
        return permit.parcel.site_address
    return permit.location_description


def segments_for(permit, index: SegmentIndex) -> list[StreetSegment]:
    placement = _placement(permit)
    if placement is not None:
        chosen = [index.segments[s.pk] for s in placement.segments.all() if s.pk in index.segments]
        if chosen:
            return chosen
    street_id = permit_street_id(permit)
    drawn = impacts.for_kind(permit.kind).point(permit)
    if drawn is not None:
        pk = geometry.nearest(geometry.point(*drawn), index.street_lines(street_id))
        if pk is not None:
            return [index.segments[pk]]
    on_street = index.by_street.get(street_id, []) if street_id else []
    address = permit_address(permit)
    number = address_number(address)
    if number is not None:
        holding = [s for s in on_street if s.holds_address(number)]
        if holding:
            return holding
    at_cross_street = [s for s in on_street if _names_cross_street(address, s)]
    return at_cross_street or list(on_street)


def _names_cross_street(text: str, segment: StreetSegment) -> bool:
    """ "Mill Street at Church Street": the segments of Mill Street that begin or end at Church Street."""
    text = (text or "").casefold()
    return any(name and f"at {name.casefold()}" in text for name in (segment.from_street, segment.to_street))


def drawn_geometry(permit):
    """The point or line drawn for the permit (a Placement, or the application's point), as GeoJSON, or None."""
    placement = _placement(permit)
    if placement is not None and placement.geometry:
        return placement.geometry
    drawn = impacts.for_kind(permit.kind).point(permit)
    if drawn is not None:
        return {"type": "Point", "coordinates": [drawn[0], drawn[1]]}
    return None


def _placement(permit):
    try:
        return permit.placement
    except Placement.DoesNotExist:
        return None
