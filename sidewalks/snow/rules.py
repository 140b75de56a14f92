"""Rules of the owners' sidewalk duties: snow and ice (§ 303-8) and rubbish (§ 303-2).

Each rule is a small pure function: datetimes and plain values in; no clock, no database. The docstring begins with its
section; the messages users see cite it too.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from permits.errors import Violation
from permits.time import hours_earlier, hours_later, snow_hours_are_clock_hours

# --- Snow and ice (§ 303-8) -------------------------------------------------------------------------------------

OWNER_CLEARING_HOURS = 24  # § 303-8A
VILLAGE_WAIT_HOURS = 24  # § 303-8B


def snow_hours_later(moment: datetime, hours: int) -> datetime:
    """The hours of § 303-8 and § 303-2, counted as Wis. Stat. § 990.001(4)(a) counts hours (Sundays and legal
    holidays excluded) unless the Village attorney reads them as clock hours for the walk's safety (the one setting
    SNOW_HOURS_ARE_CLOCK_HOURS; permits.time)."""
    return hours_later(moment, hours, clock_hours=snow_hours_are_clock_hours())


def snow_hours_earlier(moment: datetime, hours: int) -> datetime:
    """The moment `hours` hours of § 303-8 before `moment` (snow_hours_later's inverse)."""
    return hours_earlier(moment, hours, clock_hours=snow_hours_are_clock_hours())


def owner_clearing_deadline(snow_stopped_at: datetime) -> datetime:
    """§ 303-8A: the owner or occupant removes snow and ice within 24 hours from the time the snow ceases to fall."""
    return snow_hours_later(snow_stopped_at, OWNER_CLEARING_HOURS)


def clock_start(case_snow_stopped_at: datetime, latest_snow_stopped_at: datetime | None) -> datetime:
    """§ 303-8A: the owner's 24 hours run "from the time the snow ceases to fall": from the snowfall the case is about,
    and a later snowfall that has stopped since restarts them (the walk must be cleared of it too, within its own 24
    hours). `latest_snow_stopped_at` is the latest snowfall that had stopped by the moment asked about."""
    if latest_snow_stopped_at is not None and latest_snow_stopped_at > case_snow_stopped_at:
        return latest_snow_stopped_at
    return case_snow_stopped_at


def walks_owner_must_clear(corner_lot: bool, crosswalk_adjacent: bool) -> list[str]:
    """§ 303-8A: every lot clears the sidewalk it fronts; corner lots and lots next to a public crosswalk also clear
    the public sidewalks serving the corner and the crosswalk."""
    walks = ["the public sidewalk along the lot's frontage"]
    if corner_lot:
        walks.append("the sidewalk along the side street and the corner (corner lot)")
    if crosswalk_adjacent:
        walks.append("the sidewalk serving the public crosswalk, up to the curb ramp")
    return walks


def village_may_clear(snow_stopped_at: datetime, at: datetime) -> bool:
    """§ 303-8B: the Village waits a minimum of 24 hours from the time the snow ceases to fall (24h00 is allowed)."""
    return at >= village_may_clear_from(snow_stopped_at)


def village_may_clear_from(snow_stopped_at: datetime) -> datetime:
    """§ 303-8B: the first moment the Village may clear: 24 hours after the snow ceased to fall."""
    return snow_hours_later(snow_stopped_at, VILLAGE_WAIT_HOURS)


def written_notice_required(unoccupied: bool) -> bool:
    """§ 303-8B: before clearing, the Village gives the owner written notice, except that for an unoccupied lot or
    abandoned property no written notice need be given. Either way the Village waits 24 hours (village_may_clear)."""
    return not unoccupied


def village_clearing_errors(snow_stopped_at: datetime | None, at: datetime) -> list[Violation]:
    """§ 303-8B: the reasons the Village may not (yet) clear a walk at `at`."""
    if snow_stopped_at is None:
        message = "Record the snowfall (when the snow stopped) before logging Village clearing (§ 303-8B)."
        return [Violation("at", "no_snowfall", "§ 303-8B", message)]
    if not village_may_clear(snow_stopped_at, at):
        message = (
            "The Village must wait at least 24 hours after the snow stopped before clearing: it may clear from "
            f"{village_may_clear_from(snow_stopped_at):%B %-d, %Y %-I:%M %p} (§ 303-8B)."
        )
        return [Violation("at", "owner_period_running", "§ 303-8B", message)]
    return []


def hours_of_violation(snow_stopped_at: datetime, until: datetime) -> int:
    """§ 303-8C: a separate offense for each hour or part of an hour the walk stays uncleared after the 24 hours of
    § 303-8A. Once the 24 hours have run, the hours of the offense are clock hours: § 990.001(4)(a) counts the time
    within which an act is to be done, not how long a walk stays unsafe."""
    overdue = until - owner_clearing_deadline(snow_stopped_at)
    if overdue <= timedelta(0):
        return 0
    return math.ceil(overdue / timedelta(hours=1))


# --- Rubbish and dirt (§ 303-2) ---------------------------------------------------------------------------------

# § 303-2 leaves the time to remove rubbish to the notice; 24 hours is the default, as for obstructions (§ 303-6D).
RUBBISH_DEFAULT_HOURS = 24


def rubbish_default_deadline(served_at: datetime) -> datetime:
    """§ 303-2: the deadline a rubbish notice gives when the official names none: 24 hours after it is served."""
    return snow_hours_later(served_at, RUBBISH_DEFAULT_HOURS)


def rubbish_notice_errors(served_at: datetime, deadline_at: datetime) -> list[Violation]:
    """§ 303-2: the notice gives the owner or occupant a time to remove the rubbish, after it is served."""
    if deadline_at <= served_at:
        return [
            Violation(
                "deadline_at",
                "deadline_not_after_service",
                "§ 303-2",
                "The deadline must be after the notice is served (§ 303-2).",
            )
        ]
    return []


def village_may_remove_rubbish(deadline_at: datetime, at: datetime) -> bool:
    """§ 303-2: the Village removes rubbish only when the owner or occupant failed to after notice: after the deadline
    (at the deadline itself the owner still has time)."""
    return at > deadline_at
