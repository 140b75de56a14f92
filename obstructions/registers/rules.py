"""The registers' rules, pure: they take dates, datetimes, Decimals and plain values, never the clock or the database.

Each function cites its section; the services read the registers once and pass the facts down.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from permits.errors import Violation

VILLAGE_TIME_ZONE = ZoneInfo("America/Chicago")  # the Village's clock: "on or before September 15" is its calendar

# --- § 303-1A, § 303-1B: grades ---------------------------------------------------------------------------------------


def grade_violations(*, street_name: str, way: str, grade_recorded: bool, emergency: bool = False) -> list[Violation]:
    """§ 303-1A(1): "No street, alley, sidewalk or adjacent property shall be worked until the grade thereof is
    established." An application to work on a street with no grade recorded in the Clerk-Treasurer's register is
    refused. `way` is what is worked ("street" for a street opening, "sidewalk" for a sidewalk permit); a sidewalk
    with no grade of its own is laid to the street's (see `sidewalk_grade`), so `grade_recorded` is true for a sidewalk
    when either is recorded.

    An emergency opening (§ 303-5H, § 303-1C(7)) may begin before anything is approved, so for one the missing grade
    is a warning the office resolves afterwards, not a refusal: the law lets the emergency proceed and be approved
    "as soon thereafter as is reasonably possible".
    """
    if grade_recorded:
        return []
    what = "sidewalk along " if way == "sidewalk" else ""
    message = (
        f"No grade of {street_name or 'this street'} is recorded with the Clerk-Treasurer: no {what}street may be "
        "worked until the Village Board has established its grade (§ 303-1A(1))."
    )
    if emergency:
        return [
            Violation(
                "street",
                "no_grade_emergency",
                "§ 303-1A(1)",
                message + " The emergency may proceed; the office records the grade before approving the work.",
                warning=True,
            )
        ]
    return [Violation("street", "no_grade", "§ 303-1A(1)", message)]


def sidewalk_grade(*, sidewalk_grade, street_grade):
    """§ 303-1A(1): "In all cases where the grade of sidewalks shall not have been specifically set by ordinance, the
    sidewalks shall be laid to the established grade of the street." The sidewalk's own grade when one is set, else
    the street's (None when neither is)."""
    return sidewalk_grade if sidewalk_grade is not None else street_grade


GRADE_ESTABLISHING_BASES = ("established", "owners_application")
GRADE_ALTERING_BASES = ("board_alteration", "dpw_alteration")


def grade_alteration_authority_violations(*, by_board_motion: bool, authorizer_is_dpw: bool) -> list[Violation]:
    """§ 303-1B: "No person shall alter the grade ... unless authorized or instructed to do so by the Village Board or
    Director of Public Works." An alteration is recorded only with the Board's carried motion or the Director's
    authorization; anyone else's is refused."""
    if by_board_motion or authorizer_is_dpw:
        return []
    return [
        Violation(
            "authorized_by",
            "grade_alteration_unauthorized",
            "§ 303-1B",
            "A grade may be altered only on the authorization of the Village Board (a recorded motion) or the "
            "Director of Public Works (§ 303-1B).",
        )
    ]


def sidewalk_grade_application_violations(*, street_grade_recorded: bool, sidewalk_grade_recorded: bool):
    """§ 303-1A(2): before abutting owners build a sidewalk on an improved street, the Board, "upon application by the
    respective owners for a sidewalk grade", establishes it. Read here: an application needs the street's grade to
    build on (§ 303-1A(1)), and one for a sidewalk whose grade is already set is an alteration (§ 303-1B), not a new
    grade."""
    errors = []
    if not street_grade_recorded:
        errors.append(
            Violation(
                "street",
                "no_street_grade",
                "§ 303-1A(2)",
                "The street's own grade is not recorded: the Board establishes it first (§ 303-1A(1), § 303-1A(2)).",
            )
        )
    if sidewalk_grade_recorded:
        errors.append(
            Violation(
                "street",
                "sidewalk_grade_exists",
                "§ 303-1A(2)",
                "This sidewalk already has a grade: changing it is an alteration by the Board or the DPW (§ 303-1B).",
            )
        )
    return errors


# --- § 303-11: requests for improvements ------------------------------------------------------------------------------

IMPROVEMENT_DEADLINE = (9, 15)  # § 303-11: "on or before September 15"


def presented_on(presented_at: datetime) -> date:
    """§ 303-11: the Village calendar day a request was presented. An aware instant is read in the Village's time zone
    (a petition handed in at 11:30 p.m. on September 15 in Theresa is in time, whatever UTC says)."""
    if presented_at.tzinfo is None:
        raise ValueError("presented_at must be an aware datetime")
    return presented_at.astimezone(VILLAGE_TIME_ZONE).date()


def consideration_year(presented_at: datetime) -> int:
    """§ 303-11: requests "presented to the Village Board on or before September 15 [are] considered for installation
    in the following year". Presented by September 15 (any hour of it, Village time): the following year; after it,
    the ordinance's next chance is the next September 15, so the year after that.

    Interpretation: a request filed with the Clerk-Treasurer is presented when filed (the clerk lays it before the
    Board at its budget meeting), so the filing instant decides.
    """
    day = presented_on(presented_at)
    if (day.month, day.day) <= IMPROVEMENT_DEADLINE:
        return day.year + 1
    return day.year + 2


# --- § 303-3D(11): higher standards -----------------------------------------------------------------------------------


def _d(value) -> Decimal | None:
    return None if value is None or value == "" else Decimal(str(value))


def higher_standard_violations(
    *,
    width_feet,
    thickness_inches,
    driveway_thickness_inches=None,
    min_width_feet=None,
    min_thickness_inches=None,
    min_driveway_thickness_inches=None,
    location: str = "this location",
    resolution: str = "",
) -> list[Violation]:
    """§ 303-3D(11): "Where deemed necessary by the Village, higher sidewalk standards may be required by the Village
    Board." The Board's minimums for the location, on top of § 303-3D(8): a walk exactly at the minimum passes, a
    hundredth below fails. A minimum the Board did not set (None) is not checked."""
    by = f" (Resolution {resolution})" if resolution else ""
    errors = []
    checks = (
        ("width_feet", width_feet, min_width_feet, "feet wide"),
        ("thickness_inches", thickness_inches, min_thickness_inches, "inches thick"),
        (
            "driveway_thickness_inches",
            driveway_thickness_inches,
            min_driveway_thickness_inches,
            "inches thick within driveway approaches",
        ),
    )
    for field, value, minimum, unit in checks:
        minimum, value = _d(minimum), _d(value)
        if minimum is None or value is None:
            continue
        if value < minimum:
            errors.append(
                Violation(
                    field,
                    "below_higher_standard",
                    "§ 303-3D(11)",
                    f"The Village Board requires the sidewalk at {location} to be at least {minimum:g} {unit}{by}; "
                    f"{value:g} is less (§ 303-3D(11)).",
                )
            )
    return errors
