"""§ 303-4F(2), Wis. Stat. § 66.0627(2), (4): a refunded or voided payment no longer pays anything. The permit (or
the special charge) owes it again, exactly once, wherever the balance is read: Permit.paid_as_stored and the lists'
paid_total annotation, the detail pages, the receipt, the pay-online rule; a special charge moves back to billed (or
delinquent, its dates kept) through an audited state change."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from permits.errors import RulesBroken
from permits.ledger.models import SpecialCharge
from permits.ledger.services import mark_delinquent_charges, record_charge_payment
from permits.ledger.views import charges_visible_to
from permits.models import Permit, StateChange
from permits.online_payments import rules, services
from permits.online_payments.models import OnlinePayment, Refund
from permits.selectors import permits_visible_to, with_paid_total
from permits.services import record_payment
from tests.permits.conftest import ALL_PERSONAS
from tests.permits.ledger.conftest import BILLED, LATE, make_charge
from tests.permits.online_payments.conftest import BASE, confirm, permit_owing

pytestmark = pytest.mark.django_db
S = SpecialCharge.Status
REASON = "Application withdrawn by the contractor"


def annotated(permit) -> Decimal:
    return with_paid_total(Permit.objects.filter(pk=permit.pk)).get().balance_due


# --- A permit's fee ------------------------------------------------------------------------------------------------


def test_303_4f_2_refund_of_a_full_counter_payment_reopens_the_whole_balance(owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    assert owing.balance_due_as_stored() == 0 and annotated(owing) == 0
    services.refund_receipt(payment.receipt_number, by=clerk, reason=REASON, reference="5001")
    owing.refresh_from_db()
    assert owing.paid_as_stored() == 0
    assert owing.balance_due_as_stored() == Decimal("50.00")
    assert annotated(owing) == Decimal("50.00")  # the lists' annotation, the same answer
    # Exactly once: a second refund is refused and the balance is not reopened twice.
    with pytest.raises(RulesBroken, match="already refunded"):
        services.refund_receipt(payment.receipt_number, by=clerk, reason=REASON)
    assert owing.balance_due_as_stored() == Decimal("50.00") and annotated(owing) == Decimal("50.00")


def test_303_4f_2_refund_of_one_of_two_payments_reopens_that_part_only(owing, clerk):
    # A refund is always of a whole payment (no partial refund of a receipt): refunding one of two reopens its part.
    first = record_payment(permit=owing, amount=Decimal("20.00"), method="cash", by=clerk)
    record_payment(permit=owing, amount=Decimal("30.00"), method="check", reference="118", by=clerk)
    refund = services.refund_receipt(first.receipt_number, by=clerk, reason=REASON, reference="5002")
    assert refund.amount == first.amount
    assert owing.balance_due_as_stored() == Decimal("20.00") and annotated(owing) == Decimal("20.00")


def test_303_4f_2_void_on_the_day_reopens_the_balance(owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    today = timezone.localdate(payment.received_at)
    services.refund_receipt(payment.receipt_number, by=clerk, reason="Recorded on the wrong permit", kind="void")
    assert owing.balance_due_as_stored() == Decimal("50.00")
    assert Refund.objects.get().kind == Refund.Kind.VOID
    assert today == timezone.localdate()


def test_303_4f_2_void_the_day_after_is_refused_and_the_fee_stays_paid(owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    tomorrow = timezone.localdate(payment.received_at) + timedelta(days=1)
    with pytest.raises(RulesBroken, match="voided only on the day"):
        services.refund_receipt(
            payment.receipt_number, by=clerk, reason="Recorded on the wrong permit", kind="void", today=tomorrow
        )
    assert owing.balance_due_as_stored() == 0 and annotated(owing) == 0


@pytest.mark.parametrize("who", [p for p in ALL_PERSONAS if p != "clerk"])
def test_303_4f_2_only_the_clerk_refunds_a_receipt_and_the_fee_stays_paid(who, persona, owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    with pytest.raises(PermissionDenied, match="Clerk-Treasurer"):
        services.refund_receipt(payment.receipt_number, by=persona(who), reason=REASON)
    assert not Refund.objects.exists() and owing.balance_due_as_stored() == 0


def test_303_4f_2_online_refund_reopens_the_balance_and_it_can_be_paid_again(owing, contractor, clerk):
    op = confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    assert owing.balance_due_as_stored() == 0
    services.refund_online_payment(op, by=clerk, reason="Paid for the wrong permit")
    assert owing.balance_due_as_stored() == Decimal("50.00") and annotated(owing) == Decimal("50.00")
    again = confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    assert again.outcome == OnlinePayment.Outcome.RECORDED and again.balance_amount == Decimal("50.00")
    assert owing.balance_due_as_stored() == 0


def test_303_4f_2_a_refunded_held_payment_changes_no_balance(owing, contractor, clerk):
    # Held money was never on the books: refunding it leaves the counter payment paying the fee.
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    held = confirm(op)
    services.refund_online_payment(held, by=clerk, reason="Paid twice: at the counter and online")
    assert owing.balance_due_as_stored() == 0 and annotated(owing) == 0


def test_303_4f_2_detail_page_and_receipt_show_the_refund_and_the_balance(client, owing, contractor, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    services.refund_receipt(payment.receipt_number, by=clerk, reason=REASON, reference="5003")
    client.force_login(contractor)
    page = client.get(reverse("permits:detail", args=[owing.number])).content.decode()
    assert "Refunded" in page and "balance due $50.00" in page
    payment.refresh_from_db()
    receipt = render_to_string("pdf/receipt.html", {"payment": payment, "permit": owing})
    assert "refunded on" in receipt and REASON in receipt and "5003" in receipt
    assert "Balance now due</th><td>$50.00" in receipt
    assert client.get(reverse("permits:receipt_pdf", args=[payment.receipt_number])).status_code == 200


def test_303_4f_2_permit_list_counts_refunds_in_constant_queries(
    client, contractor, contractor_org, clerk, django_assert_max_num_queries
):
    for _ in range(3):
        permit = permit_owing(applicant=contractor, organization=contractor_org)
        payment = record_payment(permit=permit, amount=Decimal("50.00"), method="cash", by=clerk)
        services.refund_receipt(payment.receipt_number, by=clerk, reason=REASON)
    rows = list(permits_visible_to(contractor))
    with django_assert_max_num_queries(0):
        assert {p.balance_due for p in rows} == {Decimal("50.00")}


# --- A special charge (Wis. Stat. § 66.0627) -----------------------------------------------------------------------


def test_66_0627_void_of_a_charge_payment_moves_it_back_to_billed_audited(parcel, clerk):
    today = timezone.localdate()
    charge = make_charge(parcel, today=today)
    receipt = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=today)
    charge.refresh_from_db()
    assert charge.status == S.PAID and charge.paid_on == today
    services.refund_receipt(receipt.receipt_number, by=clerk, reason="Recorded on the wrong parcel", kind="void")
    charge.refresh_from_db()
    assert charge.status == S.BILLED and charge.paid_on is None and charge.balance_due == Decimal("75.00")
    move = StateChange.objects.filter(record_id=charge.pk, field="status").order_by("-at", "-pk").first()
    assert (move.from_state, move.to_state, move.actor) == (S.PAID, S.BILLED, clerk)
    assert "owed again" in move.reason and "66.0627" in move.reason
    listed = charges_visible_to(clerk).get(pk=charge.pk)
    assert listed.balance_due == Decimal("75.00")  # the lists' annotation


def test_66_0627_4_reopened_charge_becomes_delinquent_from_the_day_after_its_due_date(parcel, clerk):
    charge = make_charge(parcel)  # billed March 2, due April 1
    receipt = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=BILLED)
    services.refund_receipt(receipt.receipt_number, by=clerk, reason="Check returned by the bank", today=LATE)
    charge.refresh_from_db()
    assert charge.status == S.BILLED  # back to billed; the nightly job applies the date rule
    mark_delinquent_charges(today=LATE)
    charge.refresh_from_db()
    assert charge.status == S.DELINQUENT and charge.delinquent_on == charge.due_on + timedelta(days=1)


def test_66_0627_4_charge_paid_while_delinquent_is_delinquent_again_with_its_date(parcel, clerk):
    charge = make_charge(parcel)
    mark_delinquent_charges(today=LATE)
    charge.refresh_from_db()
    lien_date = charge.delinquent_on
    assert charge.status == S.DELINQUENT
    receipt = record_charge_payment(charge=charge, amount="75.00", method="check", reference="77", by=clerk, today=LATE)
    services.refund_receipt(receipt.receipt_number, by=clerk, reason="Check returned by the bank", today=LATE)
    charge.refresh_from_db()
    assert charge.status == S.DELINQUENT and charge.delinquent_on == lien_date and charge.paid_on is None


def test_66_0627_online_refund_of_a_charge_reopens_it_and_it_can_be_paid_again(parcel, resident, clerk):
    charge = make_charge(parcel, today=timezone.localdate())
    op = confirm(services.start_charge_payment(charge, by=resident, base_url=BASE))
    services.refund_online_payment(op, by=clerk, reason="Charge paid for the wrong parcel")
    charge.refresh_from_db()
    assert charge.status == S.BILLED and charge.balance_due == Decimal("75.00")
    again = confirm(services.start_charge_payment(charge, by=resident, base_url=BASE))
    assert again.outcome == OnlinePayment.Outcome.RECORDED, again.outcome_message
    charge.refresh_from_db()
    assert charge.status == S.PAID and charge.balance_due == 0


@pytest.mark.parametrize("who", [p for p in ALL_PERSONAS if p != "clerk"])
def test_66_0627_only_the_clerk_voids_a_charge_payment(who, persona, parcel, clerk):
    today = timezone.localdate()
    charge = make_charge(parcel, today=today)
    receipt = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=today)
    with pytest.raises(PermissionDenied, match="Clerk-Treasurer"):
        services.refund_receipt(receipt.receipt_number, by=persona(who), reason="Recorded in error", kind="void")
    charge.refresh_from_db()
    assert charge.status == S.PAID and charge.balance_due == 0


def test_66_0627_charge_page_and_receipt_show_the_refund(client, parcel, clerk):
    today = timezone.localdate()
    charge = make_charge(parcel, today=today)
    receipt = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=today)
    services.refund_receipt(receipt.receipt_number, by=clerk, reason="Recorded on the wrong parcel", kind="void")
    client.force_login(clerk)
    page = client.get(reverse("ledger:charge_detail", args=[charge.number])).content.decode()
    assert "Voided" in page
    charge.refresh_from_db()
    html = render_to_string("pdf/charge_receipt.html", {"payment": receipt, "charge": charge, "parcel": parcel})
    assert "voided on" in html and "Balance now due</th><td>$75.00" in html


@pytest.mark.parametrize(
    "status, delinquent_on, before, expected",
    [
        ("paid", None, "billed", "billed"),
        ("paid", BILLED, "delinquent", "delinquent"),
        ("paid_on_roll", BILLED, "certified", "certified"),
        ("paid_on_roll", BILLED, "", "on_roll"),
        ("billed", None, "", None),
    ],
)
def test_66_0627_4_status_after_refund(status, delinquent_on, before, expected):
    assert (
        rules.charge_status_after_refund(status=status, delinquent_on=delinquent_on, status_before_payment=before)
        == expected
    )


def test_66_0627_demo_charge_paid_by_a_returned_check_is_billed_again():
    from permits.demo import load_demo
    from permits.online_payments.demo import RETURNED_DESCRIPTION
    from permits.online_payments.demo import load_demo as load_online_payments_demo

    for _ in range(2):  # idempotent: one charge, one refund
        load_demo(password="demo-password-123")
        load_online_payments_demo()
    from permits.online_payments.demo import SNOW_DESCRIPTION

    assert SpecialCharge.objects.filter(description=SNOW_DESCRIPTION).exists()
    charge = SpecialCharge.objects.get(description=RETURNED_DESCRIPTION)
    assert charge.status == S.BILLED and charge.balance_due == Decimal("40.00")
    assert Refund.objects.filter(charge_payment__charge=charge).count() == 1
