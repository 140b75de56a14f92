"""The rules of the street privilege permit (§ 303-7, Wis. Stat. § 66.0425), each a small pure function citing its
section: plain values in (dates, Decimals, booleans), Violations out. No clock, no database: the services read both
once and pass them down.

§ 303-6B(2) (materials on at most half the sidewalk) is not among them: it excepts building materials the Building
Inspector authorizes without a § 303-7 permit (obstructions.materials). A § 303-7 permit is excepted by § 303-6B(1)
and held to its own § 303-7D conditions: a third of the street, and sidewalk traffic kept or a fenced temporary walk."""

from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta
from decimal import Decimal

from permits.errors import Violation
from permits.street_facts import width_on_record_violations
from permits.time import hours_later

BOND_CAP = Decimal("10000.00")  # § 303-7B: "not exceeding $10,000"
STREET_SHARE = Decimal(3)  # § 303-7D(1): "not more than 1/3 of any street or alley"
MIN_WALK_FEET = Decimal(4)  # § 303-7D(3): "temporary sidewalks of not less than four feet in width"
MIN_FENCE_FEET = Decimal(4)  # § 303-7D(3): "a closed fence at least four feet high"
TERM_MONTHS = 3  # § 303-7E: "at the end of three months from the date of issuance"
NOTICE_HOURS = 24  # § 303-7F: "within 24 hours after such notice from the Village Board"
TERMINATION_WARNING = timedelta(days=7)  # the permittee is told a week before the permit ends (§ 303-7E)
PURPOSES = ("move_building", "materials")


def _error(field, code, citation, message) -> Violation:
    return Violation(field, code, citation, f"{message} ({citation})")


def application_violations(
    *, purpose: str, street: str, location_description: str, building_description: str, route_description: str
) -> list[Violation]:
    """§ 303-7A: a permit is for moving a building or structure or for materials in and about construction or
    demolition, at a named place on a Village street; a move names the building and the route it proposes."""
    errors = []
    if purpose not in PURPOSES:
        errors.append(
            _error("purpose", "purpose", "§ 303-7A", "Choose the purpose: moving a building, or construction materials")
        )
    if not street.strip():
        errors.append(_error("street", "required", "§ 303-7A", "Choose the street from the Village's list"))
    if not location_description.strip():
        errors.append(_error("location_description", "required", "§ 303-7A", "Describe where on the street"))
    if purpose == "move_building":
        if not building_description.strip():
            errors.append(
                _error("building_description", "required", "§ 303-7A", "Describe the building or structure moved")
            )
        if not route_description.strip():
            errors.append(
                _error("route_description", "required", "§ 303-7D(6)", "Propose the route of the move for the Board")
            )
    return errors


def building_permit_violations(*, determined: bool, required: bool | None, shown: bool) -> list[Violation]:
    """§ 303-7A: the permit is granted to an applicant who "has obtained a building permit if required by this Code".
    Whether one is required is the Building Inspector's determination (Chapter 132 is his code), recorded on the
    permit's Village actions page, never the applicant's say-so. Interpreted: the permit is not issued until that
    determination is recorded, and, where he found one required, until the building permit has been shown to him (he
    records its number)."""
    if not determined:
        return [
            _error(
                None,
                "building_permit_not_determined",
                "§ 303-7A",
                "The Building Inspector has not recorded whether a building permit is required",
            )
        ]
    if required and not shown:
        return [
            _error(
                None,
                "building_permit_not_shown",
                "§ 303-7A",
                "A building permit is required and has not been shown to the Building Inspector yet",
            )
        ]
    return []


def building_permit_determination_violations(*, required: bool | None, shown_number: str) -> list[Violation]:
    """§ 303-7A: the Building Inspector's determination says whether a building permit is required; the number of
    the one shown to him is recorded only where one is required."""
    if required is None:
        return [
            _error(
                "required",
                "required",
                "§ 303-7A",
                "Say whether a building permit is required (Chapter 132)",
            )
        ]
    if not required and shown_number.strip():
        return [
            _error(
                "shown_number",
                "not_required",
                "§ 303-7A",
                "No building permit is required: record no building permit number",
            )
        ]
    return []


def date_violations(*, start_date: date | None, end_date: date | None) -> list[Violation]:
    """§ 303-7D: the occupation is for the period of the actual work: a start and an end, in that order."""
    errors = []
    if start_date is None:
        errors.append(_error("start_date", "required", "§ 303-7D", "Give the first day of the occupation"))
    if end_date is None:
        errors.append(_error("end_date", "required", "§ 303-7D", "Give the last day of the occupation"))
    if start_date and end_date and end_date < start_date:
        errors.append(_error("end_date", "end_before_start", "§ 303-7D", "The last day is before the first day"))
    return errors


def is_within_third_of_street(*, street_width_feet: Decimal, occupied_street_feet: Decimal) -> bool:
    """§ 303-7D(1): the obstruction covers not more than 1/3 of the street or alley (12.0 ft of 36.0 ft is 1/3
    exactly and passes; 12.1 ft does not). Compared as 3 x occupied <= width: no rounding of a third."""
    return occupied_street_feet * STREET_SHARE <= street_width_feet


def street_share_violations(
    *, street_name: str, street_width_feet: Decimal | None, occupied_street_feet: Decimal | None, where: str
) -> list[Violation]:
    """§ 303-7D(1): at most one third of the street or alley, measured against the width the Village recorded in the
    street register (`street_width_feet`, never a width the applicant types). None on record: refused, naming who
    records it and where (`where`, the register page)."""
    errors = width_on_record_violations(
        street_name=street_name, width_feet=street_width_feet, field="street", citation="§ 303-7D(1)", where=where
    )
    if occupied_street_feet is None or occupied_street_feet < 0:
        errors.append(
            _error("occupied_street_feet", "required", "§ 303-7D(1)", "Give how many feet of the street are occupied")
        )
    if errors:
        return errors
    if not is_within_third_of_street(street_width_feet=street_width_feet, occupied_street_feet=occupied_street_feet):
        third = (street_width_feet / STREET_SHARE).quantize(Decimal("0.1"))
        errors.append(
            _error(
                "occupied_street_feet",
                "more_than_a_third",
                "§ 303-7D(1)",
                f"{occupied_street_feet} ft of {street_name}, {street_width_feet} ft wide on the Village's record, is "
                f"more than one third (at most {third} ft)",
            )
        )
    return errors


def lighting_violations(*, lighted_at_night: bool) -> list[Violation]:
    """§ 303-7D(2): obstructions are lighted at night so as to be in full view of the public from all directions."""
    if lighted_at_night:
        return []
    return [
        _error(
            "lighted_at_night",
            "not_lighted",
            "§ 303-7D(2)",
            "The obstruction must be lighted at night, in full view of the public from all directions",
        )
    ]


def sidewalk_violations(
    *,
    sidewalk_occupied: bool,
    temporary_walk_width_feet: Decimal | None,
    fence_height_feet: Decimal | None,
    fenced_both_sides: bool,
) -> list[Violation]:
    """§ 303-7D(3): sidewalk traffic is not interrupted; an occupied sidewalk keeps a temporary walk at least 4 ft
    wide, guarded by a closed fence at least 4 ft high on both sides (4.0 passes, 3.9 fails)."""
    if not sidewalk_occupied:
        return []
    errors = []
    if temporary_walk_width_feet is None or temporary_walk_width_feet < MIN_WALK_FEET:
        errors.append(
            _error(
                "temporary_walk_width_feet",
                "walk_too_narrow",
                "§ 303-7D(3)",
                "An occupied sidewalk keeps a temporary walk at least 4 feet wide",
            )
        )
    if fence_height_feet is None or fence_height_feet < MIN_FENCE_FEET:
        errors.append(
            _error(
                "fence_height_feet",
                "fence_too_low",
                "§ 303-7D(3)",
                "The temporary walk is guarded by a closed fence at least 4 feet high",
            )
        )
    if not fenced_both_sides:
        errors.append(
            _error(
                "fenced_both_sides",
                "fence_one_side",
                "§ 303-7D(3)",
                "The temporary walk is fenced on both sides",
            )
        )
    return errors


def overnight_violations(*, purpose: str, overnight_at_intersection_or_hydrant: bool) -> list[Violation]:
    """§ 303-7D(5): no building or structure remains overnight on a street crossing or intersection, or so near one
    as to prevent easy access to a fire hydrant."""
    if purpose == "move_building" and overnight_at_intersection_or_hydrant:
        return [
            _error(
                "overnight_at_intersection_or_hydrant",
                "overnight_blocked",
                "§ 303-7D(5)",
                "The building may not stay overnight on a crossing or intersection or where it blocks a fire hydrant",
            )
        ]
    return []


def bond_amount_violations(amount: Decimal | None) -> list[Violation]:
    """§ 303-7B: the Director of Public Works sets the bond, not exceeding $10,000 ($10,000.00 passes, $10,000.01
    fails). A bond of nothing is the Board's waiver, not the DPW's amount."""
    if amount is None or not amount.is_finite() or amount <= 0:
        return [
            _error(
                "bond_amount",
                "bond_required",
                "§ 303-7B",
                "Set a bond of more than $0.00 (only the Village Board may waive it)",
            )
        ]
    if amount > BOND_CAP:
        return [
            _error(
                "bond_amount",
                "bond_over_cap",
                "§ 303-7B",
                f"The bond of ${amount:,.2f} is more than the ${BOND_CAP:,.0f} the ordinance allows",
            )
        ]
    if amount != amount.quantize(Decimal("0.01")):
        return [_error("bond_amount", "whole_cents", "§ 303-7B", "The bond is in whole cents")]
    return []


def grant_violations(*, dpw_recommended: bool, police_recommended: bool) -> list[Violation]:
    """§ 303-7A: the Building Inspector requests the advisory recommendations of the Director of Public Works and the
    Chief of Police before the permit is granted: both must be recorded (either way: they are advisory)."""
    errors = []
    if not dpw_recommended:
        errors.append(
            _error(
                None,
                "no_dpw_recommendation",
                "§ 303-7A",
                "The Director of Public Works' advisory recommendation is not recorded yet",
            )
        )
    if not police_recommended:
        errors.append(
            _error(
                None,
                "no_police_recommendation",
                "§ 303-7A",
                "The Chief of Police's advisory recommendation is not recorded yet",
            )
        )
    return errors


def insurance_condition_violations(*, required_by: list[str], certificate_filed: bool) -> list[Violation]:
    """§ 303-7A: "Village officials may attach conditions to the permit, including proof of liability insurance": a
    condition attached is met before the permit is issued, so proof of insurance an official required must be on
    file (the certificate, uploaded on the permit page) first."""
    if not required_by or certificate_filed:
        return []
    message = (
        f"Proof of liability insurance is a condition attached by the {' and the '.join(required_by)}: upload the "
        "certificate of insurance on the permit page before the permit is issued"
    )
    return [_error("insurance", "insurance_condition_unmet", "§ 303-7A", message)]


def issue_violations(
    *,
    dpw_recommended: bool,
    police_recommended: bool,
    bond_amount_set: bool,
    bond_filed: bool,
    bond_waived: bool,
    balance_due: Decimal,
    is_move: bool,
    route_prescribed: bool,
) -> list[Violation]:
    """§ 303-7A, § 303-7B, § 303-7C, § 303-7D(6): not issued before both recommendations are recorded, the bond the
    DPW set is filed with the Clerk-Treasurer (or the Board waived it), the fee and actual costs are paid, and, for a
    move, the Board has prescribed the route."""
    errors = grant_violations(dpw_recommended=dpw_recommended, police_recommended=police_recommended)
    if not bond_waived:
        if not bond_amount_set:
            errors.append(
                _error(None, "bond_not_set", "§ 303-7B", "The Director of Public Works has not set the bond yet")
            )
        elif not bond_filed:
            errors.append(
                _error(None, "bond_not_filed", "§ 303-7B", "The bond is not filed with the Clerk-Treasurer yet")
            )
    if balance_due > 0:
        errors.append(
            _error(
                None, "fee_unpaid", "§ 303-7C", f"The fee and the Village's costs are not paid: ${balance_due:.2f} due"
            )
        )
    if is_move and not route_prescribed:
        errors.append(
            _error(None, "no_route", "§ 303-7D(6)", "The Village Board has not prescribed the route of the move yet")
        )
    return errors


def add_months(day: date, months: int) -> date:
    """The same day of the month `months` later, or that month's last day when it is shorter (Nov 30 + 3 -> Feb 28)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def termination_date(issued_on: date, earlier_on: date | None = None) -> date:
    """§ 303-7E: the last day of the permit: three months from issue (issued March 10 -> June 10; issued November 30
    -> February 28, the shorter month's last day), or the earlier date the Building Inspector set. Interpreted: "at
    the end of three months from the date of issuance" ends with the day of the same number three months on."""
    end = add_months(issued_on, TERM_MONTHS)
    return min(end, earlier_on) if earlier_on else end


def earlier_termination_violations(*, earlier_on: date | None, today: date) -> list[Violation]:
    """§ 303-7E: an earlier termination date the Building Inspector sets lies within the three months and not in
    the past."""
    if earlier_on is None:
        return []
    if earlier_on < today:
        return [_error("earlier_termination_on", "past", "§ 303-7E", "The termination date is in the past")]
    if earlier_on > termination_date(today):
        return [
            _error(
                "earlier_termination_on",
                "later_than_three_months",
                "§ 303-7E",
                f"The permit ends by itself three months from issue ({termination_date(today):%B %-d, %Y}): "
                "an earlier date only",
            )
        ]
    return []


def earlier_end_at_issue_violations(*, earlier_on: date | None, issued_on: date) -> list[Violation]:
    """§ 303-7E: the earlier end date the Building Inspector set at grant cannot fall before the day the permit is
    issued (the permit would be issued already ended); the day of issue itself is allowed. The Building Inspector sets
    a new date (or clears it) on the permit's Village actions page."""
    if earlier_on is None or earlier_on >= issued_on:
        return []
    message = (
        f"The earlier end date set at grant, {earlier_on:%B %-d, %Y}, is before today's issue: the Building "
        "Inspector sets a new end date, or clears it, before the permit is issued"
    )
    return [_error("earlier_termination_on", "ends_before_issue", "§ 303-7E", message)]


def has_terminated(*, last_day: date | None, today: date) -> bool:
    """§ 303-7E: the permit has terminated once its last day has passed (the last day itself is still in force)."""
    return last_day is not None and today > last_day


def is_due_termination_notice(*, last_day: date | None, today: date) -> bool:
    """§ 303-7E: the permittee is told in advance, from a week before the last day through it."""
    return last_day is not None and last_day - TERMINATION_WARNING <= today <= last_day


def closing_violations(*, closing_passed: bool | None) -> list[Violation]:
    """§ 303-7D(7): at the end the space is vacated, cleaned of rubbish and obstructions and made safe for travel: the
    permit closes after a passed closing inspection."""
    if closing_passed:
        return []
    return [
        _error(
            None,
            "closing_not_passed",
            "§ 303-7D(7)",
            "The closing inspection has not passed: the space must be vacated, cleaned and made safe first",
        )
    ]


def removal_violations(*, noticed_at: datetime | None, removed_at: datetime) -> list[Violation]:
    """§ 303-7F: the Village removes the obstruction only when the owner or occupant has not within 24 hours of the
    Board's notice (24 hours after passes; 23 h 59 min does not), counted as Wis. Stat. § 990.001(4)(a) counts
    hours: Sundays and legal holidays are excluded (permits.time)."""
    if noticed_at is None:
        message = (
            "The Village Board's 24-hour notice has not been given yet: the Board must order it by motion, and a "
            "letter counts only once the Clerk-Treasurer records it as mailed (Letters to mail)"
        )
        return [_error(None, "no_notice", "§ 303-7F", message)]
    deadline = hours_later(noticed_at, NOTICE_HOURS)
    if removed_at < deadline:
        return [
            _error(
                "removed_at",
                "within_24_hours",
                "§ 303-7F",
                "The owner or occupant has 24 hours from the Board's notice to remove the obstruction, Sundays and "
                f"legal holidays not counted: until {deadline:%B %-d, %Y %-I:%M %p}",
            )
        ]
    return []


def cost_line_violations(*, description: str, amount: Decimal | None) -> list[Violation]:
    """§ 303-7C: an actual Village cost names what it was for and is more than $0.00, in whole cents."""
    errors = []
    if not description.strip():
        errors.append(_error("description", "required", "§ 303-7C", "Say what the cost was for (a police escort...)"))
    if amount is None or not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        errors.append(_error("amount", "amount", "§ 303-7C", "The cost is more than $0.00, in whole cents"))
    return errors
