"""The clauses of Chapter 303 where "the Village Board or its designee" acts: the Board designates, by a recorded
motion, who acts for it under each (permits.board.models.Designation)."""

from django.db import models


class Clause(models.TextChoices):
    RUBBISH = "303-2", "§ 303-2: notify owners to remove rubbish or dirt from sidewalks, and cause its removal"
    DEFECT_FINDING = "303-4H(4)", "§ 303-4H(4): find street opening work defective within the guarantee year"
    WINTER_EMERGENCY = "303-5A", "§ 303-5A: determine a winter opening to be an emergency excavation"
    MORATORIUM_EXCEPTION = "303-5I", "§ 303-5I: find an opening of a repaved street absolutely essential"
    BOND_AMOUNTS = "303-4H(3)", "§ 303-4H(3), (5): determine the amount of guarantee and annual bonds"
    SIDEWALK_WAIVER = "303-3D(8)(c)", "§ 303-3D(8)(c): waive the commercial sidewalk width and thickness"
    COLD_POUR_WAIVER = "303-3D(9)", "§ 303-3D(9): waive the cold-weather pour rule for an emergency replacement"
    SIDEWALK_ORDER = "303-3B(3)", "§ 303-3B(3), Wis. Stat. § 66.0907: order sidewalks laid, rebuilt or repaired"
    SPECIAL_ASSESSMENT_PRELIMINARY = (
        "66.0703(4)",
        "Wis. Stat. § 66.0703(4), § 303-3B(2): preliminary resolution to levy a special assessment",
    )
    SPECIAL_ASSESSMENT_FINAL = (
        "66.0703(8)",
        "Wis. Stat. § 66.0703(7), (8), § 303-3B(2): hear objections; final special assessment resolution",
    )
    SPECIAL_CHARGE_HEARING = "66.0627", "Wis. Stat. § 66.0627(3)(b): hear objections to a special charge"
    PAYMENT_PERIOD = "66.0627(4)", "Wis. Stat. § 66.0627(4): determine the time for paying special charges"
    PRIVILEGE_BOND_WAIVER = "303-7B", "§ 303-7B: waive the street privilege bond"
    PRIVILEGE_REVOCATION = "303-7D", "§ 303-7D: revoke a street privilege permit for a violation of its conditions"
    MOVE_DAY_AND_NIGHT = "303-7D(4)", "§ 303-7D(4): order a building move to continue day and night"
    MOVE_ROUTE = "303-7D(6)", "§ 303-7D(6): prescribe the route of a building move"
    PRIVILEGE_OBSTRUCTION_NOTICE = "303-7F", "§ 303-7F: notify the adjoining owner to remove a sidewalk obstruction"
    STREET_USE = "303-15C", "§ 303-15C: grant or deny a street use permit"
    GRADE = "303-1A", "§ 303-1A: establish the grade of a street, alley or sidewalk"
    GRADE_ALTERATION = "303-1B", "§ 303-1B: alter an established grade"
    TERRACE_SURFACE = "303-9", "§ 303-9: approve paving or covering an area of a terrace"
    HIGHER_STANDARD = "303-3D(11)", "§ 303-3D(11): require a higher sidewalk standard at a location"
    IMPROVEMENT_REQUESTS = "303-11", "§ 303-11: consider the year's street and sidewalk improvement requests"
    OTHER = "other", "Other business"


# The clauses a designee may act under (the others the Board decides itself, by motion). § 303-4H(4) names only the
# Board ("whenever the Village Board shall find"): no designee finds street opening work defective.
DESIGNABLE = (
    Clause.RUBBISH,
    Clause.WINTER_EMERGENCY,
    Clause.MORATORIUM_EXCEPTION,
    Clause.TERRACE_SURFACE,
)


def citation(clause: str) -> str:
    return f"§ {clause}" if clause and clause != Clause.OTHER else ""
