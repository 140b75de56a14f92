"""Helpers of the online-payment tests: a permit with a fee due, found complete, and a billed special charge."""

import hashlib
import hmac
import json
import time
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


# --- Stripe Checkout, as the gateway's webhook delivers it -----------------------------------------------------

SECRET = "whsec_test_secret"
STRIPE = "permits.online_payments.gateway.StripeCheckoutProvider"  # as settings.py loads it


@pytest.fixture
def stripe_gateway(settings):
    settings.PAYMENT_VARIANTS = {"card": (STRIPE, {"api_key": "sk_test_x", "endpoint_secret": SECRET})}
    PROVIDER_CACHE.clear()
    yield
    PROVIDER_CACHE.clear()


def signed(payload: str, secret: str = SECRET) -> str:
    """The Stripe-Signature header Stripe sends (t=..., v1=HMAC-SHA256 of "t.payload"), as its docs describe."""
    t = int(time.time())
    v1 = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={t},v1={v1}"


def session_event(op, *, kind="checkout.session.completed", event_id="evt_1", intent="pi_3TestIntent") -> str:
    """A checkout.session.* event about `op`'s Checkout Session, as Stripe delivers it (completed: paid)."""
    expired = kind == "checkout.session.expired"
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": kind,
            "data": {
                "object": {
                    "id": op.transaction_id,
                    "object": "checkout.session",
                    "client_reference_id": str(op.token),
                    "payment_intent": None if expired else intent,
                    "payment_status": "unpaid" if expired else "paid",
                    "status": "expired" if expired else "complete",
                }
            },
        }
    )


def completed_event(op) -> str:
    return session_event(op)


def as_stripe_created(op, session_id="cs_test_a1B2c3"):
    """What Session.create answers, kept as StripeProviderV3.get_form keeps it: the session's id."""
    type(op).objects.filter(pk=op.pk).update(transaction_id=session_id)
    op.refresh_from_db()
    return op


def post_webhook(client, payload, signature, url="/payments/process/card/"):
    return client.post(url, data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature)
