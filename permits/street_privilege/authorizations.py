"""§ 303-6B(2): the Building Inspector's authorizations to keep building materials on a street or sidewalk for a
period, as the obstructions cases read them. The street privilege permit type (issue 9) fills this in from its
issued `materials` permits; until then no authorization exists, so none excepts an obstruction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class MaterialsAuthorization:
    permit_number: str
    street_id: int
    location_description: str
    starts_on: date
    ends_on: date  # the last day authorized: the Building Inspector's date or the § 303-7E end, whichever is earlier
    street_width_feet: Decimal
    occupied_street_feet: Decimal
    sidewalk_width_feet: Decimal | None  # None: the sidewalk is not occupied
    occupied_sidewalk_feet: Decimal | None
    gutter_kept_flowing: bool


def materials_authorizations_on(*, street_id: int, day: date) -> list[MaterialsAuthorization]:
    """The § 303-6B(2) authorizations in force on `street_id` on `day` (issued `materials` permits)."""
    return []
