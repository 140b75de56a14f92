from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from permits.models import Parcel
from tests.factories import ParcelFactory, StreetFactory

CHICAGO = ZoneInfo("America/Chicago")


def at(*args) -> datetime:
    return datetime(*args, tzinfo=CHICAGO)


# A street number shown as § 303-14B asks: 2.5-inch numerals on a 3-inch contrasting background, seen from the street.
GOOD_DISPLAY = dict(
    numeral_inches=Decimal("2.5"),
    background_inches=Decimal("3"),
    contrasting=True,
    script_font=False,
    by_front_entrance=True,
    visible_from_street=True,
    abuts_alley=False,
    visible_from_alley=False,
)


@pytest.fixture
def main_street(db):
    return StreetFactory(name="Main Street")


@pytest.fixture
def shop(main_street):
    """A commercial parcel on Main Street whose owner has an email address."""
    return ParcelFactory(
        site_address="210 Main Street",
        owner_name="Main Street Tavern Inc",
        owner_email="tavern@example.com",
        land_use=Parcel.LandUse.COMMERCIAL,
        street=main_street,
    )


@pytest.fixture
def house(main_street):
    """A residential parcel whose owner has no email: notices are letters."""
    return ParcelFactory(site_address="305 Main Street", owner_name="Klein, Joan", street=main_street)
