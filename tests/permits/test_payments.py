"""§ 303-4F(2): the Clerk-Treasurer records payments and issues numbered receipts (PDF)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits.models import Payment, Permit, PermitEvent, Status
from permits.services import record_payment
from tests.permits.conftest import OTHER_STAFF, permit_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def approved(resident):
    permit = permit_in(Status.APPROVED, applicant=resident)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("75.00"))
    permit.refresh_from_db()
    return permit


def test_303_4f_2_clerk_records_a_cash_payment_with_a_numbered_receipt(approved, clerk):
    payment = record_payment(permit=approved, amount=Decimal("74.00"), method="cash", by=clerk)
    year = payment.received_at.year
    assert payment.receipt_number == f"R-{year}-0001"
    second = record_payment(
        permit=approved,
        amount=Decimal("1.00"),
        method="check",
        reference="1042",
        by=clerk,
    )
    assert second.receipt_number == f"R-{year}-0002"
    event = approved.events.filter(kind=PermitEvent.Kind.PAYMENT).first()
    assert "receipt R-" in event.reason and event.actor == clerk


@pytest.mark.parametrize("who", [*OTHER_STAFF, "resident", "outsider", "contractor"])
def test_303_4f_2_only_the_clerk_records_payments(who, persona, approved):
    with pytest.raises(PermissionDenied, match="303-4F"):
        record_payment(permit=approved, amount=Decimal("75.00"), method="cash", by=persona(who))
    assert not Payment.objects.exists()


def test_303_4f_2_amount_zero_refused(approved, clerk):
    with pytest.raises(ValidationError) as error:
        record_payment(permit=approved, amount=Decimal("0.00"), method="cash", by=clerk)
    assert "amount" in error.value.message_dict
    assert not Payment.objects.exists()


def test_303_4f_2_negative_amount_refused(approved, clerk):
    with pytest.raises(ValidationError):
        record_payment(permit=approved, amount=Decimal(-5), method="cash", by=clerk)


def test_303_4f_2_one_cent_accepted(approved, clerk):
    payment = record_payment(permit=approved, amount=Decimal("0.01"), method="cash", by=clerk)
    assert payment.amount == Decimal("0.01")
    assert Permit.objects.get(pk=approved.pk).amount_paid == Decimal("0.01")


@pytest.mark.parametrize("method", ["check", "card"])
def test_303_4f_2_check_or_card_without_reference_refused(approved, clerk, method):
    with pytest.raises(ValidationError) as error:
        record_payment(
            permit=approved,
            amount=Decimal(10),
            method=method,
            reference="  ",
            by=clerk,
        )
    assert "reference" in error.value.message_dict
    assert not Payment.objects.exists()


def test_unknown_method_refused(approved, clerk):
    with pytest.raises(ValidationError) as error:
        record_payment(
            permit=approved,
            amount=Decimal(10),
            method="bitcoin",
            reference="x",
            by=clerk,
        )
    assert "method" in error.value.message_dict


def test_float_amount_is_not_accepted_as_money(approved, clerk):
    with pytest.raises((TypeError, ValidationError)):
        record_payment(permit=approved, amount=0.1, method="cash", by=clerk)


def test_balance_due_falls_with_payments(approved, clerk):
    record_payment(
        permit=approved,
        amount=Decimal("25.00"),
        method="card",
        reference="AUTH 1",
        by=clerk,
    )
    permit = Permit.objects.get(pk=approved.pk)
    assert permit.amount_paid == Decimal("25.00")
    assert permit.balance_due == Decimal("50.00")


@pytest.mark.parametrize("who", ["resident", "clerk", "dpw_director", "police_chief"])
def test_receipt_pdf_renders_for_the_applicant_and_staff(who, persona, approved, clerk, client):
    payment = record_payment(permit=approved, amount=Decimal("75.00"), method="cash", by=clerk)
    client.force_login(persona(who))
    response = client.get(reverse("permits:receipt_pdf", args=[payment.receipt_number]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_receipt_pdf_is_404_for_an_outsider(approved, clerk, outsider, client):
    payment = record_payment(permit=approved, amount=Decimal("75.00"), method="cash", by=clerk)
    client.force_login(outsider)
    assert client.get(reverse("permits:receipt_pdf", args=[payment.receipt_number])).status_code == 404
    assert client.get(reverse("permits:receipt_pdf", args=["R-2026-9999"])).status_code == 404


def test_receipt_pdf_sends_anonymous_to_login(approved, clerk, client):
    payment = record_payment(permit=approved, amount=Decimal("75.00"), method="cash", by=clerk)
    response = client.get(reverse("permits:receipt_pdf", args=[payment.receipt_number]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_admin_record_payment_page_works_for_the_clerk(approved, clerk, client):
    client.force_login(clerk)
    url = reverse("admin:permits_permit_payment", args=[approved.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "Record a payment for" in page.content.decode()
    response = client.post(url, {"amount": "75.00", "method": "check", "reference": "1042", "note": ""})
    assert response.status_code == 302
    payment = Payment.objects.get()
    assert payment.amount == Decimal("75.00") and payment.reference == "1042" and payment.received_by == clerk
    assert Permit.objects.get(pk=approved.pk).balance_due == Decimal("0.00")


def test_admin_record_payment_shows_field_errors(approved, clerk, client):
    client.force_login(clerk)
    url = reverse("admin:permits_permit_payment", args=[approved.pk])
    response = client.post(url, {"amount": "0", "method": "check", "reference": ""})
    html = response.content.decode()
    assert response.status_code == 200
    assert "The amount must be more than $0.00." in html
    assert "A check number or card reference is required" in html
    assert not Payment.objects.exists()


@pytest.mark.parametrize("who", OTHER_STAFF)
def test_admin_record_payment_page_is_forbidden_to_other_staff(who, persona, approved, client):
    client.force_login(persona(who))
    url = reverse("admin:permits_permit_payment", args=[approved.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"amount": "75.00", "method": "cash"}).status_code == 403
    assert not Payment.objects.exists()


def test_payment_database_constraints():
    from django.db import IntegrityError, transaction

    from tests.factories import UserFactory

    permit = permit_in(Status.SUBMITTED)
    user = UserFactory()
    now = datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            permit=permit,
            amount=Decimal(0),
            method="cash",
            receipt_number="X1",
            received_by=user,
            received_at=now,
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            permit=permit,
            amount=Decimal(5),
            method="check",
            reference="",
            receipt_number="X2",
            received_by=user,
            received_at=now,
        )
