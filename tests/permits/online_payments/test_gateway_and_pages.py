"""The gateway's confirmation is verified (Stripe's webhook signature, checked by django-payments' StripeProviderV3
with the stripe library) and idempotent; the pages, per role, with a fixed number of queries."""

from decimal import Decimal

import pytest
from django.urls import reverse

from permits.models import Payment, Status
from permits.online_payments import services
from permits.online_payments.models import OnlinePayment
from tests.permits.conftest import ALL_PERSONAS
from tests.permits.online_payments.conftest import (
    BASE,
    as_stripe_created,
    completed_event,
    confirm,
    permit_owing,
    post_webhook,
    signed,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def stripe_payment(stripe_gateway, owing, contractor):
    return as_stripe_created(services.start_permit_payment(owing, by=contractor, base_url=BASE))


@pytest.mark.slow
def test_303_4f_2_signed_webhook_records_the_payment_once_when_delivered_twice(client, stripe_payment, owing):
    payload = completed_event(stripe_payment)
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert post_webhook(client, payload, signed(payload)).status_code == 200  # Stripe retries
    payment = Payment.objects.get(permit=owing)
    assert payment.reference == "cs_test_a1B2c3" and payment.method == "card"  # the gateway's payment id
    stripe_payment.refresh_from_db()
    assert stripe_payment.outcome == OnlinePayment.Outcome.RECORDED


@pytest.mark.parametrize("signature", ["t=1,v1=deadbeef", "", "garbage"])
def test_303_4f_2_tampered_or_unsigned_confirmation_is_refused(client, stripe_payment, signature):
    payload = completed_event(stripe_payment)
    response = post_webhook(client, payload, signature or signed(payload, "whsec_someone_else"))
    assert response.status_code == 400
    assert not Payment.objects.exists()
    stripe_payment.refresh_from_db()
    assert stripe_payment.outcome == OnlinePayment.Outcome.OPEN


def test_303_4f_2_payload_changed_after_signing_is_refused(client, stripe_payment):
    payload = completed_event(stripe_payment)
    signature = signed(payload)
    assert post_webhook(client, payload.replace("pi_3TestIntent", "pi_other"), signature).status_code == 400
    assert not Payment.objects.exists()


# --- Pages ---------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_contractor_pays_through_the_pages_with_the_test_provider(client, owing, contractor):
    client.force_login(contractor)
    page = client.get(reverse("online_payments:pay_permit", args=[owing.number]))
    assert page.status_code == 200 and b"Pay $50.00 by card" in page.content
    response = client.post(reverse("online_payments:pay_permit", args=[owing.number]))
    op = OnlinePayment.objects.get()
    assert response.url == reverse("online_payments:card", args=[op.token])
    assert client.get(response.url).status_code == 200
    response = client.post(
        response.url, {"status": "confirmed", "fraud_status": "accept", "gateway_response": "3ds-disabled"}
    )
    assert response.status_code == 302
    result = client.get(reverse("online_payments:result", args=[op.token]))
    op.refresh_from_db()
    assert op.outcome == "recorded" and op.receipt_number.encode() in result.content
    assert client.get(reverse("permits:receipt_pdf", args=[op.receipt_number])).status_code == 200


@pytest.mark.parametrize("who", ALL_PERSONAS)
def test_pay_page_per_role(who, persona, client, owing):
    client.force_login(persona(who))
    status = client.get(reverse("online_payments:pay_permit", args=[owing.number])).status_code
    if who in {"contractor", "contractor_staff"}:
        assert status == 200
    else:
        assert status in {403, 404}


@pytest.mark.parametrize("who", ALL_PERSONAS)
def test_office_pages_are_the_clerks(who, persona, client):
    client.force_login(persona(who))
    for name in ("office_list", "settlements"):
        status = client.get(reverse(f"online_payments:{name}")).status_code
        assert status == (200 if who == "clerk" else 403)


def test_someone_elses_payment_is_not_found(client, owing, contractor, outsider):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    client.force_login(outsider)
    assert client.get(reverse("online_payments:result", args=[op.token])).status_code == 404
    assert client.get(reverse("online_payments:card", args=[op.token])).status_code == 404


def test_office_list_and_settlement_query_counts_do_not_grow(client, clerk, contractor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    client.force_login(clerk)
    day = timezone.localdate().isoformat()

    def counts():
        out = []
        for url in (reverse("online_payments:office_list"), reverse("online_payments:settlement", args=[day])):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            out.append(len(ctx.captured_queries))
        return out

    def pay(n):
        for _ in range(n):
            permit = permit_owing(Status.APPROVED, applicant=contractor)
            confirm(services.start_permit_payment(permit, by=contractor, base_url=BASE))

    pay(1)
    few = counts()
    pay(5)
    assert all(more <= less for more, less in zip(counts(), few, strict=True))  # no query per row
    assert b"$300.00" in client.get(reverse("online_payments:settlement", args=[day])).content
    csv_text = client.get(reverse("online_payments:settlement_csv", args=[day])).content.decode()
    assert "card_online" in csv_text and "300.00" in csv_text


def test_clerk_refunds_a_held_payment_from_the_office(client, clerk, owing, contractor):
    from permits.services import record_payment

    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    confirm(op)
    client.force_login(clerk)
    url = reverse("online_payments:refund_online", args=[op.token])
    assert b"Held" in client.get(reverse("online_payments:office_list")).content
    bad = client.post(url, {"reason": "short"})
    assert bad.status_code == 200 and b"at least 10" in bad.content
    assert client.post(url, {"reason": "Paid at the counter too"}).status_code == 302
    op.refresh_from_db()
    assert op.outcome == "refunded"
    assert b"Refund of $50.00" in client.get(owing.get_absolute_url()).content


def test_the_pay_pages_item_row_shows_its_amount(client, owing, contractor):
    client.force_login(contractor)
    page = client.get(reverse("online_payments:pay_permit", args=[owing.number]))
    lines = page.context["lines"]
    assert len(lines) == 1 and lines[0][1] == owing.fee_amount
    assert f'<td class="text-end">${owing.fee_amount}</td>' in page.content.decode()
