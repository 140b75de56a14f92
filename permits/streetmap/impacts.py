"""What a permit does to the street (lanes, sidewalk, occupied), per permit type.

Each permit type's record in the registry (permits.kinds.PermitType.right_of_way) holds a RightOfWay: the related
rows its hooks read (selected in the same query, so the map and the feeds stay at a constant number of queries), the
point drawn on its application, and its Impact. A type without one (street privilege and street use until their
issues build them) is shown as "street occupied" from its street and address, and is not in the WZDx feed.
"""

from __future__ import annotations

from collections.abc import Callable
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


DEFAULT = RightOfWay()


def street_opening_impact(permit) -> Impact:
    """§ 303-5B(3): the lanes kept open each way, and the flagman or temporary signal when none is."""
    so = permit.street_opening
    if so.surface == "sidewalk":
        return Impact(
            "sidewalk", "Sidewalk closed (excavation)", ALL_LANES_OPEN, (("sidewalk", "closed"),), "below-road-work"
        )
    if so.surface == "terrace":
        return Impact("occupied", "Terrace dug up; lanes open", ALL_LANES_OPEN, (), "below-road-work")
    if so.lanes_open_each_way >= 1:
        lanes = (*(("general", "open"),) * (2 * so.lanes_open_each_way), ("parking", "closed"))
        each = "one lane" if so.lanes_open_each_way == 1 else f"{so.lanes_open_each_way} lanes"
        return Impact("lanes", f"Street dug up; {each} open each way", ALL_LANES_OPEN, lanes, "below-road-work")
    if so.traffic_control == "flagman":
        lanes = (("general", "alternating-flow"), ("general", "closed"))
        return Impact("lanes", "One lane closed; a flagman directs traffic", FLAGGING, lanes, "below-road-work")
    if so.traffic_control == "temporary_signal":
        lanes = (("general", "alternating-flow"), ("general", "closed"))
        return Impact("lanes", "One lane closed; temporary traffic signal", TEMPORARY_SIGNAL, lanes, "below-road-work")
    lanes = (("general", "closed"), ("general", "closed"))
    return Impact("road", "Street closed to traffic", ALL_LANES_CLOSED, lanes, "below-road-work")


def street_opening_point(permit):
    so = permit.street_opening
    if so.map_latitude is None or so.map_longitude is None:
        return None
    return (float(so.map_longitude), float(so.map_latitude))


STREET_OPENING = RightOfWay(related=("street_opening",), impact=street_opening_impact, point=street_opening_point)


def sidewalk_impact(permit) -> Impact:
    """§ 303-3C: sidewalk work closes the walk in front of the parcel while it is built and cures."""
    return Impact(
        "sidewalk", "Sidewalk closed (sidewalk work)", ALL_LANES_OPEN, (("sidewalk", "closed"),), "surface-work"
    )


SIDEWALK = RightOfWay(related=("sidewalk", "sidewalk__parcel"), impact=sidewalk_impact)


def for_kind(kind: str) -> RightOfWay:
    from permits.kinds import get_type

    permit_type = get_type(kind)
    return (permit_type.right_of_way if permit_type is not None else None) or DEFAULT


def related_names() -> list[str]:
    """Every select_related name the registered types' hooks read."""
    from permits.kinds import all_types

    return sorted({name for t in all_types() for name in (t.right_of_way or DEFAULT).related})
