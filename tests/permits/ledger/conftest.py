"""Helpers of the special-charge tests: a parcel and a quick way to record a charge."""

from datetime import date
from decimal import Decimal

import pytest

from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge, mark_delinquent_charges, record_hearing
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


def hearing(by, on: date, *, published_on: date, mailed_on: date, charges=(), today: date | None = None):
    """The Board's Wis. Stat. § 66.0627(3)(b) hearing on `on`, its notice published and mailed on the days given."""
    return record_hearing(
        hearing_on=on, published_on=published_on, mailed_on=mailed_on, charges=list(charges), by=by, today=today
    )


def mail_letters(record, on: date, by=None):
    """The Clerk-Treasurer prints and mails the letters about `record` on `on` (written that day), recording it."""
    from datetime import datetime, time

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from permits.letters import notices_about, record_mailing
    from permits.roles import Role
    from tests.conftest import staff_user

    waiting = notices_about(record).filter(channel="mail", mailed_on__isnull=True)
    if not waiting.exists():
        return 0  # emailed: given already
    waiting.update(created_at=timezone.make_aware(datetime.combine(on, time(9))))
    if by is None:
        by = get_user_model().objects.filter(username="mailing_clerk").first() or staff_user(
            "mailing_clerk", Role.CLERK
        )
    return record_mailing(notices=list(waiting), mailed_on=on, by=by, today=on)


def make_delinquent(parcel, **kwargs):
    charge = make_charge(parcel, **kwargs)
    if charge.billed_on:
        mail_letters(charge, charge.billed_on)  # owners without email are billed by letter, given when mailed
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
