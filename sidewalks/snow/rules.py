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


# --- Where a report is (§ 303-8A: a lot "within the Village fronting upon a public sidewalk") --------------------

SUGGESTIONS = 3  # the closest addresses or street names offered when a report matches nothing
STREET_NAME_CUTOFF = 0.75  # difflib ratio: "Highlnd Avenue" is close to "Highland Avenue", "Main Street" is not


def split_address(address: str) -> tuple[int | None, str]:
    """§ 303-8A: a typed address as (house number, street name); no leading number, (None, the whole text)."""
    head, _, rest = " ".join(address.split()).partition(" ")
    if head.isdigit() and rest:
        return int(head), rest
    return None, " ".join(address.split())


def closest_addresses(number: int, addresses: list[str], limit: int = SUGGESTIONS) -> list[str]:
    """§ 303-8A: the addresses on the roll nearest in house number to `number` (the reporter's likely walk)."""

    def distance(address: str) -> tuple[int, int, str]:
        house, _ = split_address(address)
        if house is None:
            return (10**9, 0, address)
        return (abs(house - number), house, address)  # a tie: the lower number first

    return sorted(addresses, key=distance)[:limit]


def close_street_names(name: str, names: list[str], limit: int = SUGGESTIONS) -> list[str]:
    """§ 303-8A: the Village's street names spelled most like the one typed (a typo), best first."""
    import difflib

    by_lower = {n.lower(): n for n in names}
    matches = difflib.get_close_matches(name.lower(), list(by_lower), n=limit, cutoff=STREET_NAME_CUTOFF)
    return [by_lower[m] for m in matches]


def unknown_address_violation(address: str, suggestions: list[str], *, on_street: bool) -> Violation:
    """§ 303-8A: a report names a walk of the Village: an address that is neither on the parcel roll nor on a street
    of the street register is refused, with the closest addresses (`on_street`) or street names as suggestions."""
    if on_street:
        what = f"No lot at {address} is on the Village's parcel roll"
        offer = f" The closest addresses on that street: {'; '.join(suggestions)}." if suggestions else ""
    else:
        what = f"No street named in {address!r} is on the Village's street register"
        offer = f" Did you mean: {'; '.join(suggestions)}?" if suggestions else ""
    message = f"Address: {what} (§ 303-8A: the sidewalks of lots within the Village).{offer}"
    return Violation("address", "address_not_in_village", "§ 303-8A", message)
