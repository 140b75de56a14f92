"""Chapter 303 rules for the field half of a street opening: backfill, compaction, pavement, trench limits, the
notices the permittee gives, pavement deadlines, the one-year guarantee, defect notices and Village repairs.

Each rule is pure: plain values, Decimals, dates and aware datetimes in, no clock, no database. Each docstring
begins with its section and every message the user sees cites it. Rules that check input return a list of
Violation (empty when the work passes), so a form or the API can show every broken rule at once.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from permits.business_days import is_business_day, shift
from permits.errors import Violation
from permits.street_opening.rules import in_frozen_ground_season, revocation_ends

CENT = Decimal("0.01")


def _d(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


# --- § 303-5E(1): backfill material -----------------------------------------------------------------------------

MAX_BACKFILL_STONE_INCHES = Decimal("8")  # § 303-5E(1)
UNSUITABLE_BACKFILL = {  # § 303-5E(1): what backfill must be free from (field name: what the inspector saw)
    "cinders_or_ashes": "cinders or ashes",
    "refuse": "refuse",
    "organic_matter": "vegetable or organic matter",
    "frozen_lumps": "frozen lumps",
}


def backfill_violations(*, largest_stone_inches, found: set[str] | frozenset[str] = frozenset()) -> list[Violation]:
    """§ 303-5E(1): backfill free from cinders, ashes, refuse, organic matter, frozen lumps and stones over 8 inches.

    "Greater than eight inches in their greatest dimension" is what is forbidden, so an 8-inch stone passes.
    `found` holds the keys of UNSUITABLE_BACKFILL the inspector saw in the material.
    """
    errors = []
    if _d(largest_stone_inches) > MAX_BACKFILL_STONE_INCHES:
        errors.append(
            Violation(
                "largest_stone_inches",
                "stone_too_large",
                "§ 303-5E(1)",
                f"Backfill has a stone of {largest_stone_inches} inches: no stone may be greater than 8 inches in its "
                "greatest dimension (§ 303-5E(1)).",
            )
        )
    for key, label in UNSUITABLE_BACKFILL.items():
        if key in found:
            errors.append(
                Violation(
                    key,
                    f"backfill_{key}",
                    "§ 303-5E(1)",
                    f"Backfill contains {label}: it must be free of cinders, ashes, refuse, organic matter and frozen "
                    "lumps (§ 303-5E(1)).",
                )
            )
    return errors


# --- § 303-5E(4) and (5): compaction ----------------------------------------------------------------------------

MAX_LIFT_INCHES = Decimal("12")  # § 303-5E(4)
MIN_COMPACTION_PERCENT = Decimal("95")  # § 303-5E(4): of the Modified Proctor maximum dry density (ASTM D1557)
RETEST_FEE_CODE = "backfill_retest"  # § 303-5E(5): the cost of any retesting is paid by the permittee


def compaction_violations(
    *, lift_inches, percent_of_proctor, mechanical: bool = True, flooded: bool = False
) -> list[Violation]:
    """§ 303-5E(4): mechanical compaction, lifts of at most 12 inches, each to at least 95% of the Modified Proctor
    maximum dry density; compaction by flooding is not permitted.

    The percentage is compared exactly as the gauge reports it (no rounding): 94.9 fails and 95.0 passes.
    """
    errors = []
    if _d(lift_inches) > MAX_LIFT_INCHES:
        errors.append(
            Violation(
                "lift_inches",
                "lift_too_thick",
                "§ 303-5E(4)",
                f"A lift of {lift_inches} inches is too thick: each layer may be at most 12 inches (§ 303-5E(4)).",
            )
        )
    if _d(percent_of_proctor) < MIN_COMPACTION_PERCENT:
        errors.append(
            Violation(
                "compaction_percent",
                "under_compacted",
                "§ 303-5E(4)",
                f"Compaction of {percent_of_proctor}% is below the required 95% of the Modified Proctor maximum dry "
                "density (§ 303-5E(4)). Recompact and retest at the permittee's cost (§ 303-5E(5)).",
            )
        )
    if not mechanical:
        errors.append(
            Violation(
                "mechanical",
                "not_mechanical",
                "§ 303-5E(4)",
                "Trench backfill must be compacted mechanically (§ 303-5E(4)).",
            )
        )
    if flooded:
        errors.append(
            Violation(
                "flooded",
                "flooded",
                "§ 303-5E(4)",
                "Compaction or consolidation by flooding is not permitted (§ 303-5E(4)).",
            )
        )
    return errors


def retest_is_charged(*, kind: str, passed: bool) -> bool:
    """§ 303-5E(5): backfill that fails the compaction test is removed and recompacted, and the permittee pays for
    the retest. We charge the retest fee when the failing test is logged, since a retest must follow it."""
    return kind == "compaction" and not passed


def compaction_failure_open(results: list[tuple[datetime, bool]]) -> bool:
    """§ 303-5E(5): the permit stays open while its latest compaction test (by time) failed."""
    if not results:
        return False
    return not max(results, key=lambda r: r[0])[1]


# --- § 303-5G(1): stone base ------------------------------------------------------------------------------------

STONE_BASE_INCHES = Decimal("4")  # § 303-5G(1): 4 in of 3-inch crushed stone, then 4 in of 3/4-inch crushed stone


def stone_base_violations(*, three_inch_stone_inches, three_quarter_stone_inches) -> list[Violation]:
    """§ 303-5G(1): below the pavement, four inches of three-inch crushed stone and four inches of 3/4-inch stone."""
    errors = []
    if _d(three_inch_stone_inches) < STONE_BASE_INCHES:
        errors.append(
            Violation(
                "three_inch_stone_inches",
                "stone_base_thin",
                "§ 303-5G(1)",
                f"The 3-inch crushed stone layer is {three_inch_stone_inches} inches: at least 4 inches are required "
                "(§ 303-5G(1)).",
            )
        )
    if _d(three_quarter_stone_inches) < STONE_BASE_INCHES:
        errors.append(
            Violation(
                "three_quarter_stone_inches",
                "stone_top_thin",
                "§ 303-5G(1)",
                f"The 3/4-inch crushed stone layer is {three_quarter_stone_inches} inches: at least 4 inches are "
                "required (§ 303-5G(1)).",
            )
        )
    return errors


# --- § 303-5G(2): bituminous pavement ---------------------------------------------------------------------------

MIN_BITUMINOUS_INCHES = Decimal("2.5")  # § 303-5G(2)
MAX_BITUMINOUS_BASE_LAYER_INCHES = Decimal("1.5")  # § 303-5G(2)
MAX_BITUMINOUS_TOP_LAYER_INCHES = Decimal("1")  # § 303-5G(2)
MAX_STRAIGHTEDGE_DEVIATION_INCHES = Decimal("0.25")  # § 303-5G(2): measured with a ten-foot straightedge


def required_bituminous_inches(existing_inches) -> Decimal:
    """§ 303-5G(2): the full depth of the existing pavement or 2 1/2 inches, whichever is greater."""
    return max(_d(existing_inches or 0), MIN_BITUMINOUS_INCHES)


def straightedge_violations(*, deviation_inches) -> list[Violation]:
    """§ 303-5G(2): no more than 1/4 inch of deviation under a ten-foot straightedge (0.25 passes, 0.26 fails)."""
    if _d(deviation_inches) > MAX_STRAIGHTEDGE_DEVIATION_INCHES:
        return [
            Violation(
                "straightedge_deviation_inches",
                "surface_uneven",
                "§ 303-5G(2)",
                f"The surface deviates {deviation_inches} inch under a 10-foot straightedge: at most 1/4 inch is "
                "allowed "
                "(§ 303-5G(2)).",
            )
        ]
    return []


def bituminous_violations(
    *, existing_inches, depth_inches, thickest_base_layer_inches, top_layer_inches, straightedge_deviation_inches
) -> list[Violation]:
    """§ 303-5G(2): depth at least the existing depth or 2 1/2 inches; laid in base layers of at most 1 1/2 inches
    and a top layer of at most 1 inch; within 1/4 inch under a ten-foot straightedge.

    "A maximum of a one-and-one-half-inch base layer and a one-inch top layer" is read as maximum thicknesses of
    each compacted layer: at the 2 1/2-inch minimum that is exactly one 1 1/2-inch base and one 1-inch top, and a
    deeper existing pavement is matched with more base layers, none thicker than 1 1/2 inches.
    """
    errors = []
    required = required_bituminous_inches(existing_inches)
    if _d(depth_inches) < required:
        errors.append(
            Violation(
                "depth_inches",
                "bituminous_too_thin",
                "§ 303-5G(2)",
                f"Bituminous pavement of {depth_inches} inches is too thin: at least {required} inches (the existing "
                "depth or 2 1/2 inches, whichever is greater) are required (§ 303-5G(2)).",
            )
        )
    if _d(thickest_base_layer_inches) > MAX_BITUMINOUS_BASE_LAYER_INCHES:
        errors.append(
            Violation(
                "base_layer_inches",
                "base_layer_too_thick",
                "§ 303-5G(2)",
                f"A base layer of {thickest_base_layer_inches} inches is too thick: at most 1 1/2 inches per layer "
                "(§ 303-5G(2)).",
            )
        )
    if _d(top_layer_inches) > MAX_BITUMINOUS_TOP_LAYER_INCHES:
        errors.append(
            Violation(
                "top_layer_inches",
                "top_layer_too_thick",
                "§ 303-5G(2)",
                f"A top layer of {top_layer_inches} inches is too thick: at most 1 inch (§ 303-5G(2)).",
            )
        )
    return errors + straightedge_violations(deviation_inches=straightedge_deviation_inches)


# --- § 303-5G(3): concrete pavement -----------------------------------------------------------------------------

MIN_CONCRETE_INCHES = Decimal("7")  # § 303-5G(3)
CONCRETE_TRAFFIC_PROTECTION = timedelta(days=3)  # § 303-5G(3)


def required_concrete_inches(existing_inches) -> Decimal:
    """§ 303-5G(3): the full depth of the existing pavement or seven inches, whichever is greater."""
    return max(_d(existing_inches or 0), MIN_CONCRETE_INCHES)


def concrete_open_to_traffic_on(poured_on: date) -> date:
    """§ 303-5G(3): protected from traffic for a minimum of three days: poured on the 1st, open on the 4th."""
    return shift(poured_on, CONCRETE_TRAFFIC_PROTECTION.days)


def concrete_violations(
    *,
    existing_inches,
    depth_inches,
    calcium_chloride: bool,
    poured_on: date | None = None,
    opened_to_traffic_on: date | None = None,
) -> list[Violation]:
    """§ 303-5G(3): concrete at least the existing depth or 7 inches, no calcium chloride, kept from traffic 3 days."""
    errors = []
    required = required_concrete_inches(existing_inches)
    if _d(depth_inches) < required:
        errors.append(
            Violation(
                "depth_inches",
                "concrete_too_thin",
                "§ 303-5G(3)",
                f"Concrete pavement of {depth_inches} inches is too thin: at least {required} inches (the existing "
                "depth "
                "or 7 inches, whichever is greater) are required (§ 303-5G(3)).",
            )
        )
    if calcium_chloride:
        errors.append(
            Violation(
                "calcium_chloride",
                "calcium_chloride",
                "§ 303-5G(3)",
                "The concrete must not contain calcium chloride (§ 303-5G(3)).",
            )
        )
    if poured_on and opened_to_traffic_on and opened_to_traffic_on < concrete_open_to_traffic_on(poured_on):
        errors.append(
            Violation(
                "opened_to_traffic_on",
                "opened_too_soon",
                "§ 303-5G(3)",
                f"Concrete poured {poured_on:%B %-d} may not carry traffic before "
                f"{concrete_open_to_traffic_on(poured_on):%B %-d}: it is protected from traffic for at least 3 days "
                "(§ 303-5G(3)).",
            )
        )
    return errors


# --- § 303-5B(1): trench limits ---------------------------------------------------------------------------------

MAX_TRENCH_AHEAD_FEET = Decimal("250")  # § 303-5B(1)
MAX_TRENCH_UNFILLED_FEET = Decimal("500")  # § 303-5B(1)


def trench_violations(*, excavated_ahead_feet, unfilled_feet, special_permission: bool = False) -> list[Violation]:
    """§ 303-5B(1): no trench more than 250 feet ahead of pipe or conduit laying, nor left unfilled more than 500
    feet from where it was laid, except by special permission of the Director of Public Works."""
    if special_permission:
        return []
    errors = []
    if _d(excavated_ahead_feet) > MAX_TRENCH_AHEAD_FEET:
        errors.append(
            Violation(
                "excavated_ahead_feet",
                "trench_too_far_ahead",
                "§ 303-5B(1)",
                f"The trench is open {excavated_ahead_feet} feet ahead of the pipe: at most 250 feet without the "
                "Director of Public Works' special permission (§ 303-5B(1)).",
            )
        )
    if _d(unfilled_feet) > MAX_TRENCH_UNFILLED_FEET:
        errors.append(
            Violation(
                "unfilled_feet",
                "trench_unfilled",
                "§ 303-5B(1)",
                f"{unfilled_feet} feet of trench over laid pipe are unfilled: at most 500 feet without the Director of "
                "Public Works' special permission (§ 303-5B(1)).",
            )
        )
    return errors


def spoil_pile_violations(*, spoil_blocks_gutter: bool) -> list[Violation]:
    """§ 303-5D(1): excavated material is piled so that "gutters shall be kept clear or other satisfactory provisions
    made for street drainage"; § 303-13: no person shall "obstruct ... the free passage of water in any public gutter,
    ditch, culvert, swale or drain". A spoil pile found blocking a gutter (or drain) with no provision made for the
    drainage fails the field record under both sections."""
    if not spoil_blocks_gutter:
        return []
    return [
        Violation(
            "spoil_blocks_gutter",
            "spoil_blocks_gutter",
            "§ 303-5D(1)",
            "The excavated material blocks the gutter: pile it so the gutter is kept clear, or make other satisfactory "
            "provision for street drainage (§ 303-5D(1)).",
        ),
        Violation(
            "spoil_blocks_gutter",
            "drainage_obstructed",
            "§ 303-13",
            "Obstructing the free passage of water in a public gutter, ditch, culvert, swale or drain is prohibited "
            "(§ 303-13).",
        ),
    ]


# --- § 303-5B(1): barriers, signs, lights; § 303-5C: pavement removal and the saw cut -------------------------


def protection_violations(*, barriers: bool, signs: bool, warning_lights: bool, open_flame: bool) -> list[Violation]:
    """§ 303-5B(1): every opening "shall be enclosed with sufficient barriers, signing, and such other traffic control
    devices as may be required" (MUTCD Part VI), "sufficient warning lights shall be kept on", and "no open flame
    warning devices shall be used". The inspector records each as seen on site; any one missing fails.

    Reading: the lights clause says "from sunrise to sunset"; the inspector records whether the warning lights the
    site needs are on and working when inspected, whatever the hour."""
    checks = (
        (
            "barriers",
            not barriers,
            "no_barriers",
            "The opening is not enclosed with sufficient barriers (§ 303-5B(1)).",
        ),
        (
            "signs",
            not signs,
            "no_signs",
            "Signs and traffic control devices are not sufficient (§ 303-5B(1), MUTCD Part VI).",
        ),
        (
            "warning_lights",
            not warning_lights,
            "no_warning_lights",
            "Sufficient warning lights are not kept on (§ 303-5B(1)).",
        ),
        ("open_flame", open_flame, "open_flame", "No open flame warning devices may be used (§ 303-5B(1))."),
    )
    return [Violation(field, code, "§ 303-5B(1)", message) for field, failed, code, message in checks if failed]


def saw_cut_violations(
    *,
    straight: bool,
    final_cut_after_backfill: bool,
    damaged_not_recut: bool,
    rectangular: bool,
    aligned: bool,
    surface: str = "",
    vertical_face: bool | None = None,
) -> list[Violation]:
    """§ 303-5C: pavement removed to neat, straight lines with a final saw cut after backfilling (C(1)); pavement
    damaged beyond the original saw-cut lines cut again, the finished cut a regular rectangle (C(2)); the long
    dimension parallel with the curbline or the direction of travel, in concrete parallel with or at right angles to
    it (C(3)); in concrete a vertical face at the saw cut for a full depth at the joint (C(4))."""
    checks = [
        (
            "saw_cut_straight",
            not straight,
            "not_straight",
            "§ 303-5C(1)",
            "Existing pavement must be removed to neat, straight lines (§ 303-5C(1)).",
        ),
        (
            "final_saw_cut",
            not final_cut_after_backfill,
            "no_final_saw_cut",
            "§ 303-5C(1)",
            "The permittee must make a final saw cut in the existing pavement after backfilling (§ 303-5C(1)).",
        ),
        (
            "damaged_not_recut",
            damaged_not_recut,
            "damaged_not_recut",
            "§ 303-5C(2)",
            "Pavement damaged beyond the original saw-cut lines must be saw cut again along neat, straight lines "
            "(§ 303-5C(2)).",
        ),
        (
            "saw_cut_rectangular",
            not rectangular,
            "not_rectangular",
            "§ 303-5C(2)",
            "The finished saw cut must leave a regular rectangular section for pavement replacement (§ 303-5C(2)).",
        ),
        (
            "saw_cut_aligned",
            not aligned,
            "not_aligned",
            "§ 303-5C(3)",
            "The replacement area must run parallel with the curbline or the direction of travel (in concrete, "
            "parallel with or at right angles to it) (§ 303-5C(3)).",
        ),
    ]
    if surface == "concrete":
        checks.append(
            (
                "vertical_face",
                not vertical_face,
                "no_vertical_face",
                "§ 303-5C(4)",
                "Concrete must be cut to a vertical face at the saw cut, for a full depth of concrete at the joint "
                "(§ 303-5C(4)).",
            )
        )
    return [Violation(field, code, cite, message) for field, failed, code, cite, message in checks if failed]


# --- § 303-1C: underground utilities ----------------------------------------------------------------------------

MIN_COVER_FEET = Decimal("3")  # § 303-1C(1): from the top of the established grade to the top of the construction


def underground_depth_violations(*, cover_feet) -> list[Violation]:
    """§ 303-1C(1): the top of underground construction at least three feet below the established grade."""
    if _d(cover_feet) < MIN_COVER_FEET:
        return [
            Violation(
                "cover_feet",
                "too_shallow",
                "§ 303-1C(1)",
                f"The top of the construction is {cover_feet} feet below the established grade: at least 3 feet are "
                "required (§ 303-1C(1)).",
            )
        ]
    return []


def covering_violations(*, inspection_requested: bool, inspected: bool) -> list[Violation]:
    """§ 303-1C(4): when the Director of Public Works asks to check the construction, it may not be covered first."""
    if inspection_requested and not inspected:
        return [
            Violation(
                "covered",
                "covered_before_inspection",
                "§ 303-1C(4)",
                "The Director of Public Works asked to check this construction: it may not be covered before the "
                "inspection (§ 303-1C(4)).",
            )
        ]
    return []


# --- § 303-5G(4): when the permanent pavement is due -------------------------------------------------------------

MIN_COLD_MIX_INCHES = Decimal("3")  # § 303-5G(4)
PERMANENT_PAVEMENT_WITHIN = timedelta(days=60)  # § 303-5G(4)
TEMPORARY_PATCH_REPLACED_BY = (6, 1)  # § 303-5G(4): month, day


def in_winter_months(day: date) -> bool:
    """§ 303-5G(4) "winter months", read as the frozen-ground season of § 303-5A (November 15 through April 1, both
    days included): one reading of the winter for the application and the field, in ordinance.py."""
    return in_frozen_ground_season(day)


def temporary_surface_violations(*, depth_inches, emergency: bool, placed_on: date) -> list[Violation]:
    """§ 303-5G(4): a temporary surface only for an emergency excavation in winter months, of at least 3 inches of
    cold mix bituminous material."""
    errors = []
    if not (emergency and in_winter_months(placed_on)):
        errors.append(
            Violation(
                "temporary_placed_on",
                "temporary_not_allowed",
                "§ 303-5G(4)",
                "A temporary cold-mix surface is allowed only for an emergency excavation in winter months (November "
                "15 "
                "to April 1); otherwise replace the pavement permanently (§ 303-5G(4)).",
            )
        )
    if _d(depth_inches) < MIN_COLD_MIX_INCHES:
        errors.append(
            Violation(
                "temporary_depth_inches",
                "cold_mix_too_thin",
                "§ 303-5G(4)",
                f"A temporary surface of {depth_inches} inches is too thin: at least 3 inches of cold mix are required "
                "(§ 303-5G(4)).",
            )
        )
    return errors


def following_june_1(placed_on: date) -> date:
    """§ 303-5G(4): "not later than the following June 1": the first June 1 after the temporary surface was placed."""
    month, day = TEMPORARY_PATCH_REPLACED_BY
    this_year = date(placed_on.year, month, day)
    if placed_on < this_year:
        return this_year
    return date(placed_on.year + 1, month, day) if placed_on.year < date.max.year else date.max  # year 9999: held


def permanent_pavement_due(*, permit_date: date, temporary_placed_on: date | None = None) -> date:
    """§ 303-5G(4): a winter temporary surface is replaced by the following June 1; otherwise permanent pavement is
    replaced within 60 days of the date of the permit.

    "The date of the permit" is read as the day the permit was issued (Permit.issued_on): the date printed on the
    permit the crew keeps on site and the first day the work may lawfully start; the caller falls back to the
    approval day for a permit approved but not yet issued. Within 60 days: issued June 1, due July 31.
    """
    if temporary_placed_on is not None:
        return following_june_1(temporary_placed_on)
    return shift(permit_date, PERMANENT_PAVEMENT_WITHIN.days)


def permit_date_of(*, issued_on: date | None, approved_on: date | None) -> date | None:
    """§ 303-5G(4): "the date of the permit" (see permanent_pavement_due): issued, else approved."""
    return issued_on or approved_on


def is_pavement_overdue(*, due_on: date, completed_on: date | None, today: date) -> bool:
    """§ 303-5G(4): overdue from the day after the due date when the permanent pavement is not in (June 1 is on
    time)."""
    return completed_on is None and today > due_on


# --- § 303-4H(3) and (4): the one-year guarantee and defect notices ---------------------------------------------


def one_year_after(day: date) -> date:
    """The same calendar date a year later (February 29 becomes February 28)."""
    year = day.year + 1
    if year > date.max.year:
        return date.max  # past the calendar: held at its end
    return day.replace(year=year, day=min(day.day, calendar.monthrange(year, day.month)[1]))


def guarantee_ends_on(completed_on: date) -> date:
    """§ 303-4H(3): the restorer is responsible for one year from the date of completion: through its anniversary."""
    return one_year_after(completed_on)


def guarantee_in_force(*, completed_on: date, today: date) -> bool:
    """§ 303-4H(3): in force from completion through the anniversary date; it ends the day after."""
    return completed_on <= today <= guarantee_ends_on(completed_on)


DEFECT_ADDRESSEES = ("permittee", "surety")  # § 303-4H(4): "to the contractor or to his surety"


def _notice_content_violations(
    citation: str, *, found_on: date, defect: str, work_to_be_done: str, estimated_cost, deadline: date | None
) -> list[Violation]:
    """What either defect notice states: the defect, the work to be done, its cost and the time to do it."""
    errors = []
    for field, value, label in (
        ("defect", defect, "the defect"),
        ("work_to_be_done", work_to_be_done, "the work to be done"),
    ):
        if not (value or "").strip():
            errors.append(Violation(field, "required", citation, f"The notice must state {label} ({citation})."))
    if estimated_cost is None or _d(estimated_cost) < 0:
        errors.append(
            Violation(
                "estimated_cost",
                "required",
                citation,
                f"The notice must state the cost of the work, $0.00 or more ({citation}).",
            )
        )
    if deadline is None or deadline <= found_on:
        errors.append(
            Violation(
                "deadline",
                "deadline_not_after_notice",
                citation,
                f"The notice must give a time to complete the work: a deadline after the day of the notice "
                f"({citation}).",
            )
        )
    return errors


def faulty_work_notice_violations(
    *,
    work_under_way: bool,
    found_on: date,
    defect: str,
    work_to_be_done: str,
    estimated_cost,
    deadline: date | None,
) -> list[Violation]:
    """§ 303-4H(2): "faulty work or materials shall be immediately replaced by the permittee upon notice by the
    Village": the DPW's notice to the permittee while the work is under way (issued or active, completion not yet
    confirmed), stating the fault, the work to be done, its cost and the deadline.

    Reading: once the DPW has confirmed completion, work that "has become defective within one year of the date of
    completion" is the Village Board's to find (§ 303-4H(4), defect_finding_violations); the DPW's notice covers the
    work before then."""
    errors = []
    if not work_under_way:
        errors.append(
            Violation(
                "found_on",
                "not_under_way",
                "§ 303-4H(2)",
                "The DPW's notice of faulty work is for work under way; once the work is complete, only the Village "
                "Board finds it defective (§ 303-4H(2), § 303-4H(4)).",
            )
        )
    return errors + _notice_content_violations(
        "§ 303-4H(2)",
        found_on=found_on,
        defect=defect,
        work_to_be_done=work_to_be_done,
        estimated_cost=estimated_cost,
        deadline=deadline,
    )


def defect_finding_violations(
    *,
    completed_on: date | None,
    found_on: date,
    defect: str,
    work_to_be_done: str,
    estimated_cost,
    deadline: date | None,
    addressed_to: str,
) -> list[Violation]:
    """§ 303-4H(4): work the Village Board finds defective within one year of its completion is noticed in writing to
    the contractor or its surety, stating the defect, the work to be done, its cost and the time the Board deems
    reasonably necessary to complete it."""
    errors = []
    if completed_on is None or not guarantee_in_force(completed_on=completed_on, today=found_on):
        errors.append(
            Violation(
                "found_on",
                "outside_guarantee",
                "§ 303-4H(4)",
                "The Village Board's defect notice is for work that became defective within one year of its "
                "completion (§ 303-4H(3), § 303-4H(4)).",
            )
        )
    errors += _notice_content_violations(
        "§ 303-4H(4)",
        found_on=found_on,
        defect=defect,
        work_to_be_done=work_to_be_done,
        estimated_cost=estimated_cost,
        deadline=deadline,
    )
    if addressed_to not in DEFECT_ADDRESSEES:
        errors.append(
            Violation(
                "addressed_to",
                "addressee",
                "§ 303-4H(4)",
                "The notice goes to the permittee (contractor) or to its surety (§ 303-4H(4)).",
            )
        )
    return errors


def is_defect_past_deadline(*, deadline: date, corrected_on: date | None, today: date) -> bool:
    """§ 303-4H(2): not corrected by the deadline: the day after the deadline it is a failure (the deadline day is
    still on time)."""
    return corrected_on is None and today > deadline


# --- § 303-4H(2) and § 303-1C(8): the Village repairs and bills --------------------------------------------------

ADMINISTRATION_RATE = Decimal("0.20")  # § 303-4H(2)


@dataclass(frozen=True)
class RepairBill:
    labor: Decimal
    materials: Decimal
    equipment: Decimal
    subtotal: Decimal
    administration: Decimal
    total: Decimal


def village_repair_bill(*, labor, materials, equipment) -> RepairBill:
    """§ 303-4H(2): the Village repairs the deficiencies and bills all labor, materials and equipment used plus 20%
    for administration (rounded half up to the cent). § 303-1C(8) restorations "comply with §§ 303-4 and 303-5",
    so a utility's surface the Village restores is billed the same way."""
    labor, materials, equipment = (_d(v).quantize(CENT) for v in (labor, materials, equipment))
    if min(labor, materials, equipment) < 0:
        raise ValueError("Labor, materials and equipment are amounts of $0.00 or more (§ 303-4H(2)).")
    subtotal = labor + materials + equipment
    administration = (subtotal * ADMINISTRATION_RATE).quantize(CENT, rounding=ROUND_HALF_UP)
    return RepairBill(labor, materials, equipment, subtotal, administration, subtotal + administration)


def village_expense_violations(
    *, labor, equipment, materials, description: str, incurred_on: date | None, today: date, has_receipt: bool
) -> list[Violation]:
    """§ 303-4F(2): the permit fee is the Chapter 167 fee "plus actual Village expenses": amounts the Village spent
    (labor, equipment, materials), each $0.00 or more and together more than nothing, for work it did, on a day that
    has come. Equipment or materials are actual expenses shown by their receipt or invoice; labor is the Village's own
    time. No administration is added: the 20% of § 303-4H(2) is for repairing a permittee's uncorrected deficiency."""
    cite = "§ 303-4F(2)"
    errors = []
    amounts = {}
    for field, value in (("labor", labor), ("equipment", equipment), ("materials", materials)):
        try:
            amounts[field] = _d(value if value is not None else 0)
        except (ArithmeticError, ValueError, TypeError):
            amounts[field] = None
        if amounts[field] is None or not amounts[field].is_finite() or amounts[field] < 0:
            errors.append(
                Violation(field, "negative", cite, f"The {field} must be an amount of $0.00 or more ({cite}).")
            )
    if not errors and sum(amounts.values()) <= 0:
        errors.append(
            Violation(
                "labor", "nothing_spent", cite, f"Enter what the Village spent: labor, equipment or materials ({cite})."
            )
        )
    if not errors and (amounts["equipment"] > 0 or amounts["materials"] > 0) and not has_receipt:
        errors.append(
            Violation(
                "receipt",
                "receipt_required",
                cite,
                "Attach the receipt or invoice for the equipment and materials: only actual expenses are billed "
                f"({cite}).",
            )
        )
    if not (description or "").strip():
        errors.append(Violation("description", "required", cite, f"Say what the Village did ({cite})."))
    if incurred_on is None or incurred_on > today:
        errors.append(
            Violation(
                "incurred_on", "future", cite, f"An expense is billed once spent: not a day still to come ({cite})."
            )
        )
    return errors


def revocation_ends_on(revoked_on: date) -> date:
    """§ 303-4H(2): failure to correct deficiencies revokes the right to obtain a street opening permit for one year
    (the application half's reading, in ordinance.py: the right returns on the anniversary)."""
    return revocation_ends(revoked_on)


# --- Notices the permittee gives ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoticeRule:
    kind: str
    label: str
    citation: str
    hours: int | None  # hours ahead; None for "one business day"
    emergency_exempt: bool
    to_whom: str


NOTICE_RULES = {
    "dpw_excavation": NoticeRule(
        "dpw_excavation",
        "Director of Public Works, 24 hours before excavation begins",
        "§ 303-5B(4)",
        24,
        True,
        "Director of Public Works",
    ),
    "affected_parties": NoticeRule(
        "affected_parties",
        "Affected parties and the Village, one business day before work",
        "§ 303-5F",
        None,
        False,
        "Clerk-Treasurer or DPW, and everyone affected by the work",
    ),
    "utility_outage": NoticeRule(
        "utility_outage",
        "Private properties, 12 hours before a utility outage",
        "§ 303-5B(5)",
        12,
        True,
        "Each private property losing service (in writing or in person)",
    ),
    "dpw_backfill": NoticeRule(
        "dpw_backfill",
        "Village, 4 hours before backfilling or restoring the surface",
        "§ 303-5F",
        4,
        False,
        "Clerk-Treasurer or Director of Public Works",
    ),
}


def previous_business_day(day: date) -> date:
    day = shift(day, -1)
    while not is_business_day(day) and day > date.min:
        day = shift(day, -1)
    return day


def notice_due_by(kind: str, planned_at: datetime) -> datetime:
    """The latest moment the permittee may give a notice of `kind` for work planned at `planned_at` (aware).

    § 303-5B(4): 24 hours before excavation; § 303-5B(5): 12 hours before the loss of service; § 303-5F: 4 hours
    before backfilling or restoring. § 303-5F "at least one business day before such work is to commence" is read
    as the same clock time on the business day before the day of the work (weekends and Wisconsin legal holidays
    do not count): work at 8:00 on Monday needs notice by 8:00 on the Friday before. `planned_at` is in local time.
    """
    rule = NOTICE_RULES[kind]
    if rule.hours is not None:
        # Real elapsed hours (through UTC), so a daylight-saving change does not move the deadline by an hour.
        return (planned_at.astimezone(UTC) - timedelta(hours=rule.hours)).astimezone(planned_at.tzinfo)
    earlier = previous_business_day(planned_at.date())
    return planned_at - timedelta(days=(planned_at.date() - earlier).days)


ON_TIME, LATE, NOT_REQUIRED = "on_time", "late", "not_required"


def notice_timeliness(kind: str, *, given_at: datetime, planned_at: datetime, emergency: bool = False) -> str:
    """§ 303-5B(4), § 303-5B(5), § 303-5F: "on_time" when given at or before the deadline, else "late";
    "not_required" for the DPW 24-hour and the 12-hour outage notices of an emergency excavation (§ 303-5H)."""
    if emergency and NOTICE_RULES[kind].emergency_exempt:
        return NOT_REQUIRED
    return ON_TIME if given_at <= notice_due_by(kind, planned_at) else LATE


def notice_late_message(kind: str, due_by: datetime) -> str:
    rule = NOTICE_RULES[kind]
    return f"This notice was due by {due_by:%B %-d, %Y at %-I:%M %p}: it is late ({rule.citation})."


REMINDER_LEAD = timedelta(hours=24)


def notice_reminder_at(kind: str, planned_at: datetime) -> datetime:
    """When to remind the permittee: a day before the notice is due (policy, not ordinance)."""
    return notice_due_by(kind, planned_at) - REMINDER_LEAD


# --- Inspections: one dispatcher the service and the forms share ------------------------------------------------

INSPECTION_CITATIONS = {
    "backfill": "§ 303-5E(1)",
    "compaction": "§ 303-5E(4)",
    "pavement": "§ 303-5G",
    "trench": "§ 303-5B(1)",
    "underground_depth": "§ 303-1C(1)",
    "final": "§ 303-1C(8)",
    "protection": "§ 303-5B(1)",
    "saw_cut": "§ 303-5C",
}


def inspection_violations(kind: str, values: dict) -> list[Violation]:
    """The rules an inspection of `kind` checks, applied to the measured `values` (a form's cleaned data)."""
    v = values
    if kind == "backfill":
        found = {key for key in UNSUITABLE_BACKFILL if v.get(key)}
        return backfill_violations(largest_stone_inches=v["largest_stone_inches"], found=found)
    if kind == "compaction":
        return compaction_violations(
            lift_inches=v["lift_inches"],
            percent_of_proctor=v["compaction_percent"],
            mechanical=v.get("mechanical", True),
            flooded=v.get("flooded", False),
        )
    if kind == "pavement":
        errors = []
        if v.get("three_inch_stone_inches") is not None or v.get("three_quarter_stone_inches") is not None:
            errors += stone_base_violations(
                three_inch_stone_inches=v.get("three_inch_stone_inches") or 0,
                three_quarter_stone_inches=v.get("three_quarter_stone_inches") or 0,
            )
        if v.get("surface") == "bituminous":
            errors += bituminous_violations(
                existing_inches=v.get("existing_pavement_inches") or 0,
                depth_inches=v["depth_inches"],
                thickest_base_layer_inches=v.get("base_layer_inches") or 0,
                top_layer_inches=v.get("top_layer_inches") or 0,
                straightedge_deviation_inches=v.get("straightedge_deviation_inches") or 0,
            )
        elif v.get("surface") == "concrete":
            errors += concrete_violations(
                existing_inches=v.get("existing_pavement_inches") or 0,
                depth_inches=v["depth_inches"],
                calcium_chloride=bool(v.get("calcium_chloride")),
                poured_on=v.get("poured_on"),
                opened_to_traffic_on=v.get("opened_to_traffic_on"),
            )
            if v.get("straightedge_deviation_inches") is not None:
                errors += straightedge_violations(deviation_inches=v["straightedge_deviation_inches"])
        return errors
    if kind == "trench":
        # The DPW's special permission lifts the § 303-5B(1) limits only, never the drainage (§ 303-5D(1), § 303-13).
        return trench_violations(
            excavated_ahead_feet=v["excavated_ahead_feet"],
            unfilled_feet=v["unfilled_feet"],
            special_permission=bool(v.get("special_permission")),
        ) + spoil_pile_violations(spoil_blocks_gutter=bool(v.get("spoil_blocks_gutter")))
    if kind == "underground_depth":
        # The DPW asked to check it by coming to inspect (§ 303-1C(4)); "covered_before_check" is what it found.
        return underground_depth_violations(cover_feet=v["cover_feet"]) + covering_violations(
            inspection_requested=True, inspected=not v.get("covered_before_check")
        )
    if kind == "protection":
        return protection_violations(
            barriers=bool(v.get("barriers")),
            signs=bool(v.get("signs")),
            warning_lights=bool(v.get("warning_lights")),
            open_flame=bool(v.get("open_flame")),
        )
    if kind == "saw_cut":
        return saw_cut_violations(
            straight=bool(v.get("saw_cut_straight")),
            final_cut_after_backfill=bool(v.get("final_saw_cut")),
            damaged_not_recut=bool(v.get("damaged_not_recut")),
            rectangular=bool(v.get("saw_cut_rectangular")),
            aligned=bool(v.get("saw_cut_aligned")),
            surface=v.get("surface") or "",
            vertical_face=v.get("vertical_face"),
        )
    if kind == "final":
        if v.get("surface_restored") is False:
            return [
                Violation(
                    "surface_restored",
                    "surface_not_restored",
                    "§ 303-1C(8)",
                    "The surface is not back in the condition it was in before the work; otherwise the Village "
                    "restores "
                    "it at the permittee's expense (§ 303-1C(8), § 303-4F(1)).",
                )
            ]
        return []
    raise ValueError(f"Unknown inspection kind: {kind}")


def required_notices(*, utility_interruption: bool, emergency: bool) -> list[str]:
    """The notices a permittee owes before the work: § 303-5B(4) the DPW 24 hours before excavation (not for an
    emergency), § 303-5F affected parties one business day before and the Village 4 hours before backfilling,
    § 303-5B(5) private properties 12 hours before a utility outage (only when service is lost; not for an
    emergency)."""
    kinds = [] if emergency else ["dpw_excavation"]
    kinds.append("affected_parties")
    if utility_interruption and not emergency:
        kinds.append("utility_outage")
    kinds.append("dpw_backfill")
    return kinds
