"""The sidewalk permit on the street map (permits.streetmap): it closes the walk in front of its parcel, and the
sidewalk orders (§ 303-3E) on nearby parcels are among the conflicts at review."""

from __future__ import annotations

from permits.streetmap import placement
from permits.streetmap.conflicts import Conflict, dates_conflict, describe_dates
from permits.streetmap.impacts import ALL_LANES_OPEN, Impact, RightOfWay
from sidewalks.models import SidewalkOrder


def sidewalk_impact(permit) -> Impact:
    """§ 303-3C: sidewalk work closes the walk in front of the parcel while it is built and cures."""
    return Impact(
        "sidewalk", "Sidewalk closed (sidewalk work)", ALL_LANES_OPEN, (("sidewalk", "closed"),), "surface-work"
    )


SIDEWALK = RightOfWay(related=("sidewalk", "sidewalk__parcel"), impact=sidewalk_impact)


def area_conflicts(street_ids, near, index, start, end, margin, today) -> list[Conflict]:
    """§ 303-3E: sidewalk orders adopted or served on a parcel of a nearby segment, until the owner's deadline."""
    open_states = (SidewalkOrder.Status.ADOPTED, SidewalkOrder.Status.SERVED)
    orders = SidewalkOrder.objects.filter(status__in=open_states, parcel__street_id__in=street_ids).select_related(
        "parcel__street"
    )
    found = []
    for order in orders:
        number = placement.address_number(order.parcel.site_address)
        on = {s.pk for s in index.by_street.get(order.parcel.street_id, []) if number and s.holds_address(number)}
        if on and not (on & near):
            continue
        if not dates_conflict(start, end, order.adopted_on, order.owner_deadline, margin_days=margin):
            continue
        found.append(
            Conflict(
                what="case",
                title=f"Sidewalk order {order.number} ({order.get_status_display().lower()})",
                detail=f"{order.parcel.site_address}, {describe_dates(order.adopted_on, order.owner_deadline)}",
                starts=order.adopted_on,
                ends=order.owner_deadline,
                number=order.number,
                citation="§ 303-3E",
            )
        )
    return found


RIGHT_OF_WAY = RightOfWay(
    related=("sidewalk", "sidewalk__parcel"), impact=sidewalk_impact, area_conflicts=area_conflicts
)
