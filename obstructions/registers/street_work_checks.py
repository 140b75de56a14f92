"""What the registers say about an application to work a street or sidewalk (read through permits.street_work by the
sidewalk and street opening checks, so the form, the API, the admin and the services refuse alike)."""

from __future__ import annotations

from datetime import date

from obstructions.registers import rules, services
from obstructions.registers.models import Grade
from permits.kinds import Clearer

SIDEWALK, STREET_OPENING = "sidewalk", "street_opening"  # permits.models.PermitKind values


def work_violations(*, kind: str, street, parcel, today: date, fields: dict, emergency: bool = False):
    if kind not in (SIDEWALK, STREET_OPENING) or street is None or getattr(street, "pk", None) is None:
        return []
    if kind == SIDEWALK:
        found = rules.grade_violations(
            street_name=str(street),
            way=Grade.Way.SIDEWALK,
            grade_recorded=services.sidewalk_grade_for(street) is not None,
        )
        standard = services.higher_standard_for(parcel, today)
        if standard is not None:
            found += rules.higher_standard_violations(
                width_feet=fields.get("width_feet"),
                thickness_inches=fields.get("thickness_inches"),
                driveway_thickness_inches=fields.get("driveway_thickness_inches"),
                min_width_feet=standard.min_width_feet,
                min_thickness_inches=standard.min_thickness_inches,
                min_driveway_thickness_inches=standard.min_driveway_thickness_inches,
                location=standard.location,
                resolution=standard.resolution_number,
            )
        return found
    return rules.grade_violations(
        street_name=str(street),
        way=Grade.Way.STREET,
        grade_recorded=services.grade_in_force(street) is not None
        or services.grade_in_force(street, Grade.Way.ALLEY) is not None,
        emergency=emergency,
    )


def load_demo() -> None:
    from obstructions.registers import demo

    demo.load()


# Who clears each blocker above and on which page: the Clerk-Treasurer keeps the registers (§ 303-1A(1), § 303-3D(11)).
CLEARED_BY = {
    "no_grade": Clearer(("Clerk-Treasurer",), "obstructions:registers:grades", "records the street's grade"),
    "no_grade_emergency": Clearer(("Clerk-Treasurer",), "obstructions:registers:grades", "records the grade"),
    "below_higher_standard": Clearer(
        ("applicant",), "sidewalks:apply", "the application form refuses work below the Board's standard"
    ),
}
