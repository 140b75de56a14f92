"""The street opening arrangements the register tests reuse (a frozen spring Monday, the contractor's annual bond, an
issued permit on Henni Street), and the new sidewalk they apply for."""

from datetime import date
from decimal import Decimal

from tests.permits.street_opening.conftest import (  # noqa: F401  (fixtures)
    application,
    approved,
    bond,
    issued,
    spring,
    street,
    under_review,
)


def new_walk(*, width_feet: str, thickness_inches: str, driveway_thickness_inches: str) -> dict:
    """A sidewalk permit's specification: 60 feet of new concrete walk poured June 8, 2026, at the given dimensions."""
    return dict(
        work="new",
        frontage_feet=Decimal("60"),
        width_feet=Decimal(width_feet),
        thickness_inches=Decimal(thickness_inches),
        driveway_thickness_inches=Decimal(driveway_thickness_inches),
        material="concrete",
        pour_date=date(2026, 6, 8),
    )


def posted(walk: dict, **fields) -> dict:
    """The specification as a form or the API takes it: every value a string, then the given fields."""
    return {k: str(v) for k, v in walk.items()} | fields
