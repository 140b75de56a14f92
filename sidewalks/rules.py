"""Chapter 303 rules for sidewalks (§ 303-3) and Wis. Stat. § 66.0907: constants and pure functions.

Every function takes plain values (dates, Decimals, numbers, strings) and never reads the clock or the database.
Each returns either a plain answer or a list of `Violation`s; the form, the API serializer and the inspection
service call the same functions and show the messages, which cite their section, to the user.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from permits.board import rules as board_rules
from permits.errors import Violation
from permits.time import last_day


def _d(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


# --- Kinds of work, land use and materials (plain strings, shared with the models' TextChoices) -----------------

NEW, REPLACE, REPAIR = "new", "replace", "repair"
RESIDENTIAL, COMMERCIAL, INDUSTRIAL = "residential", "commercial", "industrial"
CONCRETE, BITUMINOUS = "concrete", "bituminous"


# --- § 303-3C: permit at least three days before the work ---------------------------------------------------------

PERMIT_LEAD_DAYS = 3  # § 303-3C


def earliest_work_date(obtained_on: date) -> date:
    """§ 303-3C: the first day work may start under a permit OBTAINED (issued) on `obtained_on`.

    "Has obtained a permit ... at least three days before work is proposed to be undertaken": the three days run from
    the day the Clerk-Treasurer issues the permit, not from the application. Read as three CALENDAR days (the section
    does not say business days, unlike § 182.0175's "working days"): issued on Monday, work may start on Thursday.
    """
    return obtained_on + timedelta(days=PERMIT_LEAD_DAYS)


def village_contract_errors(village_contract: bool) -> list[Violation]:
    """§ 303-3C: "unless he is under contract with the Village to do such work or has obtained a permit ... at least
    three days before": work under a Village contract needs no permit at all, and a permit always needs its three
    days. A contract is the Village's record, kept by the Clerk-Treasurer, not an applicant's statement: an
    application that claims one is told so instead of having its lead time waived."""
    if not village_contract:
        return []
    message = (
        "Work under contract with the Village needs no sidewalk permit, and a permit cannot waive the three days: "
        "if the Village contracted this work, ask the Clerk-Treasurer instead of applying (§ 303-3C)"
    )
    return [Violation("village_contract", "contract_needs_no_permit", "§ 303-3C", message)]


def check_lead_time(*, obtained_on: date, pour_date: date | None, village_contract: bool) -> list[Violation]:
    """§ 303-3C: the permit is obtained (issued) at least three days before the work. `village_contract` is kept for
    permits recorded before the contract became the clerk's record; no new application sets it
    (village_contract_errors). At application `obtained_on` is today (the earliest the permit could be issued); at
    issue it is the day of issue; a permit issued the day before the pour is refused."""
    if village_contract or pour_date is None:
        return []
    earliest = earliest_work_date(obtained_on)
    if pour_date >= earliest:
        return []
    return [
        Violation(
            "pour_date",
            "too_soon",
            "§ 303-3C",
            f"The permit must be obtained at least three days before the work (§ 303-3C): issued on "
            f"{obtained_on:%B %-d, %Y}, work may start on {earliest:%B %-d, %Y} at the earliest; the planned pour on "
            f"{pour_date:%B %-d, %Y} is too soon. Give a pour date on or after {earliest:%B %-d, %Y}.",
        )
    ]


def check_work_not_begun_early(
    *, issued_on: date | None, work_seen_on: date, village_contract: bool
) -> list[Violation]:
    """§ 303-3C: work found under way before the third day after the permit was issued (or before it was issued at
    all) was undertaken without a permit obtained three days ahead: the inspection fails and cites it."""
    if village_contract:
        return []
    if issued_on is None:
        return [
            Violation(
                None,
                "work_without_permit",
                "§ 303-3C",
                "Work is under way before the permit was issued: no person may do sidewalk work without a permit "
                "obtained at least three days before (§ 303-3C).",
            )
        ]
    earliest = earliest_work_date(issued_on)
    if work_seen_on >= earliest:
        return []
    return [
        Violation(
            None,
            "work_too_soon",
            "§ 303-3C",
            f"Work is under way on {work_seen_on:%B %-d, %Y}, but the permit issued on {issued_on:%B %-d, %Y} allows "
            f"work from {earliest:%B %-d, %Y} only (§ 303-3C: at least three days after it is obtained).",
        )
    ]


# --- § 303-3C: who files --------------------------------------------------------------------------------------------

OWNER, AGENT, VILLAGE_CONTRACTOR = "owner", "agent", "village_contractor"  # sidewalks.models.Standing


def check_standing(*, standing: str, owner_of_record: bool, accepted: bool, owner_name: str = "") -> list[Violation]:
    """§ 303-3C: "No person shall ... lay, remove, replace or repair any public sidewalk ... unless he is under
    contract with the Village to do such work or has obtained a permit". § 303-3B(1) puts the walk on the abutting
    owner, so the permit is the owner's: filed by the owner, the owner's agent, or the Village's contractor.

    Read as: the OWNER's standing holds when the filer's account is linked to the parcel (a link the Clerk-Treasurer
    approved against the tax roll's owner of record, permits/applicant/parcel_links.py). An AGENT's holds when the
    Clerk-Treasurer accepted the owner's written authorization uploaded with the application. The Village's
    CONTRACTOR's holds when the Clerk-Treasurer confirmed the contract in the Village's contract register (its
    number). `accepted` is the clerk's acceptance; a filing whose standing does not hold is never issued."""
    who = f" ({owner_name})" if owner_name else ""
    if standing == OWNER:
        if owner_of_record:
            return []
        message = (
            f"The permit is filed as the owner of record{who}, but the filer's account is not linked to the parcel: "
            "link it (Your parcels, with the tax bill) or file as the owner's agent with the owner's written "
            "authorization (§ 303-3C)."
        )
        return [Violation("standing", "not_owner_of_record", "§ 303-3C", message)]
    if standing == AGENT:
        if accepted:
            return []
        message = (
            f"An agent files with the written authorization of the owner of record{who}: upload it with the "
            "application; the Clerk-Treasurer accepts it before the permit is issued (§ 303-3C)."
        )
        return [Violation("standing", "authorization_not_accepted", "§ 303-3C", message)]
    if standing == VILLAGE_CONTRACTOR:
        if accepted:
            return []
        message = (
            "The Village's contractor files under a contract in the Village's register: the Clerk-Treasurer confirms "
            "the contract's number before the permit is issued (§ 303-3C)."
        )
        return [Violation("standing", "contract_not_confirmed", "§ 303-3C", message)]
    message = "Say on what footing you file: the owner, the owner's agent or the Village's contractor (§ 303-3C)."
    return [Violation("standing", "standing_unknown", "§ 303-3C", message)]


# --- § 303-3D(4): concrete ------------------------------------------------------------------------------------------

MIN_PSI_AT_28_DAYS = 3500  # § 303-3D(4)
MIN_SACKS_PER_CUBIC_YARD = Decimal("6")  # § 303-3D(4): six ninety-four-pound sacks of cement per cubic yard
SACK_POUNDS = 94  # § 303-3D(4)


def check_material(material: str) -> list[Violation]:
    """§ 303-3D(4): sidewalks are concrete; bituminous sidewalks are prohibited."""
    if material == CONCRETE:
        return []
    if material == BITUMINOUS:
        message = "Bituminous (asphalt) sidewalks are prohibited: build the walk of concrete (§ 303-3D(4))."
    else:
        message = "Sidewalks are built of concrete (§ 303-3D(4))."
    return [Violation("material", "not_concrete", "§ 303-3D(4)", message)]


def check_no_vault_or_cistern(vault_or_cistern: bool) -> list[Violation]:
    """§ 303-10: "All vaults and cisterns under sidewalks shall be prohibited." An application whose work shows a vault
    or cistern under the sidewalk is refused; the ordinance provides no waiver, so nothing (no Board motion, no
    designee) lifts it."""
    if not vault_or_cistern:
        return []
    return [
        Violation(
            "vault_or_cistern",
            "vault_or_cistern",
            "§ 303-10",
            "Vaults and cisterns under sidewalks are prohibited, with no waiver: remove the vault or cistern from the "
            "work (§ 303-10).",
        )
    ]


def check_concrete_mix(*, psi_at_28_days: int | None, sacks_per_cubic_yard) -> list[Violation]:
    """§ 303-3D(4): concrete tests at least 3,500 psi in 28 days, with at least six 94-pound sacks per cubic yard.

    A value left blank is not checked here (the application may not know the supplier's mix yet); the pour
    inspection asks for both.
    """
    errors = []
    if psi_at_28_days is not None and psi_at_28_days < MIN_PSI_AT_28_DAYS:
        errors.append(
            Violation(
                "concrete_psi",
                "weak_concrete",
                "§ 303-3D(4)",
                f"Concrete must test at least 3,500 psi in 28 days; {psi_at_28_days:,} psi is too weak (§ 303-3D(4)).",
            )
        )
    if sacks_per_cubic_yard is not None and _d(sacks_per_cubic_yard) < MIN_SACKS_PER_CUBIC_YARD:
        errors.append(
            Violation(
                "sacks_per_cubic_yard",
                "lean_mix",
                "§ 303-3D(4)",
                f"Use at least six 94-pound sacks of cement per cubic yard; {sacks_per_cubic_yard} is too few "
                "(§ 303-3D(4)).",
            )
        )
    return errors


# --- § 303-3D(8): width and thickness --------------------------------------------------------------------------------

RESIDENTIAL_WIDTH_FEET = Decimal("4")  # § 303-3D(8)(a)
RESIDENTIAL_THICKNESS_INCHES = Decimal("4")  # § 303-3D(8)(a)
RESIDENTIAL_DRIVEWAY_THICKNESS_INCHES = Decimal("6")  # § 303-3D(8)(a)
COMMERCIAL_WIDTH_FEET = Decimal("5")  # § 303-3D(8)(b)
COMMERCIAL_THICKNESS_INCHES = Decimal("5")  # § 303-3D(8)(b)
COMMERCIAL_DRIVEWAY_THICKNESS_INCHES = Decimal("7")  # § 303-3D(8)(b)

# § 303-3D(8)(c): "a three-fourths vote of the entire Board". A Wisconsin village board is the village president
# and the trustees (Wis. Stat. § 61.32). "Entire Board" means every seat, not the members present or voting, and
# vacant seats still count. The seat count is data: the Board's roster on the meeting date (permits.board), never a
# constant or a number typed per waiver. The arithmetic is the Board's (permits.board.rules).
votes_needed_for_three_fourths = board_rules.votes_needed_for_three_fourths
is_three_fourths_of_entire_board = board_rules.is_three_fourths_of_entire_board


def required_width_feet(*, land_use: str, work: str, existing_width_feet=None) -> Decimal:
    """§ 303-3D(8)(a) and (b): the least width the walk may have.

    Residential walks "shall be four feet in width": read as the required width, checked as a minimum (the section
    forbids nothing wider, and § 303-3D(11) lets the Board require more). The proviso lets a residential repair or
    replacement keep an existing narrower width, never narrower than the existing walk. Commercial and industrial
    walks are at least five feet; the proviso does not apply to them.
    """
    if land_use in (COMMERCIAL, INDUSTRIAL):
        return COMMERCIAL_WIDTH_FEET
    if work in (REPLACE, REPAIR) and existing_width_feet is not None:
        return min(RESIDENTIAL_WIDTH_FEET, _d(existing_width_feet))
    return RESIDENTIAL_WIDTH_FEET


def check_width_and_thickness(
    *,
    land_use: str,
    work: str,
    width_feet,
    thickness_inches,
    driveway_thickness_inches=None,
    existing_width_feet=None,
    waived: bool = False,
) -> list[Violation]:
    """§ 303-3D(8): width and thickness by land use, and the driveway-approach thickness.

    `waived` is a § 303-3D(8)(c) waiver (three-fourths of the entire Board). It covers what (c) names, the five feet
    of width and five inches of thickness of a commercial or industrial walk, not the seven inches across driveway
    approaches, and never a residential walk.
    """
    errors: list[Violation] = []
    commercial = land_use in (COMMERCIAL, INDUSTRIAL)
    if commercial:
        citation, what = "§ 303-3D(8)(b)", "commercial or industrial"
        min_thickness, min_driveway = COMMERCIAL_THICKNESS_INCHES, COMMERCIAL_DRIVEWAY_THICKNESS_INCHES
    else:
        citation, what = "§ 303-3D(8)(a)", "residential"
        min_thickness, min_driveway = RESIDENTIAL_THICKNESS_INCHES, RESIDENTIAL_DRIVEWAY_THICKNESS_INCHES
    if work in (REPLACE, REPAIR) and not commercial and existing_width_feet is None:
        errors.append(
            Violation(
                "existing_width_feet",
                "required",
                "§ 303-3D(8)(a)",
                "Give the width of the existing walk: a residential repair or replacement may keep it, but never be "
                "narrower (§ 303-3D(8)(a)).",
            )
        )
    min_width = required_width_feet(land_use=land_use, work=work, existing_width_feet=existing_width_feet)
    if width_feet is not None and _d(width_feet) < min_width and not (commercial and waived):
        if not commercial and min_width < RESIDENTIAL_WIDTH_FEET:
            message = (
                f"A repair or replacement may keep the existing width of {min_width} feet but not be narrower; "
                f"{width_feet} feet is too narrow (§ 303-3D(8)(a))."
            )
        else:
            message = (
                f"A {what} walk must be at least {min_width} feet wide; {width_feet} feet is too narrow ({citation})."
            )
        errors.append(Violation("width_feet", "too_narrow", citation, message))
    if thickness_inches is not None and _d(thickness_inches) < min_thickness and not (commercial and waived):
        errors.append(
            Violation(
                "thickness_inches",
                "too_thin",
                citation,
                f"A {what} walk must be at least {min_thickness} inches thick; {thickness_inches} inches is too thin "
                f"({citation}).",
            )
        )
    if driveway_thickness_inches is not None and _d(driveway_thickness_inches) < min_driveway:
        errors.append(
            Violation(
                "driveway_thickness_inches",
                "too_thin",
                citation,
                f"Across driveway approaches a {what} walk must be at least {min_driveway} inches thick; "
                f"{driveway_thickness_inches} inches is too thin ({citation}).",
            )
        )
    return errors


# --- § 303-3D(2), (3), (5), (6), (7): grading, subgrade, forms, joints, slope ----------------------------------------

MAX_GRADING_INCHES_FROM_SUBGRADE = Decimal("3")  # § 303-3D(2)
MIN_SUBGRADE_INCHES = Decimal("3")  # § 303-3D(3)
SUBGRADE_MATERIALS = ("sand", "gravel", "crushed_concrete")  # § 303-3D(3)
MIN_WOOD_FORM_INCHES = Decimal("1.5")  # § 303-3D(5)
MAX_EXPANSION_JOINT_SPACING_FEET = Decimal("40")  # § 303-3D(6)
GROOVE_JOINT_SPACING_FEET = Decimal("5")  # § 303-3D(6): "approximately five feet"
GROOVE_JOINT_TOLERANCE_FEET = Decimal("1")  # our reading of "approximately": 4 to 6 feet
MIN_SLOPE_INCHES_PER_FOOT = Decimal("0.25")  # § 303-3D(7)


def check_grading(inches_from_subgrade) -> list[Violation]:
    """§ 303-3D(2): before construction the ground is brought to within three inches of subgrade."""
    if _d(inches_from_subgrade) <= MAX_GRADING_INCHES_FROM_SUBGRADE:
        return []
    return [
        Violation(
            "grading_inches",
            "grading",
            "§ 303-3D(2)",
            f"Bring the ground to within three inches of subgrade; it is {inches_from_subgrade} inches off "
            "(§ 303-3D(2)).",
        )
    ]


def check_subgrade(*, depth_inches, material: str) -> list[Violation]:
    """§ 303-3D(3): the subgrade is three inches of sand, gravel or crushed concrete fill."""
    errors = []
    if _d(depth_inches) < MIN_SUBGRADE_INCHES:
        errors.append(
            Violation(
                "subgrade_inches",
                "thin_subgrade",
                "§ 303-3D(3)",
                f"The subgrade must be three inches deep; {depth_inches} inches is too little (§ 303-3D(3)).",
            )
        )
    if material not in SUBGRADE_MATERIALS:
        errors.append(
            Violation(
                "subgrade_material",
                "subgrade_material",
                "§ 303-3D(3)",
                "The subgrade must be sand, gravel or crushed concrete fill (§ 303-3D(3)).",
            )
        )
    return errors


def check_forms(
    *, material: str, thickness_inches=None, depth_inches=None, walk_thickness_inches=None, metal_approved: bool = False
) -> list[Violation]:
    """§ 303-3D(5): wood forms of surfaced plank at least 1 1/2 inches thick, or metal of approved section, of the
    full depth of the walk."""
    errors = []
    if material == "wood" and (thickness_inches is None or _d(thickness_inches) < MIN_WOOD_FORM_INCHES):
        errors.append(
            Violation(
                "form_thickness_inches",
                "thin_forms",
                "§ 303-3D(5)",
                "Wood forms must be surfaced plank at least 1 1/2 inches thick (§ 303-3D(5)).",
            )
        )
    elif material == "metal" and not metal_approved:
        errors.append(
            Violation(
                "form_material",
                "metal_not_approved",
                "§ 303-3D(5)",
                "Metal forms must be of approved section (§ 303-3D(5)).",
            )
        )
    elif material not in ("wood", "metal"):
        errors.append(Violation("form_material", "forms", "§ 303-3D(5)", "Forms must be wood or metal (§ 303-3D(5))."))
    if depth_inches is not None and walk_thickness_inches is not None and _d(depth_inches) < _d(walk_thickness_inches):
        errors.append(
            Violation(
                "form_depth_inches",
                "shallow_forms",
                "§ 303-3D(5)",
                f"Forms must be the full depth of the walk ({walk_thickness_inches} inches); {depth_inches} inches is "
                "not (§ 303-3D(5)).",
            )
        )
    return errors


def check_joints(
    *, expansion_spacing_feet, at_property_lines: bool, groove_spacing_feet=None, sawn: bool = False
) -> list[Violation]:
    """§ 303-3D(6): expansion joints at most every 40 feet and at the property line; groove joints about every five
    feet ("approximately" read as 4 to 6 feet); sawing joints is prohibited."""
    errors = []
    if _d(expansion_spacing_feet) > MAX_EXPANSION_JOINT_SPACING_FEET:
        errors.append(
            Violation(
                "expansion_spacing_feet",
                "joint_spacing",
                "§ 303-3D(6)",
                f"Expansion joints go at least every 40 feet; {expansion_spacing_feet} feet apart is too far "
                "(§ 303-3D(6)).",
            )
        )
    if not at_property_lines:
        errors.append(
            Violation(
                "expansion_at_property_lines",
                "joint_property_line",
                "§ 303-3D(6)",
                "An expansion joint is required at each property line (§ 303-3D(6)).",
            )
        )
    if (
        groove_spacing_feet is not None
        and abs(_d(groove_spacing_feet) - GROOVE_JOINT_SPACING_FEET) > GROOVE_JOINT_TOLERANCE_FEET
    ):
        errors.append(
            Violation(
                "groove_spacing_feet",
                "groove_spacing",
                "§ 303-3D(6)",
                f"Groove joints go approximately every five feet; {groove_spacing_feet} feet is not (§ 303-3D(6)).",
            )
        )
    if sawn:
        errors.append(
            Violation("sawn_joints", "sawn_joints", "§ 303-3D(6)", "Sawing of joints is prohibited (§ 303-3D(6)).")
        )
    return errors


def check_subgrade_prepared(*, compacted, moistened) -> list[Violation]:
    """§ 303-3D(3): "the subgrade shall be thoroughly and uniformly compacted and moistened immediately before the
    concrete is placed": asked at the pour; an answer of no, or none, fails."""
    errors = []
    if compacted is not True:
        message = (
            "The subgrade must be thoroughly and uniformly compacted immediately before the concrete is placed "
            "(§ 303-3D(3))."
        )
        errors.append(Violation("subgrade_compacted", "not_compacted", "§ 303-3D(3)", message))
    if moistened is not True:
        message = "The subgrade must be moistened immediately before the concrete is placed (§ 303-3D(3))."
        errors.append(Violation("subgrade_moistened", "not_moistened", "§ 303-3D(3)", message))
    return errors


MEETING_JOINTS_PLACED, MEETING_JOINTS_MISSING, MEETING_JOINTS_NONE_MET = "placed", "missing", "none_met"


def check_joint_placement(*, meeting_joints: str, diagonal, diagonal_approved: bool) -> list[Violation]:
    """§ 303-3D(6): expansion joints "where the walk intersects another walk, curbline, building or driveway
    approach"; "all joints shall be at right angles ... Diagonal joints may be used only when approved by the Village
    Board". `meeting_joints` is the inspector's answer: placed at each, missing at one, or the walk meets none.
    `diagonal_approved` is a Board approval recorded for this permit (a carried motion), never a box ticked here."""
    errors = []
    if meeting_joints not in (MEETING_JOINTS_PLACED, MEETING_JOINTS_NONE_MET):
        message = (
            "An expansion joint is required where the walk meets another walk, a curb, a building or a driveway "
            "approach (§ 303-3D(6))."
        )
        errors.append(Violation("meeting_joints", "joint_where_walk_meets", "§ 303-3D(6)", message))
    if diagonal is None:
        message = "Say whether diagonal joints were used (§ 303-3D(6))."
        errors.append(Violation("diagonal_joints", "required", "§ 303-3D(6)", message))
    elif diagonal and not diagonal_approved:
        message = (
            "Joints are at right angles to the walk: diagonal joints may be used only when the Village Board approved "
            "them for this permit, and it has not (§ 303-3D(6))."
        )
        errors.append(Violation("diagonal_joints", "diagonal_not_approved", "§ 303-3D(6)", message))
    return errors


MIN_STRIP_INCHES = Decimal("6")  # § 303-3D(7)


def check_strip(strip_inches) -> list[Violation]:
    """§ 303-3D(7): "unless otherwise specifically indicated, there shall be a six-inch strip of street property left
    between the property line and the edge of the sidewalk". Read as at least six inches (the walk stays within the
    street's limits; more strip is still within them): 6 passes, 5.9 fails, an unmeasured strip fails."""
    if strip_inches is None:
        message = "Measure the strip between the property line and the edge of the walk (§ 303-3D(7))."
        return [Violation("strip_inches", "required", "§ 303-3D(7)", message)]
    if _d(strip_inches) >= MIN_STRIP_INCHES:
        return []
    message = (
        f"A six-inch strip of street property is left between the property line and the edge of the walk; "
        f"{strip_inches} inches is too little (§ 303-3D(7))."
    )
    return [Violation("strip_inches", "strip_too_narrow", "§ 303-3D(7)", message)]


def min_cross_fall_inches(width_feet) -> Decimal:
    """§ 303-3D(7): the least fall toward the curb across a walk `width_feet` wide (1/4 inch per foot of width)."""
    return MIN_SLOPE_INCHES_PER_FOOT * _d(width_feet)


def check_slope(inches_per_foot) -> list[Violation]:
    """§ 303-3D(7): the walk slopes toward the curb at least 1/4 inch per foot of width."""
    if _d(inches_per_foot) >= MIN_SLOPE_INCHES_PER_FOOT:
        return []
    return [
        Violation(
            "slope_inches_per_foot",
            "flat",
            "§ 303-3D(7)",
            f"The walk must slope toward the curb at least 1/4 inch per foot of width; {inches_per_foot} inch per foot "
            "is too flat (§ 303-3D(7)).",
        )
    ]


# --- § 303-3D(9): weather and traffic, § 303-3D(10): curing ---------------------------------------------------------

MIN_POUR_TEMPERATURE_F = Decimal("35")  # § 303-3D(9): not poured when it may fall below 35 °F within 72 hours
POUR_FORECAST_HOURS = 72  # § 303-3D(9)
COLD_WEATHER_F = Decimal("50")  # § 303-3D(9): "cold weather [below 50° F.]"
TRAFFIC_FREE_HOURS = 48  # § 303-3D(9): at normal temperatures
TRAFFIC_FREE_HOURS_COLD = 96  # § 303-3D(9): below 50 °F
CURING_METHODS = ("impervious_coating", "wet_fabric", "paper")  # § 303-3D(10)


def check_pour_weather(*, forecast_low_f, subgrade_frozen: bool, emergency_waiver: bool = False) -> list[Violation]:
    """§ 303-3D(9): no concrete is poured when the temperature may fall below 35 °F in any 72-hour period, or on
    frozen subgrade, unless the Village Board waived it for an emergency replacement. `forecast_low_f` is the lowest
    temperature forecast for the 72 hours from the pour; exactly 35 °F is not "below 35"."""
    if emergency_waiver:
        return []
    errors = []
    if forecast_low_f is not None and _d(forecast_low_f) < MIN_POUR_TEMPERATURE_F:
        errors.append(
            Violation(
                "forecast_low_f",
                "too_cold",
                "§ 303-3D(9)",
                f"No concrete may be poured when the temperature may fall below 35 °F within 72 hours; the forecast "
                f"low is {forecast_low_f} °F (§ 303-3D(9)).",
            )
        )
    if subgrade_frozen:
        errors.append(
            Violation(
                "subgrade_frozen",
                "frozen_subgrade",
                "§ 303-3D(9)",
                "No concrete may be poured on frozen subgrade (§ 303-3D(9)).",
            )
        )
    return errors


def cold_weather_waiver_errors(*, permit_given: bool, emergency: str, ends_on, adopted_on) -> list[Violation]:
    """§ 303-3D(9): "The Village Board may choose to waive the thirty-five-degree or frozen subgrade regulation upon
    emergency replacement situation." Read as one waiver for one emergency on one permit, with an end: it names the
    emergency, the permit, and the last day it excuses a pour (on or after its adoption)."""
    errors = []
    if not permit_given:
        message = "A cold-weather waiver is for one sidewalk permit: name it (§ 303-3D(9))."
        errors.append(Violation("permit", "permit_required", "§ 303-3D(9)", message))
    if not (emergency or "").strip():
        message = "Describe the emergency replacement the cold-weather waiver is for (§ 303-3D(9))."
        errors.append(Violation("emergency", "emergency_required", "§ 303-3D(9)", message))
    if ends_on is None:
        message = "Give the last day the cold-weather waiver excuses a pour (§ 303-3D(9))."
        errors.append(Violation("ends_on", "end_required", "§ 303-3D(9)", message))
    elif adopted_on is not None and ends_on < adopted_on:
        message = f"The waiver cannot end before it was adopted on {adopted_on:%B %-d, %Y} (§ 303-3D(9))."
        errors.append(Violation("ends_on", "ends_before_adopted", "§ 303-3D(9)", message))
    return errors


def cold_weather_waiver_in_force(*, adopted_on: date, ends_on: date | None, on: date) -> bool:
    """§ 303-3D(9): a cold-weather waiver excuses a pour from the day it was adopted through its last day; one with no
    end (recorded before the end was asked) excuses nothing."""
    return ends_on is not None and adopted_on <= on <= ends_on


def traffic_free_hours(temperature_f) -> int:
    """§ 303-3D(9): hours the new walk is kept free of all traffic: 48, or 96 in cold weather (below 50 °F)."""
    return TRAFFIC_FREE_HOURS_COLD if _d(temperature_f) < COLD_WEATHER_F else TRAFFIC_FREE_HOURS


def traffic_free_until(poured_at: datetime, temperature_f) -> datetime:
    """§ 303-3D(9): when traffic may return to a walk finished at `poured_at`."""
    return poured_at + timedelta(hours=traffic_free_hours(temperature_f))


def check_curing(method: str) -> list[Violation]:
    """§ 303-3D(10): curing by the impervious coating, wet fabric or paper methods; failing to cure is cause to
    suspend the work."""
    if method in CURING_METHODS:
        return []
    return [
        Violation(
            "curing_method",
            "not_cured",
            "§ 303-3D(10)",
            "The concrete must be cured by impervious coating, wet fabric or paper; failure to cure is cause to "
            "suspend the work (§ 303-3D(10)).",
        )
    ]


# --- The application as a whole ---------------------------------------------------------------------------------------


def check_application(
    *,
    applied_on: date,
    land_use: str,
    work: str,
    width_feet,
    thickness_inches,
    driveway_thickness_inches=None,
    existing_width_feet=None,
    material: str = CONCRETE,
    pour_date: date | None = None,
    village_contract: bool = False,
    concrete_psi: int | None = None,
    sacks_per_cubic_yard=None,
    width_waived: bool = False,
    vault_or_cistern: bool = False,
) -> list[Violation]:
    """Every § 303-3 rule an application can break, all at once (§ 303-3C, § 303-3D(4), § 303-3D(8)), and § 303-10."""
    return [
        # § 303-3C: the permit cannot be obtained before today, so a pour sooner than three days out is refused now;
        # the same rule is asked again, from the day of issue, when the Clerk-Treasurer issues it (workflow.blockers).
        *village_contract_errors(village_contract),
        *check_lead_time(obtained_on=applied_on, pour_date=pour_date, village_contract=False),
        *check_material(material),
        *check_concrete_mix(psi_at_28_days=concrete_psi, sacks_per_cubic_yard=sacks_per_cubic_yard),
        *check_width_and_thickness(
            land_use=land_use,
            work=work,
            width_feet=width_feet,
            thickness_inches=thickness_inches,
            driveway_thickness_inches=driveway_thickness_inches,
            existing_width_feet=existing_width_feet,
            waived=width_waived,
        ),
        *check_no_vault_or_cistern(vault_or_cistern),
    ]


# --- § 303-3E: defective sidewalks ------------------------------------------------------------------------------------

DEFECT_VERTICAL_INCHES = Decimal("0.75")  # § 303-3E(1)(a)
DEFECT_HORIZONTAL_INCHES = Decimal("1.25")  # § 303-3E(1)(b)
DEFECT_DETERIORATION_INCHES = Decimal("0.5")  # § 303-3E(1)(c)
REPLACE_ALL_SHARE = Decimal("0.80")  # § 303-3E(2)


def block_defects(*, vertical_inches=0, horizontal_inches=0, deterioration_inches=0) -> list[str]:
    """§ 303-3E(1): which characteristics make a sidewalk block defective (empty when it is sound).

    (a) 3/4 inch or more of vertical differential to the adjacent block, (b) 1 1/4 inches or more of horizontal gap
    (the text says "one-and-one-fourth-inch horizontal distance": read, like (a) and (c), as that much or more),
    (c) 1/2 inch or more of surface deterioration.
    """
    found = []
    if _d(vertical_inches or 0) >= DEFECT_VERTICAL_INCHES:
        found.append("§ 303-3E(1)(a): vertical differential of 3/4 inch or more")
    if _d(horizontal_inches or 0) >= DEFECT_HORIZONTAL_INCHES:
        found.append("§ 303-3E(1)(b): horizontal gap of 1 1/4 inches or more")
    if _d(deterioration_inches or 0) >= DEFECT_DETERIORATION_INCHES:
        found.append("§ 303-3E(1)(c): surface deterioration of 1/2 inch or more")
    return found


def is_defective_block(*, vertical_inches=0, horizontal_inches=0, deterioration_inches=0) -> bool:
    """§ 303-3E(1): a block is defective when any one of the three characteristics is present."""
    return bool(
        block_defects(
            vertical_inches=vertical_inches,
            horizontal_inches=horizontal_inches,
            deterioration_inches=deterioration_inches,
        )
    )


def must_replace_entire_sidewalk(*, defective_blocks: int, total_blocks: int) -> bool:
    """§ 303-3E(2): when 80% (or more) of an owner's blocks are defective, the entire sidewalk is replaced.

    Compared in integers (defective x 5 >= total x 4) so that exactly 80% is never lost to rounding.
    """
    return total_blocks > 0 and defective_blocks * 5 >= total_blocks * 4


def proposed_work(*, defective_blocks: int, total_blocks: int) -> str | None:
    """§ 303-3E: what a survey proposes for one owner's walk: nothing, a repair of the defective blocks, or replacing
    the whole walk."""
    if defective_blocks <= 0:
        return None
    if must_replace_entire_sidewalk(defective_blocks=defective_blocks, total_blocks=total_blocks):
        return REPLACE
    return REPAIR


def check_existing_sidewalk(
    *,
    land_use: str,
    width_feet,
    thickness_inches,
    material: str,
    driveway_thickness_inches=None,
    waived: bool = False,
    predates_section: bool = False,
) -> list[Violation]:
    """§ 303-3F: the § 303-3D(4) and (8) standards an existing walk, as measured, fails to meet. A residential walk
    that existed when the section took effect (`predates_section`, recorded by the official) is lawfully as narrow
    as it is: § 303-3D(8)(a) lets it be repaired or replaced at that width, so its width is no ground to call it
    illegal (its thickness and material still are)."""
    kept_width = predates_section and land_use not in (COMMERCIAL, INDUSTRIAL)
    return [
        *check_material(material),
        *check_width_and_thickness(
            land_use=land_use,
            work=REPLACE if kept_width else NEW,
            existing_width_feet=width_feet if kept_width else None,
            width_feet=width_feet,
            thickness_inches=thickness_inches,
            driveway_thickness_inches=driveway_thickness_inches,
            waived=waived,
        ),
    ]


def is_legal_sidewalk(violations: list[Violation]) -> bool:
    """§ 303-3F: a sidewalk built contrary to § 303-3 is not a legal sidewalk, and may be ordered replaced with one
    that conforms, as if no sidewalk had been built."""
    return not violations


# --- § 303-3B: who pays ---------------------------------------------------------------------------------------------

OWNER_SHARE = Decimal("1.00")  # § 303-3B(1), (2): the abutting owner pays 100%
HIGHLAND_THERESA_OWNER_SHARE = Decimal("0.50")  # § 303-3B(2): the named, already budgeted project only


def owner_share(*, highland_theresa_project: bool) -> Decimal:
    """§ 303-3B(2): the owner's share of the cost. 100%, except the 50% Village share on the Highland Avenue and
    Theresa Lane project the section names. That project is a recorded fact about an order (the clerk ticks it),
    never inferred from the street name: later work on those streets is 100% the owner's."""
    return HIGHLAND_THERESA_OWNER_SHARE if highland_theresa_project else OWNER_SHARE


def owner_cost(total_cost, *, highland_theresa_project: bool) -> Decimal:
    """§ 303-3B(1), (2): the amount charged to the owner, rounded to the cent."""
    return (_d(total_cost) * owner_share(highland_theresa_project=highland_theresa_project)).quantize(Decimal("0.01"))


def estimated_cost(*, quantity, unit_price) -> Decimal:
    """An order's estimate: quantity (square feet or blocks) times the unit price in the fee schedule."""
    return (_d(quantity) * _d(unit_price)).quantize(Decimal("0.01"))


# --- Wis. Stat. § 66.0907 (named by § 303-3B(3)): minor repairs made at once ----------------------------------------

MINOR_REPAIR_CITE = "§ 303-3B(3); Wis. Stat. § 66.0907"


def minor_repair_errors(
    *, cost: Decimal, limit: Decimal | None, done_on: date, today: date, description: str
) -> list[Violation]:
    """§ 303-3B(3), Wis. Stat. § 66.0907: where the Board has so required, a repair of the sidewalk in front of a
    parcel costing no more than the Board's limit may be made at once, without the order and its notice, and
    charged to the owner. `limit` is the limit in force on the day of the work (None: the Board has not authorised
    minor repairs then). A repair costing the limit itself is minor; a cent more needs the Board's order."""
    errors = []
    if limit is None:
        message = (
            "The Board has not authorised minor repairs on that day: the work needs the Board's order "
            f"({MINOR_REPAIR_CITE})."
        )
        errors.append(Violation("done_on", "no_authority", MINOR_REPAIR_CITE, message))
    if cost <= 0:
        errors.append(Violation("cost", "not_positive", MINOR_REPAIR_CITE, "The cost must be more than $0.00."))
    elif limit is not None and cost > limit:
        message = (
            f"${cost:,.2f} is more than the ${limit:,.2f} a minor repair may cost: the work needs the Board's order, "
            f"served on the owner ({MINOR_REPAIR_CITE})."
        )
        errors.append(Violation("cost", "over_limit", MINOR_REPAIR_CITE, message))
    if done_on > today:
        message = "Record a minor repair once it is made: the date cannot be in the future."
        errors.append(Violation("done_on", "future", MINOR_REPAIR_CITE, message))
    if not description.strip():
        message = f"Say what was repaired: the owner's notice and the bill say it ({MINOR_REPAIR_CITE})."
        errors.append(Violation("description", "required", MINOR_REPAIR_CITE, message))
    return errors


# --- Wis. Stat. § 66.0907 (named by § 303-3B(3)): Board orders, service, the owner's period --------------------------

OWNER_WORK_PERIOD_DAYS = 20  # Wis. Stat. § 66.0907(3)(b): "within 20 days after service" (verify the current text)
SERVICE_METHODS = ("personal", "certified_mail", "registered_mail", "publication_and_mail")  # § 66.0907(3)(b)


def owner_deadline(served_on: date, period_days: int = OWNER_WORK_PERIOD_DAYS) -> date:
    """Wis. Stat. § 66.0907: the last day the owner may do the ordered work: `period_days` days after service.

    Counted as Wis. Stat. § 990.001(4) counts days (permits.time): from the day after service (day 1), so the last
    day is service + 20, moved to the next secular day when it is a Sunday or legal holiday (the Village may then
    start on the day after that, not on the Monday the owner still has).
    """
    return last_day(served_on, period_days)


def village_may_do_work(*, served_on: date | None, today: date, period_days: int = OWNER_WORK_PERIOD_DAYS) -> bool:
    """Wis. Stat. § 66.0907, § 303-3B(3): the Village may do the work only after the owner's period has run out."""
    return served_on is not None and today > owner_deadline(served_on, period_days)


def check_service(*, method: str, served_on: date | None, proof: str) -> list[Violation]:
    """Wis. Stat. § 66.0907: a copy of the resolution is served on each owner by personal delivery, certified or
    registered mail, or publication and first-class mail; the method, date and proof are recorded."""
    errors = []
    if method not in SERVICE_METHODS:
        errors.append(
            Violation(
                "service_method",
                "service_method",
                "Wis. Stat. § 66.0907",
                "Serve the order by personal delivery, certified or registered mail, or publication and first-class "
                "mail (Wis. Stat. § 66.0907).",
            )
        )
    if served_on is None:
        errors.append(
            Violation(
                "served_on", "required", "Wis. Stat. § 66.0907", "Record the date of service (Wis. Stat. § 66.0907)."
            )
        )
    if not (proof or "").strip():
        errors.append(
            Violation(
                "service_proof",
                "required",
                "Wis. Stat. § 66.0907",
                "Record the proof of service: affidavit, mail receipt number or publication (Wis. Stat. § 66.0907).",
            )
        )
    return errors
