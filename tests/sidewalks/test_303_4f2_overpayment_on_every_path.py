"""Money: $500 against a $50 fee is refused, never shown as "balance $0.00" with the difference
lost. The rule is in the service (permits.services.record_payment, § 303-4F(2); permits.ledger.services
.record_charge_payment, Wis. Stat. § 66.0627(2)); these tests pin that every payment path asks it: the sidewalk
counter, the admin's payment page, the Payment admin, the API and the ledger's charges."""

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from permits.ledger.models import ChargePayment
from permits.models import Payment, Permit
from tests.permits.ledger.conftest import make_charge

pytestmark = pytest.mark.django_db


def balance(permit):
    return Permit.objects.get(pk=permit.pk).balance_due


def test_303_4f2_sidewalk_counter_refuses_500_on_the_fee_and_keeps_the_balance(client, clerk, submitted):
    fee = submitted.fee_amount
    client.force_login(clerk)
    response = client.post(
        reverse("sidewalks:payment", args=[submitted.number]), {"amount": str(fee * 10), "method": "cash"}
    )
    assert response.status_code == 400
    assert "§ 303-4F(2)" in response.content.decode() and f"${fee:.2f}" in response.content.decode()
    assert not Payment.objects.exists() and balance(submitted) == fee


def test_303_4f2_sidewalk_counter_accepts_the_fee_exactly(client, clerk, submitted):
    client.force_login(clerk)
    response = client.post(
        reverse("sidewalks:payment", args=[submitted.number]), {"amount": str(submitted.fee_amount), "method": "cash"}
    )
    assert response.status_code == 302 and balance(submitted) == Decimal("0.00")


def test_303_4f2_admin_payment_page_refuses_one_cent_over(client, clerk, submitted):
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_permit_payment", args=[submitted.pk]),
        {"amount": str(submitted.fee_amount + Decimal("0.01")), "method": "cash"},
    )
    assert "§ 303-4F(2)" in response.content.decode()
    assert not Payment.objects.exists()


def test_303_4f2_payment_admin_has_no_add_form(client, clerk):
    client.force_login(clerk)
    assert client.get(reverse("admin:permits_payment_add")).status_code == 403


def test_303_4f2_the_api_records_no_payment(contractor, contractor_org, submitted):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    url = f"/api/v1/sidewalk-permits/{submitted.number}/"
    for method in (api.patch, api.put):
        method(url, {"amount_paid": "500.00", "balance_due": "0.00"}, format="json")
    assert not Payment.objects.exists() and balance(submitted) == submitted.fee_amount


def test_66_0627_2_ledger_refuses_overpaying_a_charge(client, clerk, home):
    charge = make_charge(home, by=clerk, amount="50.00")
    client.force_login(clerk)
    response = client.post(
        reverse("ledger:charge_payment", args=[charge.number]), {"amount": "500.00", "method": "cash"}
    )
    assert response.status_code == 400 and "66.0627(2)" in response.content.decode()
    assert not ChargePayment.objects.exists()
    charge.refresh_from_db()
    assert charge.balance_due == Decimal("50.00")
