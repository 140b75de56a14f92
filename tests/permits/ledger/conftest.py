"""Helpers of the special-charge tests: a parcel and a quick way to record a charge."""

from datetime import date
from decimal import Decimal

import pytest

from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge, mark_delinquent_charges
from tests.factories import ParcelFactory

BILLED = date(2026, 3, 2)
LATE = date(2026, 5, 1)  # after BILLED's due date (April 1)


def make_charge(parcel, *, by=None, amount="75.00", source=SpecialCharge.Source.SNOW_ICE, today=BILLED, **extra):
    return add_charge(
        parcel=parcel,
        source=source,
        route=extra.pop("route", SpecialCharge.Route.SPECIAL_CHARGE_66_0627),
        amount=Decimal(amount),
        incurred_on=today,
        description=extra.pop("description", "Snow and ice removed by the Village"),
        citation=extra.pop("citation", "§ 303-8B"),
        by=by,
        today=today,
        **extra,
    )


def make_delinquent(parcel, **kwargs):
    charge = make_charge(parcel, **kwargs)
    mark_delinquent_charges(today=LATE)
    charge.refresh_from_db()
    return charge


@pytest.fixture
def parcel(db, resident):
    parcel = ParcelFactory(owner_email="olga@example.com", owner_name="Owner, Olga")
    parcel.owners.add(resident)
    return parcel


@pytest.fixture
def other_parcel(db):
    return ParcelFactory(owner_name="Neighbor, Ned")
