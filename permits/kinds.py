"""The permit types of Chapter 303 as the public sees them: the apply chooser and the "which permit?" guide.

Each permit type's app sets `apply_url` (a URL name) once its online application exists; until then the chooser
tells people to apply at the Village office.
"""

from dataclasses import dataclass

from permits.models import PermitKind


@dataclass(frozen=True)
class PermitType:
    kind: str
    title: str
    citation: str
    who_needs_it: str
    apply_url: str | None = None


PERMIT_TYPES = [
    PermitType(
        PermitKind.STREET_OPENING,
        "Street opening or excavation permit",
        "§ 303-4",
        "You will dig in, tunnel under or open a street, alley, sidewalk, terrace or Village easement: utility "
        "lines, sewer or water laterals, any trench in the right-of-way. Not needed for work the Village does itself "
        "(§ 303-4C). No openings November 15 to April 1 except emergencies (§ 303-5A).",
        "permits:street_opening_apply",
    ),
    PermitType(
        PermitKind.SIDEWALK,
        "Sidewalk permit",
        "§ 303-3C",
        "You will lay, remove, replace or repair a public sidewalk. Apply at least three days before the work "
        "(not needed under a contract with the Village).",
        "sidewalks:apply",
    ),
    PermitType(
        PermitKind.STREET_PRIVILEGE,
        "Street privilege permit",
        "§ 303-7",
        "You will move a building along a street, or keep construction materials on a street or sidewalk while "
        "you build (at most 1/3 of the street and 1/2 of the sidewalk). Issued by the Building Inspector.",
    ),
    PermitType(
        PermitKind.STREET_USE,
        "Street use permit",
        "§ 303-15",
        "You want to close part of a street for a block party or event (up to three days), with a petition signed "
        "by 75% of adult residents along it. Parades under Chapter 245 do not need one.",
    ),
]


def apply_url_for(permit_type: PermitType) -> str | None:
    from django.urls import NoReverseMatch, reverse

    if not permit_type.apply_url:
        return None
    try:
        return reverse(permit_type.apply_url)
    except NoReverseMatch:
        return None
