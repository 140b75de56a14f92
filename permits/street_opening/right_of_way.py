"""The street opening on the street map (permits.streetmap): what it closes (§ 303-5B(3)), the point drawn on its
application, the Board's repaving decisions and the § 303-5I moratorium among the conflicts at review, and the
permittee's deadlines (permanent pavement, guarantee, defect notices) for its private calendar."""

from __future__ import annotations

from django.db.models import Prefetch

from permits.street_opening.field.models import DefectNotice
from permits.street_opening.models import StreetImprovement
from permits.street_opening.rules import is_in_moratorium, moratorium_ends
from permits.streetmap.conflicts import Conflict, dates_conflict
from permits.streetmap.impacts import (
    ALL_LANES_CLOSED,
    ALL_LANES_OPEN,
    FLAGGING,
    TEMPORARY_SIGNAL,
    Impact,
    RightOfWay,
)


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


def area_conflicts(street_ids, near, index, start, end, margin, today) -> list[Conflict]:
    """§ 303-5I: the moratorium of a street repaved less than five years ago, and a Board repaving decision whose
    work is still to come (excavation there must be completed within 30 days of the clerk's notice)."""
    found = []
    for improvement in StreetImprovement.objects.filter(street_id__in=street_ids).select_related("street"):
        if improvement.repaved_on and is_in_moratorium(repaved_on=improvement.repaved_on, day=start or today):
            ends = moratorium_ends(improvement.repaved_on)
            found.append(
                Conflict(
                    what="moratorium",
                    title=f"§ 303-5I moratorium on {improvement.street.name}",
                    detail=f"repaved {improvement.repaved_on:%b %-d, %Y}; no opening until {ends:%b %-d, %Y} unless "
                    "the Board finds it absolutely essential",
                    starts=improvement.repaved_on,
                    ends=ends,
                    citation="§ 303-5I",
                )
            )
        elif not improvement.repaved_on and dates_conflict(
            start, end, improvement.decided_on, None, margin_days=margin
        ):
            found.append(
                Conflict(
                    what="repaving",
                    title=f"Board repaving decision on {improvement.street.name}",
                    detail=f"{improvement.description}: decided {improvement.decided_on:%b %-d, %Y}, work begins "
                    f"{improvement.work_begins_on:%b %-d, %Y}; excavation must be done within 30 days of notice",
                    starts=improvement.work_begins_on,
                    ends=None,
                    citation="§ 303-5I",
                )
            )
    return found


def deadline_prefetch() -> tuple:
    return (
        Prefetch(
            "defect_notices", queryset=DefectNotice.objects.filter(corrected_on__isnull=True), to_attr="open_defects"
        ),
    )


def deadlines(permit):
    """Permanent pavement due (§ 303-5G(4)), the one-year guarantee's end (§ 303-4H(3)), defect notices to correct."""
    restoration = getattr(permit, "pavement_restoration", None) if _has(permit, "pavement_restoration") else None
    if restoration is not None and restoration.permanent_completed_on is None:
        yield "pavement", "permanent pavement due (§ 303-5G(4))", restoration.permanent_due_on
    guarantee = getattr(permit, "guarantee", None) if _has(permit, "guarantee") else None
    if guarantee is not None and not guarantee.ended:
        yield "guarantee", "one-year guarantee ends (§ 303-4H(3))", guarantee.ends_on
    for notice in getattr(permit, "open_defects", []):
        yield f"defect-{notice.pk}", "defect to be corrected (notice deadline)", notice.deadline


def _has(permit, name) -> bool:
    from django.core.exceptions import ObjectDoesNotExist

    try:
        getattr(permit, name)
    except ObjectDoesNotExist:
        return False
    return True


RIGHT_OF_WAY = RightOfWay(
    related=("street_opening",),
    impact=street_opening_impact,
    point=street_opening_point,
    area_conflicts=area_conflicts,
    deadlines=deadlines,
    deadline_related=("pavement_restoration", "guarantee"),
    deadline_prefetch=deadline_prefetch,
)
