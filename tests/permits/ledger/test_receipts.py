"""Receipts of special-charge payments (Wis. Stat. § 66.0627(2): paid in full): a PDF for the Clerk-Treasurer and the
parcel's owners, 404 to everyone else, linked from the charge page."""

import pytest
from django.urls import reverse

from permits.ledger.services import record_charge_payment
from tests.permits.conftest import OTHER_STAFF
from tests.permits.ledger.conftest import make_charge

pytestmark = pytest.mark.django_db


@pytest.fixture
def payment(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    return record_charge_payment(charge=charge, amount="75.00", method="check", reference="1042", by=clerk)


def receipt_url(payment):
    return reverse("ledger:charge_receipt_pdf", args=[payment.charge.number, payment.receipt_number])


@pytest.mark.slow
@pytest.mark.parametrize("persona", ["clerk", "resident"])
def test_clerk_and_owner_get_the_receipt_pdf(client, request, payment, persona):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(receipt_url(payment))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf" and response.content[:5] == b"%PDF-"
    assert payment.receipt_number in response["Content-Disposition"]


def test_receipt_template_names_the_payment(payment):
    from django.template.loader import render_to_string

    html = render_to_string(
        "pdf/charge_receipt.html",
        {
            "payment": payment,
            "charge": payment.charge,
            "parcel": payment.charge.parcel,
        },
    )
    assert payment.receipt_number in html and "$75.00" in html and "1042" in html and "66.0627(2)" in html


@pytest.mark.parametrize("persona", ["outsider", "contractor", *OTHER_STAFF])
def test_others_get_404_for_the_receipt(client, request, payment, persona):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(receipt_url(payment)).status_code == 404


def test_anonymous_is_sent_to_login(client, payment):
    response = client.get(receipt_url(payment))
    assert response.status_code == 302 and "login" in response["Location"]


def test_receipt_of_another_charge_is_404(client, clerk, payment, other_parcel):
    other = make_charge(other_parcel, by=clerk)
    client.force_login(clerk)
    url = reverse("ledger:charge_receipt_pdf", args=[other.number, payment.receipt_number])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("persona", ["clerk", "resident"])
def test_charge_page_links_the_receipt(client, request, payment, persona):
    client.force_login(request.getfixturevalue(persona))
    page = client.get(payment.charge.get_absolute_url()).content.decode()
    assert receipt_url(payment) in page


def test_staff_without_receipt_access_see_no_receipt_link(client, dpw_director, payment):
    client.force_login(dpw_director)
    page = client.get(payment.charge.get_absolute_url()).content.decode()
    assert receipt_url(payment) not in page and payment.receipt_number in page
