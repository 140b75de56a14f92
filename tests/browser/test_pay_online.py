"""A contractor pays a street opening fee online by card (django-payments' test provider) and gets the receipt at
once; a resident pays a snow-removal charge online in full; the clerk refunds a held duplicate and reconciles the day.
axe-core on every page visited."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge
from permits.models import Payment, Permit, PermitKind, Status
from permits.online_payments.models import OnlinePayment
from permits.services import record_payment
from tests.browser import steps
from tests.factories import ParcelFactory
from tests.permits.conftest import permit_in
from tests.permits.online_payments.conftest import _dummy_gateway  # noqa: F401 (autouse: the test card provider)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def card_form(page, axe_check, status="confirmed"):
    axe_check(page, "card step (test provider)")
    page.get_by_label(re.compile(r"^\s*Status")).select_option(status)
    page.get_by_label(re.compile(r"^\s*Fraud status")).select_option("accept")
    page.get_by_label(re.compile(r"^\s*Gateway response")).select_option("3ds-disabled")
    with page.expect_navigation():
        page.get_by_role("button", name="Submit card payment").click()


def pay_by_card(page, axe_check, amount, *, shows, status="confirmed"):
    """From the page with the pay link: the pay page (which must show `shows`), then the test provider's card step."""
    page.get_by_role("link", name=f"Pay ${amount} online by card").click()
    axe_check(page, "pay page")
    assert shows in page.content()
    page.get_by_role("button", name=f"Pay ${amount} by card").click()
    card_form(page, axe_check, status=status)


def test_contractor_pays_a_street_opening_fee_by_card_and_gets_the_receipt(
    page, live_server, axe_check, contractor, contractor_org
):
    steps.verified(contractor)
    permit = permit_in(
        Status.UNDER_REVIEW, kind=PermitKind.STREET_OPENING, applicant=contractor, organization=contractor_org
    )
    Permit.objects.filter(pk=permit.pk).update(
        fee_amount=Decimal("50.00"),
        fee_code="street_opening",
        fee_basis="Street opening permit (§ 303-4F(2)), schedule in force from 2026-01-01",
    )
    steps.sign_in(page, live_server, "contractor")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    axe_check(page, "permit page")

    # A failed attempt first: nothing taken, the balance unchanged, and the page says so.
    pay_by_card(page, axe_check, "50.00", shows="§ 303-4F(2)", status="rejected")
    expect(page.get_by_role("heading", name="Payment not taken")).to_be_visible()
    assert "balance is unchanged" in page.content()
    axe_check(page, "failed payment")
    assert not Payment.objects.exists()

    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    pay_by_card(page, axe_check, "50.00", shows="§ 303-4F(2)")
    expect(page.get_by_role("heading", name="Payment received")).to_be_visible()
    axe_check(page, "payment received")
    payment = Payment.objects.get(permit=permit)
    assert payment.receipt_number.startswith("R-") and payment.method == "card"
    link = page.get_by_role("link", name=f"Receipt {payment.receipt_number} (PDF)")
    response = page.request.get(live_server.url + link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")

    page.get_by_role("link", name=f"Back to {permit.number}").click()
    expect(page.locator("main")).to_contain_text("balance due $0.00")  # waits for the permit page to load
    assert not page.get_by_role("link", name=re.compile("online by card")).count()


def test_resident_pays_a_snow_charge_and_the_clerk_refunds_a_duplicate(
    page, live_server, axe_check, resident, clerk, contractor, contractor_org
):
    steps.verified(resident, clerk)
    parcel = ParcelFactory(owner_email="olga@example.com")
    parcel.owners.add(resident)
    today = timezone.localdate()
    charge = add_charge(
        parcel=parcel,
        source=SpecialCharge.Source.SNOW_ICE,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount="85.00",
        incurred_on=today,
        description="Snow removed from the sidewalk",
        citation="§ 303-8B",
        by=clerk,
        today=today,
    )
    steps.sign_in(page, live_server, "resident")
    page.goto(f"{live_server.url}{charge.get_absolute_url()}")
    axe_check(page, "charge page")
    pay_by_card(page, axe_check, "85.00", shows="not payable in installments")
    expect(page.get_by_role("heading", name="Payment received")).to_be_visible()
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.PAID
    steps.log_out(page)

    # A duplicate for the clerk: a permit paid at the counter while an online payment was open.
    from permits.online_payments import services

    permit = permit_in(Status.APPROVED, applicant=contractor, organization=contractor_org)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("40.00"))
    op = services.start_permit_payment(permit, by=contractor, base_url=live_server.url)
    record_payment(permit=permit, amount=Decimal("40.00"), method="cash", by=clerk)
    op.change_status("confirmed")
    assert OnlinePayment.objects.get(pk=op.pk).outcome == "held"

    steps.sign_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/office/online-payments/")
    axe_check(page, "online payments (office)")
    page.get_by_role("link", name=f"Refund $40.00 for {permit.number}").click()
    axe_check(page, "refund form")
    page.get_by_label(re.compile(r"^\s*Reason for the refund")).fill("Twice")
    page.get_by_role("button", name="Record the refund").click()
    expect(page.locator("main")).to_contain_text("at least 10 characters")
    axe_check(page, "refund form with errors")
    page.get_by_label(re.compile(r"^\s*Reason for the refund")).fill("Paid at the counter the same day")
    page.get_by_role("button", name="Record the refund").click()
    assert OnlinePayment.objects.get(pk=op.pk).outcome == "refunded"
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    assert "Refund of $40.00 to the card" in page.content()

    page.goto(f"{live_server.url}/office/settlement/")
    axe_check(page, "settlements")
    page.goto(f"{live_server.url}/office/settlement/{today.isoformat()}/")
    axe_check(page, "settlement of the day")
    assert "$125.00" in page.content()  # 85.00 online + 40.00 cash: the receipts of the day
    page.get_by_label(re.compile(r"^\s*Gateway payout")).fill("85.00")
    page.get_by_role("button", name="Reconcile").click()
    expect(page.locator("main")).to_contain_text("reconciled")
    axe_check(page, "settlement reconciled")
