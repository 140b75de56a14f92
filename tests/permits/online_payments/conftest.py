"""Helpers of the online-payment tests: a permit with a fee due, found complete, and a billed special charge."""

from decimal import Decimal

import pytest
from payments import PaymentStatus
from payments.core import PROVIDER_CACHE

from permits.models import Permit, Status
from tests.permits.conftest import permit_in
from tests.permits.ledger.conftest import (
    make_charge,  # noqa: F401
    parcel,  # noqa: F401
)

BASE = "http://testserver/"


@pytest.fixture(autouse=True)
def _dummy_gateway(settings):
    settings.PAYMENT_VARIANTS = {"card": ("payments.dummy.DummyProvider", {})}
    settings.ONLINE_PAYMENT_VARIANT = "card"
    PROVIDER_CACHE.clear()
    yield
    PROVIDER_CACHE.clear()


def permit_owing(status=Status.UNDER_REVIEW, *, applicant, fee="50.00", **fields):
    permit = permit_in(status, applicant=applicant, **fields)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal(fee), fee_code="street_opening")
    permit.refresh_from_db()
    return permit


@pytest.fixture
def owing(contractor, contractor_org):
    return permit_owing(applicant=contractor, organization=contractor_org)


def confirm(op, status=PaymentStatus.CONFIRMED):
    """What the gateway does when the card is charged: the status changes (and django-payments signals it)."""
    op.refresh_from_db()
    op.change_status(status)
    op.refresh_from_db()
    return op
