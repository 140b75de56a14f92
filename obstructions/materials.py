"""§ 303-6B(2): the Building Inspector's authorizations to keep building materials on a street or sidewalk without a
§ 303-7 permit: the verb (the one path for the page, the demo and the shell; the admin only reads) and the selector
the enforcement cases read. A § 303-7 street privilege permit is not one of these: it excepts under § 303-6B(1)."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from obstructions import rules
from obstructions.models import MaterialsAuthorization
from permits.access import require_role
from permits.errors import Violation, raise_if_broken
from permits.roles import Role, has_role
from permits.services import next_number
from permits.street_facts import register_page

AUTHORIZERS = (Role.BUILDING_INSPECTOR,)  # § 303-6B(2): "the period authorized by the Building Inspector"
PREFIX = "BM"


def may_authorize(user) -> bool:
    return has_role(user, *AUTHORIZERS)


def authorize_materials(
    *,
    by,
    parcel,
    location_description: str,
    starts_on: date | None,
    ends_on: date | None,
    occupied_street_feet,
    occupied_sidewalk_feet,
    gutter_kept_flowing: bool,
    building_permit_number: str = "",
) -> MaterialsAuthorization:
    """§ 303-6B(2): the Building Inspector authorizes building materials at `parcel` for a period, within half the
    sidewalk and a third of the traveled street as the street register records them. All or nothing."""
    require_role(by, *AUTHORIZERS, action="authorize building materials (the Building Inspector does, § 303-6B(2))")
    errors = []
    if parcel is None:
        errors.append(Violation("parcel", "required", "§ 303-6B(2)", "Choose the parcel where the building is."))
    if not location_description.strip():
        errors.append(
            Violation("location_description", "required", "§ 303-6B(2)", "Say where the materials may be kept.")
        )
    street = parcel.street if parcel is not None else None
    if street is not None:
        errors += rules.materials_authorization_violations(
            street_name=street.name,
            traveled_width_feet=street.traveled_width_feet,
            sidewalk_width_feet=street.sidewalk_width_feet,
            widths_recorded=street.width_feet is not None,
            occupied_street_feet=occupied_street_feet,
            occupied_sidewalk_feet=occupied_sidewalk_feet,
            gutter_kept_flowing=gutter_kept_flowing,
            starts_on=starts_on,
            ends_on=ends_on,
            where=register_page(),
        )
    raise_if_broken(errors)
    now = timezone.now()
    with transaction.atomic():
        return MaterialsAuthorization.objects.create(
            number=next_number(PREFIX, timezone.localdate(now).year),
            parcel=parcel,
            location_description=location_description.strip(),
            building_permit_number=building_permit_number.strip(),
            starts_on=starts_on,
            ends_on=ends_on,
            occupied_street_feet=occupied_street_feet,
            occupied_sidewalk_feet=occupied_sidewalk_feet,
            gutter_kept_flowing=gutter_kept_flowing,
            traveled_width_feet=street.traveled_width_feet,
            sidewalk_width_feet=street.sidewalk_width_feet,
            authorized_by=by,
            authorized_at=now,
        )


def authorization_exception(*, number: str, parcel, day: date) -> list[Violation] | None:
    """§ 303-6B(2) for an enforcement case: None when `number` is no materials authorization; else what puts the
    materials seen on `day` at `parcel` outside it (nothing: excepted)."""
    found = MaterialsAuthorization.objects.select_related("parcel").filter(number=number).first()
    if found is None:
        return None
    return rules.materials_authorized(
        number=found.number,
        starts_on=found.starts_on,
        ends_on=found.ends_on,
        same_street=parcel is not None and parcel.street_id == found.parcel.street_id,
        day=day,
    )
