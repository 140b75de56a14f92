"""The reports' world: records placed on known days (straight through the ORM: the reports only read them), and the
day frozen at December 1, 2026, noon in Theresa."""

from datetime import date, datetime, time
from decimal import Decimal
from itertools import count
from zoneinfo import ZoneInfo

import pytest
import time_machine

from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Payment, Permit
from tests.factories import ParcelFactory, PermitFactory

CHICAGO = ZoneInfo("America/Chicago")
TODAY = date(2026, 12, 1)
_receipts = count(1)


def at(day: date, hour: int = 10) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=CHICAGO)


@pytest.fixture(autouse=True)
def _frozen_today():
    with time_machine.travel(at(TODAY, 12), tick=False):
        yield


def paid_permit(clerk, amount: str, on: datetime, *, fee_code: str = "street_opening", kind="street_opening"):
    permit = PermitFactory(kind=kind, fee_code=fee_code, fee_amount=Decimal(amount))
    return Payment.objects.create(
        permit=permit,
        amount=Decimal(amount),
        method=Payment.Method.CASH,
        receipt_number=f"R-T-{next(_receipts)}",
        received_by=clerk,
        received_at=on,
    )


def charge(parcel=None, *, amount="75.00", status=SpecialCharge.Status.BILLED, billed_on=None, incurred_on=None, **kw):
    parcel = parcel or ParcelFactory()
    return SpecialCharge.objects.create(
        number=f"SC-T-{next(_receipts)}",
        parcel=parcel,
        source=kw.pop("source", SpecialCharge.Source.SNOW_ICE),
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=Decimal(amount),
        description="Snow removed by the Village",
        citation="§ 303-8B",
        incurred_on=incurred_on or billed_on or TODAY,
        billed_on=billed_on,
        status=status,
        **kw,
    )


def paid_charge(clerk, amount: str, on: datetime, **kw):
    c = charge(amount=amount, status=SpecialCharge.Status.PAID, billed_on=on.date(), **kw)
    return ChargePayment.objects.create(
        charge=c,
        amount=Decimal(amount),
        method=ChargePayment.Method.CHECK,
        reference="1042",
        receipt_number=f"RC-T-{next(_receipts)}",
        received_by=clerk,
        received_at=on,
    )


def issued_permit(*, submitted: datetime, issued_on: date, kind="street_opening") -> Permit:
    permit = PermitFactory(kind=kind)
    # Straight to the columns the report reads: the workflow's own stamps are tested with the workflow.
    Permit.objects.filter(pk=permit.pk).update(status="issued", submitted_at=submitted, issued_on=issued_on)
    return permit
