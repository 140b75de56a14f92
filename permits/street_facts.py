"""The Village's facts about its streets (widths), as the rules of § 303-7D(1) and § 303-6B(2) read them.

The Clerk-Treasurer or the Director of Public Works records a street's width, traveled width and sidewalk width on the
street register page (obstructions.registers, "Street widths"); an applicant never types them. A rule that needs a
width the register does not have refuses (fails closed) and says who records it and where.

The rules are pure (plain values in, Violations out); `register_page()` is the page the messages name.
"""

from __future__ import annotations

from decimal import Decimal

from django.urls import NoReverseMatch, reverse

from permits.errors import Violation

RECORDERS_TEXT = "the Clerk-Treasurer or the Director of Public Works"
REGISTER_URL_NAME = "obstructions:registers:street_widths"


def register_page() -> str:
    """The street register page, for the messages (its path, or its name when the page is not mounted)."""
    try:
        return reverse(REGISTER_URL_NAME)
    except NoReverseMatch:  # a site without the registers: name the page instead
        return "Registers > Street widths"


def _missing(*, street_name: str, what: str, field: str, citation: str, where: str) -> Violation:
    message = (
        f"No {what} of {street_name or 'this street'} is on record, so the limit of {citation} cannot be checked: "
        f"{RECORDERS_TEXT} records it on the street register ({where}) before the application is accepted "
        f"({citation})"
    )
    return Violation(field, "no_street_width", citation, message)


def width_on_record_violations(
    *, street_name: str, width_feet: Decimal | None, field: str, citation: str, where: str, what: str = "width"
) -> list[Violation]:
    """§ 303-7D(1), § 303-6B(2): the share of a street or sidewalk is measured against the width the Village recorded;
    with none on record nothing can be measured, so the rule refuses rather than trust a typed width."""
    if width_feet is None or width_feet <= 0:
        return [_missing(street_name=street_name, what=what, field=field, citation=citation, where=where)]
    return []


def width_record_violations(
    *, width_feet: Decimal | None, traveled_width_feet: Decimal | None, sidewalk_width_feet: Decimal | None
) -> list[Violation]:
    """What the street register holds: a width and a traveled width (both more than 0 ft, the traveled portion no
    wider than the street); the sidewalk width more than 0 ft, or none where the street has no sidewalk."""
    errors = []
    if width_feet is None or width_feet <= 0:
        errors.append(
            Violation("width_feet", "required", "§ 303-7D(1)", "Give the street's width in feet (§ 303-7D(1)).")
        )
    if traveled_width_feet is None or traveled_width_feet <= 0:
        errors.append(
            Violation(
                "traveled_width_feet",
                "required",
                "§ 303-6B(2)",
                "Give the width of the traveled portion in feet (§ 303-6B(2)).",
            )
        )
    elif width_feet and width_feet > 0 and traveled_width_feet > width_feet:
        errors.append(
            Violation(
                "traveled_width_feet",
                "wider_than_street",
                "§ 303-6B(2)",
                f"The traveled portion ({traveled_width_feet} ft) cannot be wider than the street ({width_feet} ft) "
                "(§ 303-6B(2)).",
            )
        )
    if sidewalk_width_feet is not None and sidewalk_width_feet <= 0:
        errors.append(
            Violation(
                "sidewalk_width_feet",
                "not_positive",
                "§ 303-6B(2)",
                "The sidewalk width is more than 0 ft; leave it empty where the street has no sidewalk (§ 303-6B(2)).",
            )
        )
    return errors
