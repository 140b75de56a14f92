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
    OTHER = "other", "Other business"


# The clauses a designee may act under (the others the Board decides itself, by motion).
DESIGNABLE = (Clause.RUBBISH, Clause.DEFECT_FINDING, Clause.WINTER_EMERGENCY, Clause.MORATORIUM_EXCEPTION)


def citation(clause: str) -> str:
    return f"§ {clause}" if clause and clause != Clause.OTHER else ""
