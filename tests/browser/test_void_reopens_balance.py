"""§ 303-4F(2): the Clerk-Treasurer voids a counter receipt recorded in error on its day, from the day's settlement;
the permit owes its fee again, its page marks the receipt voided, and the applicant can pay it online again.
axe-core on every page visited."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from permits.models import Permit, Status
from permits.services import record_payment
from tests.browser import steps
from tests.permits.conftest import permit_in
from tests.permits.online_payments.conftest import _dummy_gateway  # noqa: F401 (autouse: the test card provider)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_303_4f_2_clerk_voids_a_receipt_and_the_fee_is_owed_again(
    page, live_server, axe_check, clerk, contractor, contractor_org
):
    steps.verified(clerk, contractor)
    permit = permit_in(Status.APPROVED, applicant=contractor, organization=contractor_org)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("40.00"))
    payment = record_payment(permit=permit, amount=Decimal("40.00"), method="cash", by=clerk)

    steps.sign_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/office/settlement/{timezone.localdate().isoformat()}/")
    axe_check(page, "settlement of the day")
    page.get_by_role("link", name=f"Refund or void {payment.receipt_number}").click()
    axe_check(page, "refund or void form")
    page.get_by_label("Void").check()
    page.get_by_label(re.compile(r"^\s*Reason for the refund")).fill("Recorded on the wrong permit")
    page.get_by_role("button", name="Record the refund").click()
    page.wait_for_load_state()
    assert Permit.objects.get(pk=permit.pk).balance_due_as_stored() == Decimal("40.00")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    axe_check(page, "permit page with a voided receipt")
    content = page.content()
    assert "Voided" in content and "balance due $40.00" in content
    steps.log_out(page)

    steps.sign_in(page, live_server, "contractor")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    expect(page.get_by_role("link", name="Pay $40.00 online by card")).to_be_visible()


def test_chapter_167_applicant_withdraws_a_paid_application_and_the_clerk_refunds_it(
    page, live_server, axe_check, clerk, contractor, contractor_org
):
    steps.verified(clerk, contractor)
    permit = permit_in(Status.UNDER_REVIEW, applicant=contractor, organization=contractor_org)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("40.00"))  # the fee is not kept (fee_kept $0.00)
    payment = record_payment(permit=permit, amount=Decimal("40.00"), method="cash", by=clerk)

    # The applicant withdraws from the permit page: nothing is owed, the fee paid is a refund due, no pay link.
    steps.sign_in(page, live_server, "contractor")
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    page.get_by_label(f"I withdraw application {permit.number}").check()
    page.get_by_role("button", name=f"Withdraw {permit.number}").click()
    page.wait_for_load_state()
    axe_check(page, "withdrawn application with a fee paid")
    expect(page.get_by_text("Refund due $40.00").first).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("online by card"))).to_have_count(0)
    page.goto(f"{live_server.url}/permits/")
    axe_check(page, "my applications with a refund due")
    expect(page.get_by_role("cell", name="Refund due $40.00")).to_be_visible()
    steps.log_out(page)

    # The Clerk-Treasurer sees it in her office list and records the refund from the permit page.
    steps.sign_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/office/")
    axe_check(page, "office list with a refund due")
    expect(page.get_by_role("cell", name="Refund due $40.00")).to_be_visible()
    page.goto(f"{live_server.url}{permit.get_absolute_url()}")
    axe_check(page, "withdrawn permit, the clerk's view")
    page.get_by_role("link", name=f"Record the refund of receipt {payment.receipt_number}").click()
    axe_check(page, "refund form of a withdrawn application")
    page.get_by_label(re.compile(r"^\s*Reason for the refund")).fill("Application withdrawn")
    page.get_by_label("Village check number").fill("7001")
    page.get_by_role("button", name="Record the refund").click()
    page.wait_for_load_state()
    axe_check(page, "withdrawn permit after the refund")
    expect(page.get_by_text("no refund due")).to_be_visible()
    assert Permit.objects.get(pk=permit.pk).refund_due_as_stored() == Decimal("0.00")
    assert Permit.objects.get(pk=permit.pk).balance_due_as_stored() == Decimal("0.00")
