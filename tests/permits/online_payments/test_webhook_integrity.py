"""A signed Stripe event changes only its own payment, once, and nothing after the outcome (issue 29 items 1-3).

The race (eight deliveries of one event at once) needs PostgreSQL (SQLite serializes every write); the stale copy
that race produced is also reproduced here step by step, so the SQLite pass covers the cause."""

import pytest
from django.utils import timezone
from payments import PaymentStatus

from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Payment
from permits.online_payments import services
from permits.online_payments.gateway import event_matches_payment
from permits.online_payments.models import OnlinePayment, Refund
from tests.concurrency import at_once, on_postgresql
from tests.permits.ledger.conftest import make_charge
from tests.permits.online_payments.conftest import (
    BASE,
    as_stripe_created,
    permit_owing,
    post_webhook,
    session_event,
    signed,
)

Outcome = OnlinePayment.Outcome


def deliver(client, op, **event):
    payload = session_event(op, **event)
    return post_webhook(client, payload, signed(payload))


@pytest.fixture
def refunds_at_stripe(monkeypatch):
    """Stripe's Refund.create, answered as Stripe answers it (the outside world, mocked)."""
    made = []

    def create(**kwargs):
        made.append(kwargs)
        return {"id": f"re_{len(made)}", "object": "refund", **kwargs}

    monkeypatch.setattr("stripe.Refund.create", create)
    return made


def start(kind, *, contractor, resident, parcel, session_id="cs_test_a1B2c3"):
    if kind == "permit":
        permit = permit_owing(applicant=contractor)
        op = services.start_permit_payment(permit, by=contractor, base_url=BASE)
    else:
        charge = make_charge(parcel, today=timezone.localdate())
        op = services.start_charge_payment(charge, by=resident, base_url=BASE)
    return as_stripe_created(op, session_id)


def receipts_of(op) -> int:
    if op.purpose == OnlinePayment.Purpose.PERMIT:
        return Payment.objects.filter(permit_id=op.permit_id).count()
    return ChargePayment.objects.filter(charge_id=op.charge_id).count()


def assert_recorded_once(op):
    op.refresh_from_db()
    assert op.outcome == Outcome.RECORDED and op.receipt_number
    assert op.status == PaymentStatus.CONFIRMED
    assert op.attrs.session["payment_intent"] == "pi_3TestIntent"  # what a refund goes back through
    assert receipts_of(op) == 1
    assert not OnlinePayment.objects.exclude(pk=op.pk).exists()


# --- Item 1: duplicate deliveries --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["permit", "charge"])
def test_303_4f_2_a_stale_copy_saved_after_settlement_keeps_the_receipt(
    kind, stripe_gateway, client, contractor, resident, parcel
):
    """What the race did, step by step: a second delivery loaded the payment before the first settled it, then the
    library saved that copy ("open", no receipt) over the recorded payment."""
    op = start(kind, contractor=contractor, resident=resident, parcel=parcel)
    stale = OnlinePayment.objects.get(pk=op.pk)
    assert deliver(client, op).status_code == 200
    stale.captured_amount = stale.total
    stale.change_status(PaymentStatus.CONFIRMED)  # the duplicate's status change: settle() finds it recorded
    stale.attrs.session = {"id": op.transaction_id, "payment_intent": "pi_3TestIntent"}
    stale.save()  # StripeProviderV3.process_data's last line
    assert_recorded_once(op)


@on_postgresql
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("kind", ["permit", "charge"])
def test_303_4f_2_eight_signed_deliveries_at_once_record_one_receipt(
    kind, stripe_gateway, contractor, resident, parcel
):
    from django.test import Client

    op = start(kind, contractor=contractor, resident=resident, parcel=parcel)
    statuses, errors = at_once(8, lambda: deliver(Client(), op).status_code)
    assert not errors and statuses == [200] * 8
    assert_recorded_once(op)


# --- Item 2: an event is about one payment -----------------------------------------------------------------------


@pytest.fixture
def two_payments(stripe_gateway, contractor, resident, parcel):
    a = start("permit", contractor=contractor, resident=resident, parcel=parcel, session_id="cs_test_A")
    b = start("charge", contractor=contractor, resident=resident, parcel=parcel, session_id="cs_test_B")
    return a, b


@pytest.mark.django_db
def test_303_4f_2_an_event_for_a_posted_to_bs_own_address_confirms_nothing(client, two_payments):
    a, b = two_payments
    payload = session_event(a)
    response = post_webhook(client, payload, signed(payload), url=f"/payments/process/{b.token}/")
    assert response.status_code == 404  # Stripe Checkout reports to the webhook only
    b.refresh_from_db()
    assert b.outcome == Outcome.OPEN and b.status == PaymentStatus.WAITING and not ChargePayment.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("mixed", ["session_of_a", "reference_of_a"])
def test_303_4f_2_a_signed_event_mixing_two_payments_is_refused(client, two_payments, mixed):
    a, b = two_payments
    # Aimed at B (by its token, or by its session), but about A's money by the other field.
    payload = session_event(b).replace(b.transaction_id if mixed == "session_of_a" else str(b.token), "X")
    payload = payload.replace('"X"', f'"{a.transaction_id if mixed == "session_of_a" else a.token}"')
    response = post_webhook(client, payload, signed(payload))
    assert response.status_code in {400, 404}
    for op in (a, b):
        op.refresh_from_db()
        assert op.outcome == Outcome.OPEN and op.status == PaymentStatus.WAITING
    assert not Payment.objects.exists() and not ChargePayment.objects.exists()


def test_303_4f_2_event_matches_only_its_own_session_and_token():
    session = {"id": "cs_1", "client_reference_id": "tok"}
    assert event_matches_payment(session, transaction_id="cs_1", token="tok")
    assert not event_matches_payment(session, transaction_id="cs_2", token="tok")
    assert not event_matches_payment(session, transaction_id="cs_1", token="other")
    assert not event_matches_payment({"client_reference_id": "tok"}, transaction_id="", token="tok")


@pytest.mark.django_db
def test_the_demos_per_payment_address_still_serves_the_test_provider(client, owing, contractor):
    """The dummy provider's 3-D Secure step returns to the per-payment address (the embedded demo only)."""
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    response = client.get(f"/payments/process/{op.token}/", {"verification_result": "confirmed"})
    assert response.status_code == 302
    op.refresh_from_db()
    assert op.outcome == Outcome.RECORDED


# --- Item 3: nothing changes after the outcome -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["permit", "charge"])
def test_303_4f_2_a_stray_expired_event_after_the_receipt_changes_nothing_and_the_clerk_refunds(
    kind, stripe_gateway, client, contractor, resident, parcel, clerk, refunds_at_stripe
):
    op = start(kind, contractor=contractor, resident=resident, parcel=parcel)
    assert deliver(client, op).status_code == 200
    assert deliver(client, op, kind="checkout.session.expired", event_id="evt_2").status_code == 200
    assert_recorded_once(op)
    refund = services.refund_online_payment(op, by=clerk, reason="Paid twice, once at the counter")
    assert refund.channel == Refund.Channel.GATEWAY and refunds_at_stripe[0]["payment_intent"] == "pi_3TestIntent"
    op.refresh_from_db()
    assert op.outcome == Outcome.REFUNDED and op.status == PaymentStatus.REFUNDED
    if kind == "charge":
        assert op.charge.status == SpecialCharge.Status.BILLED  # owed again


@pytest.mark.django_db
def test_303_4f_2_an_expired_session_before_any_outcome_is_a_failed_payment(stripe_gateway, client, contractor):
    op = as_stripe_created(
        services.start_permit_payment(permit_owing(applicant=contractor), by=contractor, base_url=BASE)
    )
    assert deliver(client, op, kind="checkout.session.expired").status_code == 200
    op.refresh_from_db()
    assert op.outcome == Outcome.FAILED and op.status == PaymentStatus.REJECTED and not Payment.objects.exists()


@pytest.mark.django_db
def test_303_4f_2_a_late_payment_of_an_abandoned_attempt_is_held_not_lost(stripe_gateway, client, contractor):
    permit = permit_owing(applicant=contractor)
    first = as_stripe_created(services.start_permit_payment(permit, by=contractor, base_url=BASE), "cs_first")
    second = as_stripe_created(services.start_permit_payment(permit, by=contractor, base_url=BASE), "cs_second")
    assert deliver(client, second).status_code == 200
    assert deliver(client, first).status_code == 200  # the first tab was paid too
    first.refresh_from_db()
    second.refresh_from_db()
    assert (second.outcome, first.outcome) == (Outcome.RECORDED, Outcome.HELD)
    assert Payment.objects.filter(permit=permit).count() == 1
