"""§ 303-6B(2): the Building Inspector's authorizations to keep building materials on a street or sidewalk for a
period, as the obstructions cases read them: the issued `materials` street privilege permits in force on a street on
a day. Outside their limits or past their period, materials are an obstruction (§ 303-6A)."""

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
    from permits.models import Status
    from permits.street_privilege.models import Purpose, StreetPrivilege

    rows = (
        StreetPrivilege.objects.filter(
            purpose=Purpose.MATERIALS,
            permit__street_id=street_id,
            permit__status__in=[Status.ISSUED, Status.ACTIVE],
            permit__issued_on__lte=day,
            permit__start_date__lte=day,
            permit__expires_on__gte=day,
        )
        .select_related("permit")
        .order_by("permit__number")
    )
    return [
        MaterialsAuthorization(
            permit_number=sp.permit.number,
            street_id=sp.permit.street_id,
            location_description=sp.permit.location_description,
            starts_on=max(sp.permit.start_date, sp.permit.issued_on),
            ends_on=sp.permit.expires_on,
            street_width_feet=sp.street_width_feet,
            occupied_street_feet=sp.occupied_street_feet,
            sidewalk_width_feet=sp.sidewalk_width_feet if sp.sidewalk_occupied else None,
            occupied_sidewalk_feet=sp.occupied_sidewalk_feet if sp.sidewalk_occupied else None,
            gutter_kept_flowing=sp.gutter_kept_flowing,
        )
        for sp in rows
    ]
