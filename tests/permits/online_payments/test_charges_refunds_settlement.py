"""Wis. Stat. § 66.0627(2): a special charge paid online in full (RC- receipt); § 303-4F(2): refunds and voids by
the Clerk-Treasurer only, with a reason; the daily settlement adds up to the receipts of the day."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from permits.errors import RulesBroken
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Payment, StateChange
from permits.online_payments import services, settlement
from permits.online_payments.models import OnlinePayment, Refund
from permits.services import record_payment
from tests.permits.conftest import ALL_PERSONAS
from tests.permits.ledger.conftest import make_charge
from tests.permits.online_payments.conftest import BASE, confirm

pytestmark = pytest.mark.django_db


def test_66_0627_2_owner_pays_a_special_charge_in_full_online(parcel, resident):
    charge = make_charge(parcel, today=timezone.localdate())
    op = services.start_charge_payment(charge, by=resident, base_url=BASE)
    assert op.balance_amount == Decimal("75.00")
    op = confirm(op)
    assert op.outcome == OnlinePayment.Outcome.RECORDED
    assert op.receipt_charge_payment.receipt_number.startswith("RC-")
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.PAID and charge.balance_due == 0


def test_66_0627_2_charge_confirmed_twice_is_paid_once(parcel, resident):
    charge = make_charge(parcel, today=timezone.localdate())
    first = services.start_charge_payment(charge, by=resident, base_url=BASE)
    second = services.start_charge_payment(charge, by=resident, base_url=BASE)
    confirm(second)
    assert confirm(first).outcome == OnlinePayment.Outcome.HELD
    assert ChargePayment.objects.filter(charge=charge).count() == 1


def test_66_0627_4_charge_on_the_tax_roll_is_not_paid_online(parcel, resident):
    charge = make_charge(parcel, bill_now=False)
    with pytest.raises(RulesBroken, match="66.0627"):
        services.start_charge_payment(charge, by=resident, base_url=BASE)


def test_66_0627_only_an_owner_of_record_pays_a_charge_online(parcel, outsider, clerk):
    charge = make_charge(parcel, today=timezone.localdate())
    for user in (outsider, clerk):
        with pytest.raises(PermissionDenied):
            services.start_charge_payment(charge, by=user, base_url=BASE)


# --- Refunds --------------------------------------------------------------------------------------------------


@pytest.fixture
def held(owing, contractor, clerk):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    return confirm(op)


def test_303_4f_2_clerk_refunds_a_held_overpayment_and_the_timeline_shows_it(held, clerk, owing):
    refund = services.refund_online_payment(held, by=clerk, reason="Paid twice: at the counter and online")
    held.refresh_from_db()
    assert held.outcome == OnlinePayment.Outcome.REFUNDED and refund.channel == Refund.Channel.GATEWAY
    assert refund.amount == Decimal("50.00")
    assert owing.events.filter(reason__contains="Refund of $50.00 to the card").exists()
    with pytest.raises(RulesBroken, match="nothing to refund"):
        services.refund_online_payment(held, by=clerk, reason="Paid twice: at the counter and online")
    assert Refund.objects.count() == 1


@pytest.mark.parametrize("who", [p for p in ALL_PERSONAS if p != "clerk"])
def test_303_4f_2_only_the_clerk_refunds(who, persona, held):
    with pytest.raises(PermissionDenied, match="Clerk-Treasurer"):
        services.refund_online_payment(held, by=persona(who), reason="Paid twice: at the counter and online")
    assert not Refund.objects.exists()


@pytest.mark.parametrize("reason, ok", [("too short", False), ("Paid twice", True)])
def test_303_4f_2_refund_needs_a_reason_of_ten_characters(held, clerk, reason, ok):
    if ok:
        assert services.refund_online_payment(held, by=clerk, reason=reason)
    else:
        with pytest.raises(RulesBroken, match="reason"):
            services.refund_online_payment(held, by=clerk, reason=reason)


def test_303_4f_2_counter_receipt_refunded_as_recorded_refund_once(owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="check", reference="88", by=clerk)
    refund = services.refund_receipt(payment.receipt_number, by=clerk, reason="Application withdrawn", reference="5001")
    assert refund.channel == Refund.Channel.RECORDED and refund.payment == payment
    assert owing.events.filter(reason__contains=f"Refund of receipt {payment.receipt_number}").exists()
    with pytest.raises(RulesBroken, match="already refunded"):
        services.refund_receipt(payment.receipt_number, by=clerk, reason="Application withdrawn")


def test_303_4f_2_void_only_on_the_day_of_the_receipt(owing, clerk):
    payment = record_payment(permit=owing, amount=Decimal("50.00"), method="cash", by=clerk)
    today = timezone.localdate(payment.received_at)
    from datetime import timedelta

    with pytest.raises(RulesBroken, match="voided only on the day"):
        services.refund_receipt(
            payment.receipt_number,
            by=clerk,
            reason="Recorded on the wrong permit",
            kind="void",
            today=today + timedelta(1),
        )
    assert services.refund_receipt(
        payment.receipt_number, by=clerk, reason="Recorded on the wrong permit", kind="void", today=today
    )


def test_303_4f_2_online_receipt_is_refunded_through_the_gateway_only(owing, contractor, clerk):
    op = confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    with pytest.raises(RulesBroken, match="through the gateway"):
        services.refund_receipt(op.receipt_payment.receipt_number, by=clerk, reason="Customer asked for it")
    assert services.refund_online_payment(op, by=clerk, reason="Customer asked for it").payment == op.receipt_payment


def test_66_0627_charge_refund_is_on_the_charge_history(parcel, resident, clerk):
    charge = make_charge(parcel, today=timezone.localdate())
    op = confirm(services.start_charge_payment(charge, by=resident, base_url=BASE))
    services.refund_online_payment(op, by=clerk, reason="Charge cancelled by the Board")
    assert StateChange.objects.filter(record_id=charge.pk, field="refund", reason__contains="Charge cancelled").exists()


# --- Settlement -------------------------------------------------------------------------------------------------


def test_settlement_adds_up_to_the_receipts_of_the_day(owing, contractor, clerk, parcel, resident):
    from tests.permits.online_payments.conftest import permit_owing

    other = permit_owing(applicant=contractor, fee="30.00")
    confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    record_payment(permit=other, amount=Decimal("10.00"), method="cash", by=clerk)
    record_payment(permit=other, amount=Decimal("20.00"), method="check", reference="77", by=clerk)
    charge = make_charge(parcel, today=timezone.localdate())
    confirm(services.start_charge_payment(charge, by=resident, base_url=BASE))
    today = timezone.localdate()
    totals = settlement.build_settlement(today).totals
    receipts = list(Payment.objects.all()) + list(ChargePayment.objects.all())
    assert totals["receipts"] == len(receipts) == 4
    assert Decimal(totals["receipts_total"]) == sum(r.amount for r in receipts) == Decimal("155.00")
    assert totals["by_method"] == {"card_online": "125.00", "cash": "10.00", "check": "20.00"}
    assert totals["by_fee_item"] == {"special_charge_snow_ice": "75.00", "street_opening": "80.00"}
    assert totals["expected_gateway_payout"] == "125.00"


def test_settlement_reconciled_with_the_payout_difference_needs_a_note(owing, contractor, clerk):
    confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    today = timezone.localdate()
    with pytest.raises(RulesBroken, match="explain the difference"):
        settlement.reconcile_settlement(today, by=clerk, payout="49.99")
    done = settlement.reconcile_settlement(today, by=clerk, payout="50.00")
    assert done.reconciled_by == clerk
    with pytest.raises(RulesBroken, match="was reconciled"):
        settlement.reconcile_settlement(today, by=clerk, payout="50.00")


@pytest.mark.parametrize("who", [p for p in ALL_PERSONAS if p != "clerk"])
def test_settlement_reconciled_by_the_clerk_only(who, persona):
    with pytest.raises(PermissionDenied):
        settlement.reconcile_settlement(timezone.localdate(), by=persona(who), payout="0")


def test_settlement_job_builds_yesterday_and_records_a_job_run():
    from permits.models import JobRun
    from permits.online_payments.tasks import build_settlements

    assert build_settlements() == 2
    assert JobRun.objects.get(name="online_payments.build_settlements").state == JobRun.State.FINISHED


def test_the_days_list_and_the_days_page_agree_after_a_later_receipt(owing, contractor, clerk, client):
    """The nightly job built today's row at one receipt; two receipts later the list and the day's page both say
    three (they once said 11 and 13), and in words, not codes."""
    from django.urls import reverse

    other = permit_owing_for(contractor)
    confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    today = timezone.localdate()
    settlement.build_settlement(today)
    record_payment(permit=other, amount=Decimal("10.00"), method="cash", by=clerk)
    record_payment(permit=other, amount=Decimal("20.00"), method="check", reference="78", by=clerk)
    client.force_login(clerk)
    listing = client.get(reverse("online_payments:settlements")).content.decode()
    day_page = client.get(reverse("online_payments:settlement", args=[today.isoformat()])).content.decode()
    for page in (listing, day_page):
        assert "$80.00" in page
    assert '<td class="text-end">3</td>' in listing
    assert "All receipts (3)" in day_page
    assert "Card, online" in day_page and "card_online" not in day_page
    assert "Street opening" in day_page


def test_the_days_list_counts_its_queries_once_for_any_number_of_days(clerk, client, django_assert_max_num_queries):
    from datetime import timedelta

    from django.urls import reverse

    today = timezone.localdate()
    for back in range(12):
        settlement.build_settlement(today - timedelta(days=back))
    client.force_login(clerk)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("online_payments:settlements")).status_code == 200


def permit_owing_for(applicant):
    from tests.permits.online_payments.conftest import permit_owing

    return permit_owing(applicant=applicant, fee="30.00")


def test_settlement_csv_writes_a_formula_like_reference_as_text(client, clerk, owing):
    """A check number typed as "=HYPERLINK(...)" at the counter opens in a spreadsheet as text, not a formula."""
    record_payment(permit=owing, amount=Decimal("50.00"), method="check", reference="=HYPERLINK(1)", by=clerk)
    client.force_login(clerk)
    day = timezone.localdate().isoformat()
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("online_payments:settlement_csv", args=[day])).content.decode()))
    )
    assert rows[1][5] == "'=HYPERLINK(1)" and rows[1][6] == "50.00"
