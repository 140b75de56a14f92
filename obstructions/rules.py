"""The rules of the enforcement cases of Chapter 303: obstructions (§ 303-6), terraces (§ 303-9), dumping (§ 303-12),
drainage (§ 303-13) and street numbers (§ 303-14).

Each rule is a small pure function: dates, datetimes, Decimals and plain values in; no clock, no database. Its
docstring begins with its section; the message a person reads cites it too. Services read the clock once and pass it.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from permits.errors import Violation
from permits.street_facts import width_on_record_violations
from permits.time import first_day_after, hours_later

# --- Who the notice goes to -------------------------------------------------------------------------------------

OWNER, OCCUPANT = "owner", "occupant"


def notice_recipients(kind: str) -> frozenset[str]:
    """§ 303-6D, § 303-6E, § 303-9C, § 303-14C: whom the written notice may be addressed to.

    A sidewalk obstruction's notice goes to the owner or occupant of the adjoining premises (§ 303-6D); a street, alley
    or public-ground obstruction's to the property owner (§ 303-6E); a terrace's to the owner of the abutting land
    (§ 303-9C); a street number's to the owner or occupant (§ 303-14C). §§ 303-12 and 303-13 forbid "any person" to
    dump or block: the notice goes to the owner or the occupant of the premises the case is against."""
    if kind in {"obstruction_street", "terrace"}:
        return frozenset({OWNER})
    return frozenset({OWNER, OCCUPANT})


def recipient_errors(kind: str, recipient: str, citation: str) -> list[Violation]:
    """§ 303-6D / § 303-6E / § 303-9C / § 303-14C: the notice goes to a person the section names."""
    allowed = notice_recipients(kind)
    if recipient in allowed:
        return []
    names = " or the ".join(sorted(allowed))
    return [
        Violation(
            "served_to",
            "wrong_recipient",
            citation,
            f"Under {citation} the written notice goes to the {names} of the premises, not the {recipient}.",
        )
    ]


# --- § 303-6: the 24 hours and the Village's removal -----------------------------------------------------------

REMOVAL_HOURS = 24  # § 303-6D, § 303-6E


def removal_deadline(served_at: datetime) -> datetime:
    """§ 303-6D / § 303-6E: the obstruction is to be removed within 24 hours of the written notice being served,
    counted as Wis. Stat. § 990.001(4)(a) counts hours: Sundays and legal holidays are excluded (permits.time)."""
    return hours_later(served_at, REMOVAL_HOURS)


def village_may_remove(served_at: datetime, at: datetime) -> bool:
    """§ 303-6F(1): the Village removes the obstruction once the 24 hours have run: at served + 24h00 exactly, not a
    minute before (the owner has the whole 24 hours)."""
    return at >= removal_deadline(served_at)


def removal_errors(served_at: datetime | None, at: datetime) -> list[Violation]:
    """§ 303-6F(1): no Village removal before the notice is served and its 24 hours have run."""
    if served_at is None:
        return [
            Violation(
                "removed_at",
                "not_served",
                "§ 303-6F(1)",
                "The written notice has not been served yet (§ 303-6D, § 303-6E): serve it, or, for a mailed notice, "
                "record its letter as mailed. The Village removes an obstruction only when the owner or occupant has "
                "not removed it within 24 hours of the notice (§ 303-6F(1)).",
            )
        ]
    if not village_may_remove(served_at, at):
        return [
            Violation(
                "removed_at",
                "too_early",
                "§ 303-6F(1)",
                f"The owner or occupant has until {removal_deadline(served_at):%B %-d, %Y %-I:%M %p} to remove it: "
                "the Village may remove an obstruction only after the 24 hours of the notice (§ 303-6F(1)).",
            )
        ]
    return []


# --- § 303-6B(2): building materials the Building Inspector authorized (without a § 303-7 permit) -----------------

STREET_SHARE = Decimal(3)  # § 303-6B(2): "not ... more than 1/3 of the traveled portion of the street"
SIDEWALK_SHARE = Decimal(2)  # § 303-6B(2): "not ... more than 1/2 of the sidewalk"


def materials_authorization_violations(
    *,
    street_name: str,
    traveled_width_feet: Decimal | None,
    sidewalk_width_feet: Decimal | None,
    widths_recorded: bool,
    occupied_street_feet: Decimal | None,
    occupied_sidewalk_feet: Decimal | None,
    gutter_kept_flowing: bool,
    starts_on: date | None,
    ends_on: date | None,
    where: str,
) -> list[Violation]:
    """§ 303-6B(2): the Building Inspector authorizes building materials for a period (a first and a last day, in
    order) on at most 1/3 of the traveled portion of the street and at most 1/2 of the sidewalk, not interfering with
    the flow in the gutters. "Not more than": exactly a third (10.0 ft of 30.0 ft) and exactly half (2.5 ft of 5.0 ft)
    pass; 10.1 ft and 2.6 ft do not. The widths are the street register's; with none on record the authorization is
    refused (`where` names the register page). This is the exception for materials authorized without a § 303-7
    permit: a § 303-7 permit is § 303-6B(1)'s and meets § 303-7D instead."""
    errors = []
    if starts_on is None:
        errors.append(Violation("starts_on", "required", "§ 303-6B(2)", "Give the first day authorized (§ 303-6B(2))."))
    if ends_on is None:
        errors.append(Violation("ends_on", "required", "§ 303-6B(2)", "Give the last day authorized (§ 303-6B(2))."))
    if starts_on and ends_on and ends_on < starts_on:
        errors.append(
            Violation(
                "ends_on", "end_before_start", "§ 303-6B(2)", "The last day is before the first day (§ 303-6B(2))."
            )
        )
    if not gutter_kept_flowing:
        errors.append(
            Violation(
                "gutter_kept_flowing",
                "gutter_blocked",
                "§ 303-6B(2)",
                "Building materials may not interfere with the flow in the gutters (§ 303-6B(2)).",
            )
        )
    if occupied_street_feet is None or occupied_street_feet < 0:
        errors.append(
            Violation(
                "occupied_street_feet",
                "required",
                "§ 303-6B(2)",
                "Give how many feet of the traveled street the materials occupy (0 for none) (§ 303-6B(2)).",
            )
        )
    else:
        missing = width_on_record_violations(
            street_name=street_name,
            width_feet=traveled_width_feet,
            field="occupied_street_feet",
            citation="§ 303-6B(2)",
            where=where,
            what="traveled width",
        )
        errors += missing
        if not missing and occupied_street_feet * STREET_SHARE > traveled_width_feet:
            third = (traveled_width_feet / STREET_SHARE).quantize(Decimal("0.1"))
            errors.append(
                Violation(
                    "occupied_street_feet",
                    "more_than_a_third",
                    "§ 303-6B(2)",
                    f"{occupied_street_feet} ft of the {traveled_width_feet} ft traveled portion of {street_name} is "
                    f"more than 1/3 of it (at most {third} ft) (§ 303-6B(2)).",
                )
            )
    if occupied_sidewalk_feet is None or occupied_sidewalk_feet < 0:
        errors.append(
            Violation(
                "occupied_sidewalk_feet",
                "required",
                "§ 303-6B(2)",
                "Give how many feet of the sidewalk the materials occupy (0 for none) (§ 303-6B(2)).",
            )
        )
    elif occupied_sidewalk_feet > 0:
        if not widths_recorded:
            errors += width_on_record_violations(
                street_name=street_name,
                width_feet=None,
                field="occupied_sidewalk_feet",
                citation="§ 303-6B(2)",
                where=where,
                what="sidewalk width",
            )
        elif sidewalk_width_feet is None:
            errors.append(
                Violation(
                    "occupied_sidewalk_feet",
                    "no_sidewalk",
                    "§ 303-6B(2)",
                    f"The street register records no sidewalk along {street_name}: no sidewalk can be occupied "
                    f"(§ 303-6B(2)). If there is one, the Clerk-Treasurer or the Director of Public Works records its "
                    f"width ({where}).",
                )
            )
        elif occupied_sidewalk_feet * SIDEWALK_SHARE > sidewalk_width_feet:
            half = (sidewalk_width_feet / SIDEWALK_SHARE).quantize(Decimal("0.1"))
            errors.append(
                Violation(
                    "occupied_sidewalk_feet",
                    "more_than_half",
                    "§ 303-6B(2)",
                    f"{occupied_sidewalk_feet} ft of the {sidewalk_width_feet} ft sidewalk is more than 1/2 of it "
                    f"(at most {half} ft) (§ 303-6B(2)).",
                )
            )
    return errors


def materials_authorized(*, number: str, starts_on: date, ends_on: date, same_street: bool, day: date) -> list:
    """§ 303-6B(2): building materials are excepted only "for the period authorized by the Building Inspector": from
    its first day through its last (both included), on the street it names. The day before and the day after are
    outside it: the materials are then an obstruction (§ 303-6A)."""
    if not same_street:
        return [
            Violation(
                "excepting_permit",
                "materials_other_street",
                "§ 303-6B(2)",
                f"Authorization {number} is for building materials on another street (§ 303-6B(2)).",
            )
        ]
    if not starts_on <= day <= ends_on:
        return [
            Violation(
                "excepting_permit",
                "materials_outside_period",
                "§ 303-6B(2)",
                f"Authorization {number} excepts building materials from {starts_on:%B %-d, %Y} to "
                f"{ends_on:%B %-d, %Y} only (§ 303-6B(2)).",
            )
        ]
    return []


# --- § 303-6C: a commercial sidewalk fixture --------------------------------------------------------------------

MIN_CLEAR_SIDEWALK_FEET = Decimal("3.0")  # § 303-6C(3)


def fixture_errors(
    *, commercial_area: bool, attached: bool, temporary_design: bool, clear_width_feet
) -> list[Violation]:
    """§ 303-6C: a fixture on a sidewalk adjoining the owner's property is allowed only in a commercial area (1), not
    attached to the sidewalk, a street fixture or the building and of temporary design (2), leaving at least 3 ft of
    unobstructed sidewalk at every point (3): the narrowest point measured, 3.0 ft passes and 2.9 ft fails."""
    problems = []
    if not commercial_area:
        problems.append(
            Violation(
                "commercial_area",
                "fixture_not_commercial",
                "§ 303-6C(1)",
                "A sidewalk fixture is allowed only where the property is in an area used for commercial uses "
                "(§ 303-6C(1)).",
            )
        )
    if attached or not temporary_design:
        problems.append(
            Violation(
                "attached",
                "fixture_attached_or_permanent",
                "§ 303-6C(2)",
                "A sidewalk fixture may not be attached to the sidewalk, a street fixture or the building, and must be "
                "of temporary design (§ 303-6C(2)).",
            )
        )
    if clear_width_feet is None or Decimal(str(clear_width_feet)) < MIN_CLEAR_SIDEWALK_FEET:
        problems.append(
            Violation(
                "clear_width_feet",
                "fixture_narrows_sidewalk",
                "§ 303-6C(3)",
                f"The fixture leaves {clear_width_feet if clear_width_feet is not None else 'no measured'} ft of "
                "sidewalk clear at its narrowest point; at least 3 ft must stay unobstructed at every point "
                "(§ 303-6C(3)).",
            )
        )
    return problems


# --- § 303-9: terraces -------------------------------------------------------------------------------------------

TERRACE_OBJECTS = frozenset({"backstop", "statuary", "structure", "flagpole", "other_object"})
TERRACE_CONDITIONS = {
    "weeds": "Noxious weeds",
    "paved": "Paved, surfaced or covered so plants cannot grow",
    "not_lawn": "Not maintained as a lawn",
    "backstop": "Basketball backstop",
    "statuary": "Statuary",
    "structure": "Structure",
    "flagpole": "Flagpole",
    "other_object": "Another object placed in the terrace",
    "mailbox_snow": "Mailbox on the terrace not kept clear of snow",
}


def terrace_errors(condition: str, *, area_approved: bool) -> list[Violation]:
    """§ 303-9B, § 303-9C: a terrace is kept free of noxious weeds and as a lawn, not paved or covered, except in an
    area the Village Board or its designee approved; backstops, statuary, structures, flagpoles and other objects are
    never placed there (no approval covers them, § 303-9B); a mailbox on it is kept clear of snow (§ 303-9C)."""
    if condition not in TERRACE_CONDITIONS:
        return [
            Violation("terrace_condition", "unknown", "§ 303-9B", "Choose what is wrong with the terrace (§ 303-9B).")
        ]
    if condition == "mailbox_snow":
        return [
            Violation(
                "terrace_condition",
                "mailbox_snow",
                "§ 303-9C",
                "The owner keeps a mailbox on the terrace clear of snow (§ 303-9C).",
            )
        ]
    if condition in {"paved", "not_lawn"} and area_approved:
        return []  # § 303-9B: "except in areas specifically approved by the Village Board or its designee"
    if condition in TERRACE_OBJECTS:
        return [
            Violation(
                "terrace_condition",
                "terrace_object",
                "§ 303-9B",
                f"{TERRACE_CONDITIONS[condition]}: basketball backstops, statuary, structures, flagpoles and other "
                "objects shall not be placed in the terrace, whatever was approved (§ 303-9B).",
            )
        ]
    return [
        Violation(
            "terrace_condition",
            condition,
            "§ 303-9B",
            f"{TERRACE_CONDITIONS[condition]}: the terrace is kept free of noxious weeds and as a lawn, not paved or "
            "covered, unless the Village Board or its designee approved the area (§ 303-9B).",
        )
    ]


# --- § 303-12: dumping ---------------------------------------------------------------------------------------------

DUMPING_PLACES = {
    "street": "A public street",
    "sidewalk": "A public sidewalk",
    "alley": "A public alley",
    "public_property": "Other public property",
    "private_property": "Property of another",
}


def dumping_errors(place: str, *, permission_from: str) -> list[Violation]:
    """§ 303-12: leaving rubbish, earth, snow, ice, leaves, construction waste and the like in a public street,
    sidewalk or alley, on public property, or on another's property is unlawful, unless on that other's property with
    the express permission of its owner or occupant (`permission_from`: "owner", "occupant", or "" when none was
    recorded). Public places take no such permission."""
    if place not in DUMPING_PLACES:
        return [Violation("dumping_place", "unknown", "§ 303-12", "Choose where the material was left (§ 303-12).")]
    if place == "private_property" and permission_from in {OWNER, OCCUPANT}:
        return []
    if place == "private_property":
        return [
            Violation(
                "permission_from",
                "no_permission",
                "§ 303-12",
                "Material left on another's property without the express permission of its owner or occupant, "
                "recorded, is unlawful dumping (§ 303-12).",
            )
        ]
    return [
        Violation(
            "dumping_place",
            "public_place",
            "§ 303-12",
            f"{DUMPING_PLACES[place]}: no one may deposit or leave material there (§ 303-12).",
        )
    ]


# --- § 303-13: drainage --------------------------------------------------------------------------------------------

DRAINAGE_WAYS = {"gutter": "Gutter", "ditch": "Ditch", "culvert": "Culvert", "swale": "Swale", "drain": "Drain"}


def drainage_errors(way: str, *, blocked: bool, likely_carried: bool) -> list[Violation]:
    """§ 303-13: no one obstructs the free passage of water in a public gutter, ditch, culvert, swale or drain, or
    leaves matter where the elements are likely to carry it into one."""
    if way not in DRAINAGE_WAYS:
        return [
            Violation(
                "drainage_way", "unknown", "§ 303-13", "Choose the gutter, ditch, culvert, swale or drain (§ 303-13)."
            )
        ]
    if not (blocked or likely_carried):
        return []
    return [
        Violation(
            "drainage_way",
            "drainage_obstructed",
            "§ 303-13",
            f"{DRAINAGE_WAYS[way]}: the free passage of water is obstructed, or matter is left where the elements "
            "will likely carry it in (§ 303-13).",
        )
    ]


# --- § 303-14: street numbers ---------------------------------------------------------------------------------------

MIN_NUMERAL_INCHES = Decimal("2.5")  # § 303-14B
MIN_BACKGROUND_INCHES = Decimal("3")  # § 303-14B


def number_display_errors(
    *,
    numeral_inches,
    background_inches,
    contrasting: bool,
    script_font: bool,
    by_front_entrance: bool,
    visible_from_street: bool,
    abuts_alley: bool,
    visible_from_alley: bool,
) -> list[Violation]:
    """§ 303-14B: the official number is displayed in numerals at least 2 1/2 in high on a background at least 3 in,
    in a contrasting color, in no script-type font, by the front entrance, readily seen from the street, and also from
    the alley where the building abuts one. 2.5 in passes, 2.4 in fails; a 3 in background passes, 2.9 in fails."""
    problems = []
    if numeral_inches is None or Decimal(str(numeral_inches)) < MIN_NUMERAL_INCHES:
        problems.append(
            Violation(
                "numeral_inches",
                "numerals_too_small",
                "§ 303-14B",
                "Street numbers must be at least 2 1/2 inches high (§ 303-14B).",
            )
        )
    if background_inches is None or Decimal(str(background_inches)) < MIN_BACKGROUND_INCHES:
        problems.append(
            Violation(
                "background_inches",
                "background_too_small",
                "§ 303-14B",
                "The numbers' background must be at least 3 inches (§ 303-14B).",
            )
        )
    if not contrasting:
        problems.append(
            Violation(
                "contrasting", "not_contrasting", "§ 303-14B", "The numbers must be in a contrasting color (§ 303-14B)."
            )
        )
    if script_font:
        problems.append(
            Violation(
                "script_font",
                "script_font",
                "§ 303-14B",
                "No script-type font may be used for street numbers (§ 303-14B).",
            )
        )
    if not by_front_entrance:
        problems.append(
            Violation(
                "by_front_entrance",
                "not_by_entrance",
                "§ 303-14B",
                "The numbers must be by the front entrance, the main entrance facing the street (§ 303-14B).",
            )
        )
    if not visible_from_street:
        problems.append(
            Violation(
                "visible_from_street",
                "not_visible",
                "§ 303-14B",
                "The numbers must be easily seen from the street the building abuts (§ 303-14B).",
            )
        )
    if abuts_alley and not visible_from_alley:
        problems.append(
            Violation(
                "visible_from_alley",
                "not_visible_from_alley",
                "§ 303-14B",
                "A building abutting an alley shows its number so it can be seen from the alley too (§ 303-14B).",
            )
        )
    return problems


NEGLECT_DAYS = 20  # § 303-14C
AFTER_SERVICE_DAYS = 10  # § 303-14C


def number_notice_from(neglect_recorded_on: date) -> date:
    """§ 303-14C: the Village serves its notice after 20 days of neglect. The day the neglect is first recorded is
    excluded and the 20 days run through the 20th day after it (recorded May 1: they run through May 21), so the
    notice may be served from the day after (May 22); a 20th day on a Sunday or legal holiday moves to the next
    secular day (Wis. Stat. § 990.001(4), permits.time)."""
    return first_day_after(neglect_recorded_on, NEGLECT_DAYS)


def number_referral_from(served_on: date) -> date:
    """§ 303-14C: neglected for 10 days after service, the owner may be referred for a forfeiture (Chapter 1, § 1-5).
    Served May 22, the 10 days run through June 1; the referral may be made from June 2 (a 10th day on a Sunday or
    legal holiday moves to the next secular day: Wis. Stat. § 990.001(4))."""
    return first_day_after(served_on, AFTER_SERVICE_DAYS)


def number_notice_errors(neglect_recorded_on: date | None, served_on: date) -> list[Violation]:
    """§ 303-14C: no notice before the 20 days of neglect have run."""
    if neglect_recorded_on is None:
        return [
            Violation(
                "neglect_recorded_on",
                "no_neglect",
                "§ 303-14C",
                "Record the day the neglect was first seen (§ 303-14C).",
            )
        ]
    allowed = number_notice_from(neglect_recorded_on)
    if served_on < allowed:
        return [
            Violation(
                "served_at",
                "number_notice_too_early",
                "§ 303-14C",
                f"The notice may be served from {allowed:%B %-d, %Y}: the owner has 20 days from "
                f"{neglect_recorded_on:%B %-d, %Y} to number the building (§ 303-14C).",
            )
        ]
    return []


def number_referral_errors(served_on: date | None, referred_on: date) -> list[Violation]:
    """§ 303-14C: no forfeiture referral before the 10 days after service have run."""
    if served_on is None:
        return [
            Violation(
                "referred_on",
                "not_served",
                "§ 303-14C",
                "Serve the notice first: a referral follows 10 days after service (§ 303-14C).",
            )
        ]
    allowed = number_referral_from(served_on)
    if referred_on < allowed:
        return [
            Violation(
                "referred_on",
                "number_referral_too_early",
                "§ 303-14C",
                f"A forfeiture referral may be made from {allowed:%B %-d, %Y}: the owner has 10 days after the notice "
                f"served {served_on:%B %-d, %Y} (§ 303-14C; Chapter 1, § 1-5).",
            )
        ]
    return []


def referral_errors(deadline_at: datetime | None, at: datetime) -> list[Violation]:
    """Chapter 1, § 1-5: a case is referred for a forfeiture once the notice's deadline has passed unmet."""
    if deadline_at is None:
        return [
            Violation(
                "referred_on",
                "not_served",
                "§ 1-5",
                "Serve the written notice first; a referral follows its deadline (Chapter 1, § 1-5).",
            )
        ]
    if at < deadline_at:
        return [
            Violation(
                "referred_on",
                "referral_too_early",
                "§ 1-5",
                f"The notice gives until {deadline_at:%B %-d, %Y %-I:%M %p}: refer the case for a forfeiture after it "
                "(Chapter 1, § 1-5).",
            )
        ]
    return []


# --- § 303-6B(1), § 303-6B(3): a permit that excepts the obstruction -------------------------------------------

EXCEPTING_KINDS = {"street_privilege": "§ 303-6B(1)", "street_opening": "§ 303-6B(3)"}
PERMIT_IN_FORCE = frozenset({"issued", "active"})


def permit_exception_errors(
    *, permit_kind: str, permit_status: str, issued_on: date | None, expires_on: date | None, day: date, number: str
) -> list[Violation]:
    """§ 303-6B(1), § 303-6B(3): an obstruction is excepted by a street privilege permit (§ 303-7) or a street opening
    permit (§§ 303-4, 303-5) in force on the day it was seen: issued (or its work under way), from its issue day
    through its expiry day."""
    citation = EXCEPTING_KINDS.get(permit_kind)
    if citation is None:
        return [
            Violation(
                "excepting_permit",
                "not_excepting_kind",
                "§ 303-6B",
                f"Permit {number} is neither a street privilege permit (§ 303-6B(1)) nor a street opening permit "
                "(§ 303-6B(3)): it does not except an obstruction.",
            )
        ]
    in_period = issued_on is not None and issued_on <= day and (expires_on is None or day <= expires_on)
    if permit_status not in PERMIT_IN_FORCE or not in_period:
        return [
            Violation(
                "excepting_permit",
                "permit_not_in_force",
                citation,
                f"Permit {number} was not in force on {day:%B %-d, %Y}: it does not except the obstruction "
                f"({citation}).",
            )
        ]
    return []
