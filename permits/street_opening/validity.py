"""The life of a street opening permit after its application, as plain rules: the 30-day validity and what outlives
it (§ 303-4D with § 303-5G), approval dates that hold (§ 303-4D), completion requested by the permittee and confirmed
by the DPW after the final inspection (§ 303-1C(8), § 303-4F(1), § 303-4H(3)), and renewal (§ 303-4E, § 303-5A).

Pure functions of dates and facts: permits.street_opening.lifecycle reads the facts and calls these.
"""

from __future__ import annotations

from datetime import date, timedelta

from permits.errors import Violation
from permits.street_opening.rules import VALIDITY, expiry_date, in_frozen_ground_season

ONE_DAY = timedelta(days=1)


def _error(field, code, citation, message) -> Violation:
    return Violation(field, code, citation, message)


def _warning(field, code, citation, message) -> Violation:
    return Violation(field, code, citation, message, warning=True)


# --- § 303-4D: an approval whose 30 days cover the planned work ----------------------------------------------------


def approval_can_come_on(*, start_date: date, end_date: date) -> date:
    """§ 303-4D: the first day an approval's 30 days cover the planned work.

    The permit is valid 30 days from the date of approval (rules.expiry_date), so approved 30 days before the last
    planned day it is valid through that day. Work planned longer than the validity cannot be covered by any approval
    date: the approval can then come the day before the work starts (valid through its 29th day), and a renewal under
    § 303-4E carries the rest once the work has begun. Planned April 12 to 14, 2027: approval from March 15, 2027.
    """
    last_covered = min(end_date, start_date + VALIDITY - ONE_DAY)
    return last_covered - VALIDITY


def validity_before_work_violations(*, approving_on: date, start_date: date | None, end_date: date | None):
    """§ 303-4D: no permit dead before its work. Approved before approval_can_come_on(), the 30 days would end before
    the planned work ends: refused, with the day the approval can come. Work longer than the validity is approved
    with a warning that a renewal (§ 303-4E) will be needed."""
    if start_date is None or end_date is None:
        return []
    valid_through = expiry_date(approving_on)
    if valid_through >= end_date:
        return []
    can_come = approval_can_come_on(start_date=start_date, end_date=end_date)
    if approving_on < can_come:
        return [
            _error(
                None,
                "validity_ends_before_work",
                "§ 303-4D",
                f"Approved on {approving_on:%B %-d, %Y}, the permit would be valid through {valid_through:%B %-d, %Y}, "
                f"before the planned work ends on {end_date:%B %-d, %Y}: a permit is valid 30 days from its approval "
                f"(§ 303-4D). Hold the approval until {can_come:%B %-d, %Y}, or approve with planned dates the "
                "validity covers.",
            )
        ]
    return [
        _warning(
            None,
            "renewal_will_be_needed",
            "§ 303-4D",
            f"The work is planned through {end_date:%B %-d, %Y}, past the 30-day validity (through "
            f"{valid_through:%B %-d, %Y}): the permittee must ask for a renewal once the work has begun (§ 303-4E).",
        )
    ]


def edited_dates_violations(
    *, expires_on: date | None, start_date: date | None, end_date: date | None, planned_end: date | None
) -> list[Violation]:
    """§ 303-4D: once approved, the permit is valid through `expires_on` (30 days from approval, or a renewal's end):
    planned dates moved after approval stay within it. A planned end already past it (work longer than 30 days,
    approved with a renewal to come, § 303-4E) may stay where it was, but not move later. A renewal, not an edit,
    carries work past the validity."""
    if expires_on is None:
        return []
    errors = []
    if start_date is not None and start_date > expires_on:
        errors.append(
            _error(
                "start_date",
                "start_after_validity",
                "§ 303-4D",
                f"The permit is valid through {expires_on:%B %-d, %Y}: the planned start cannot move past it "
                "(§ 303-4D). Work after it needs a renewal (§ 303-4E) or a new permit.",
            )
        )
    if end_date is not None and end_date > expires_on and (planned_end is None or end_date > planned_end):
        errors.append(
            _error(
                "end_date",
                "end_after_validity",
                "§ 303-4D",
                f"The permit is valid through {expires_on:%B %-d, %Y}: the planned end cannot move past it "
                "(§ 303-4D). Work after it needs a renewal (§ 303-4E).",
            )
        )
    return errors


def hold_violations(*, today: date, can_come_on: date | None) -> list[Violation]:
    """§ 303-4D: an approval is held only until the day it can come; one that can come today is given, not held."""
    if can_come_on is None:
        return [_error(None, "no_dates", "§ 303-4D", "The application has no planned dates: nothing to hold for")]
    if can_come_on <= today:
        return [
            _error(
                None,
                "nothing_to_hold",
                "§ 303-4D",
                "Approved today the permit's 30 days cover the planned work: approve it now (§ 303-4D).",
            )
        ]
    return []


def approval_dates_violations(*, today: date, start_date: date | None, end_date: date | None) -> list[Violation]:
    """§ 303-4D: planned dates set on approval must lie within the validity that approval starts."""
    errors = []
    if start_date is None or end_date is None:
        return [_error("start_date", "required", "§ 303-4D", "Give the planned start and end of the work (§ 303-4D)")]
    if end_date < start_date:
        errors.append(_error("end_date", "end_before_start", "§ 303-4D", "The end date is before the start date"))
    if start_date < today:
        errors.append(_error("start_date", "start_past", "§ 303-4D", "The planned start cannot be in the past"))
    valid_through = expiry_date(today)
    if end_date > valid_through:
        errors.append(
            _error(
                "end_date",
                "end_after_validity",
                "§ 303-4D",
                f"Approved today the permit is valid through {valid_through:%B %-d, %Y}: the planned work must end by "
                "then (§ 303-4D).",
            )
        )
    return errors


# --- § 303-4D with § 303-5G: the right to open lapses, the restoration duties remain ------------------------------


def was_opened(*, work_begun_on: date | None, under_way: bool, inspected: bool, restoration_recorded: bool) -> bool:
    """Whether the street was opened under the permit: the permittee said the work began, the permit is marked under
    way, an inspector has been on site, or pavement (temporary or permanent) was recorded."""
    return bool(work_begun_on or under_way or inspected or restoration_recorded)


def lapse_outcome(*, expires_on: date | None, today: date, opened: bool) -> str | None:
    """§ 303-4D with § 303-5G: what the end of the 30 days does on `today`.

    "Valid for a period of 30 days from the date of approval, except as provided for under § 303-5G for pavement
    replacement": the 30 days are for opening the street. A permit whose street was never opened expires the day
    after them ("expire"). One whose street was opened keeps its restoration duties (permanent pavement within 60 days
    of the permit date or a winter patch replaced by June 1, § 303-5G(4)), their inspections, completion and the
    one-year guarantee (§ 303-4H(3)): only its right to open the street ends ("opening_lapsed"). None: still valid.
    """
    if expires_on is None or today <= expires_on:
        return None
    return "opening_lapsed" if opened else "expire"


def opening_lapsed_violations(*, opening_lapsed_on: date | None, today: date) -> list[Violation]:
    """§ 303-4D: after the 30 days (and any renewal) no new opening is made under the permit."""
    if opening_lapsed_on is None or today < opening_lapsed_on:
        return []
    return [
        _error(
            None,
            "opening_lapsed",
            "§ 303-4D",
            f"The right to open the street under this permit ended on {opening_lapsed_on:%B %-d, %Y} (§ 303-4D): only "
            "the restoration, its inspections and completion continue (§ 303-5G).",
        )
    ]


# --- § 303-1C(8), § 303-4F(1), § 303-4H(3): completion ---------------------------------------------------------------


def completion_confirmation_violations(
    *, requested: bool, final_passed: bool, open_failures: list[str]
) -> list[Violation]:
    """Completion is the permittee's request (§ 303-4H(3)); the DPW confirms it only after a passed final inspection
    of the restored surface (§ 303-1C(8)) with no inspection left failed (§ 303-4F(1): the work meets the Village
    standards). `open_failures` names the inspections whose latest result is a failure."""
    errors = []
    if not requested:
        errors.append(
            _error(
                None,
                "completion_not_requested",
                "§ 303-4H(3)",
                "The permittee has not requested completion: the permittee reports the work complete, the DPW "
                "confirms it (§ 303-4H(3)).",
            )
        )
    if not final_passed:
        errors.append(
            _error(
                None,
                "final_inspection_not_passed",
                "§ 303-1C(8)",
                "No final inspection of the restored surface has passed: the work is complete only once the DPW "
                "finds the surface restored (§ 303-1C(8)).",
            )
        )
    if open_failures:
        errors.append(
            _error(
                None,
                "inspection_failure_open",
                "§ 303-4F(1)",
                f"An inspection is still failed ({', '.join(open_failures)}): the work must meet the Village "
                "standards and pass again before completion (§ 303-4F(1)).",
            )
        )
    return errors


def open_failures(latest_by_kind: dict[str, str]) -> list[str]:
    """The inspection kinds whose latest result is a failure ({kind label: 'pass'|'fail'})."""
    return sorted(kind for kind, result in latest_by_kind.items() if result == "fail")


# --- § 303-4E with § 303-5A: renewal ----------------------------------------------------------------------------------


def renewal_request_violations(*, work_begun_on: date | None, reason: str, today: date) -> list[Violation]:
    """§ 303-4E: a written request (its reason), once operations have begun (a date not in the future)."""
    errors = []
    if work_begun_on is None:
        errors.append(_error("work_begun_on", "required", "§ 303-4E", "Give the date the work began (§ 303-4E)"))
    elif work_begun_on > today:
        errors.append(
            _error(
                "work_begun_on",
                "work_begun_future",
                "§ 303-4E",
                "The work must have begun: the date the work began cannot be in the future (§ 303-4E)",
            )
        )
    if not (reason or "").strip():
        errors.append(
            _error(
                "reason",
                "required",
                "§ 303-4E",
                "Say in writing why the work will continue beyond the validity (§ 303-4E)",
            )
        )
    return errors


def renewal_winter_violations(
    *, previous_expires_on: date, new_expires_on: date, determination_recorded: bool
) -> list[Violation]:
    """§ 303-5A: a renewal that would carry the work into November 15 to April 1 is refused unless the Village Board
    or its designee has determined the excavation an emergency."""
    if determination_recorded:
        return []
    day = previous_expires_on + ONE_DAY
    while day <= new_expires_on:
        if in_frozen_ground_season(day):
            return [
                _error(
                    None,
                    "renewal_into_winter",
                    "§ 303-5A",
                    f"Renewed through {new_expires_on:%B %-d, %Y}, the work would continue into the frozen-ground "
                    f"season from {day:%B %-d, %Y}: no opening is permitted November 15 to April 1 unless the Village "
                    "Board or its designee determines an emergency excavation (§ 303-5A).",
                )
            ]
        day += ONE_DAY
    return []


def pending_request_violations(*, pending_since) -> list[Violation]:
    """§ 303-4E: one written request at a time; the Clerk-Treasurer or the DPW decides it."""
    if pending_since is None:
        return []
    return [
        _error(
            None,
            "renewal_request_pending",
            "§ 303-4E",
            f"A renewal request of {pending_since:%B %-d, %Y} is waiting for the Clerk-Treasurer or the Director of "
            "Public Works (§ 303-4E).",
        )
    ]


def no_request_violations() -> list[Violation]:
    return [
        _error(
            None,
            "renewal_not_requested",
            "§ 303-4E",
            "There is no written renewal request from the permittee to grant (§ 303-4E).",
        )
    ]


def fee_waiting_violations(*, granted_at) -> list[Violation]:
    """§ 303-4E: a granted renewal takes effect when its fee is paid; no second request while it waits."""
    return [
        _error(
            None,
            "renewal_fee_unpaid",
            "§ 303-4E",
            f"The renewal granted on {granted_at:%B %-d, %Y} takes effect when its renewal fee is paid to the "
            "Clerk-Treasurer (§ 303-4E).",
        )
    ]
