"""What a permit does to the street (lanes, sidewalk, occupied), per permit type.

Each permit type's record in the registry (permits.kinds.PermitType.right_of_way) holds a RightOfWay, defined in
the type's own package (<type>/right_of_way.py): the related rows its hooks read (selected in the same query, so the
map and the feeds stay at a constant number of queries), the point drawn on its application, its Impact, the
conflicts its other records raise, and the permittee's deadlines. A type without one (street privilege and street
use until their issues build them) is shown as "street occupied" from its street and address,
and is not in the WZDx feed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

# WZDx 4.2 enumerations used here (RoadEventFeature.json: VehicleImpact, LaneStatus, LaneType, WorkTypeName).
ALL_LANES_OPEN = "all-lanes-open"
ALL_LANES_CLOSED = "all-lanes-closed"
FLAGGING = "flagging"
TEMPORARY_SIGNAL = "temporary-traffic-signal"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Impact:
    what: str  # "road", "lanes", "sidewalk" or "occupied": what the public map and list say is affected
    label: str  # in words, for the list and the map's popup
    vehicle_impact: str = UNKNOWN
    lanes: tuple[tuple[str, str], ...] = ()  # (WZDx lane type, lane status), left-most first
    type_of_work: str = "roadside-work"

    @property
    def closes_lane_or_sidewalk(self) -> bool:
        """In the WZDx feed only when a lane or the sidewalk is closed or restricted."""
        return any(status != "open" for _type, status in self.lanes)


OCCUPIED = Impact(what="occupied", label="Street occupied (see the permit)")


@dataclass(frozen=True)
class RightOfWay:
    related: tuple[str, ...] = ()  # select_related() names on Permit the hooks read
    impact: Callable[..., Impact] = lambda permit: OCCUPIED
    point: Callable[..., tuple[float, float] | None] = lambda permit: None  # (longitude, latitude)
    # (street_ids, near_segment_ids, index, start, end, margin_days, today) -> Conflicts from the type's other
    # records on those streets (Board repaving decisions, sidewalk orders), for permits.streetmap.conflicts
    area_conflicts: Callable[..., list] | None = None
    # (permit) -> (key, summary, day) of the permittee's deadlines, for the private iCalendar feed
    deadlines: Callable[..., Iterable] | None = None
    deadline_related: tuple[str, ...] = ()  # select_related() names the deadlines hook reads
    deadline_prefetch: Callable[[], tuple] | None = None  # () -> Prefetch objects the deadlines hook reads


DEFAULT = RightOfWay()


def for_kind(kind: str) -> RightOfWay:
    from permits.kinds import get_type

    permit_type = get_type(kind)
    return (permit_type.right_of_way if permit_type is not None else None) or DEFAULT


def records() -> list[RightOfWay]:
    from permits.kinds import all_types

    return [t.right_of_way or DEFAULT for t in all_types()]


def related_names() -> list[str]:
    """Every select_related name the registered types' hooks read."""
    from permits.kinds import all_types

    return sorted({name for t in all_types() for name in (t.right_of_way or DEFAULT).related})
