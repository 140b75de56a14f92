"""Money is recorded once (§ 303-4F(2); Wis. Stat. § 66.0627(2) for special charges).

The fee is paid to the Clerk-Treasurer, who issues a receipt: a payment is decided on the balance as it is under the
permit's row lock, so nothing more than the balance due is receipted, nothing at all once it is paid, and the same
check or card reference is recorded once on a permit. The concurrency tests need PostgreSQL (SQLite serializes every
write, so it cannot show a race); the CI's production pass runs them there.
"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from permits import services
from permits.errors import RulesBroken
from permits.forms import PaymentForm, add_service_errors
from permits.ledger.models import ChargePayment
from permits.ledger.services import record_charge_payment
from permits.models import Payment, Permit, PermitEvent, Status
from permits.services import record_payment
from tests.concurrency import at_once, on_postgresql
from tests.factories import ParcelFactory
from tests.permits.conftest import permit_in
from tests.permits.ledger.conftest import BILLED, make_charge

FEE = Decimal("50.00")


def owing(fee=FEE, status=Status.APPROVED) -> Permit:
    permit = permit_in(status)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=fee)
    permit.refresh_from_db()
    return permit


def pay(permit, amount, clerk, method="cash", reference=""):
    return record_payment(permit=permit, amount=Decimal(amount), method=method, reference=reference, by=clerk)


def refusal(exc_info, field):
    """The one violation on `field`, after checking that every violation cites § 303-4F(2)."""
    error = exc_info.value
    assert isinstance(error, RulesBroken)
    assert all(v.citation == "§ 303-4F(2)" for v in error.violations)
    [violation] = [v for v in error.violations if v.field == field]
    return violation


# --- The balance due: the boundaries (§ 303-4F(2)) ----------------------------------------------------------------


@pytest.mark.django_db
def test_303_4f2_one_cent_below_the_balance_is_accepted(clerk):
    permit = owing()
    pay(permit, "49.99", clerk)
    assert permit.balance_due == Decimal("0.01")


@pytest.mark.django_db
def test_303_4f2_the_whole_balance_is_accepted(clerk):
    permit = owing()
    payment = pay(permit, "50.00", clerk)
    assert permit.balance_due == Decimal("0.00") and payment.receipt_number.startswith("R-")


@pytest.mark.django_db
def test_303_4f2_one_cent_above_the_balance_is_refused_naming_the_amount_and_the_balance(clerk):
    permit = owing()
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "50.01", clerk)
    violation = refusal(exc, "amount")
    assert violation.code == "more_than_due"
    assert "$50.01" in violation.message and "balance due" in violation.message and "$50.00" in violation.message
    assert not Payment.objects.exists()
    assert not PermitEvent.objects.filter(permit=permit, kind=PermitEvent.Kind.PAYMENT).exists()


@pytest.mark.django_db
def test_303_4f2_500_on_a_50_fee_is_refused_not_shown_as_balance_0(clerk):
    permit = owing()
    with pytest.raises(ValidationError) as exc:  # a RulesBroken is a ValidationError: forms and the API show it
        pay(permit, "500.00", clerk, method="check", reference="5120")
    assert "$500.00" in exc.value.message_dict["amount"][0] and "$50.00" in exc.value.message_dict["amount"][0]
    assert permit.balance_due == FEE and not Payment.objects.exists()


@pytest.mark.django_db
def test_303_4f2_after_a_part_payment_one_cent_above_the_rest_is_refused_and_the_rest_accepted(clerk):
    permit = owing()
    pay(permit, "20.00", clerk)
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "30.01", clerk)
    assert "$30.00" in refusal(exc, "amount").message
    pay(permit, "30.00", clerk)
    assert permit.balance_due == 0 and permit.amount_paid == FEE


@pytest.mark.django_db
def test_303_4f2_nothing_due_refuses_a_third_payment_on_a_paid_permit(clerk):
    permit = owing()
    pay(permit, "25.00", clerk)
    pay(permit, "25.00", clerk)
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "0.01", clerk)
    violation = refusal(exc, "amount")
    assert violation.code == "nothing_due" and "Nothing is due" in violation.message
    assert Payment.objects.filter(permit=permit).count() == 2


@pytest.mark.django_db
def test_303_4f2_29_payments_of_1_on_a_25_fee_receipt_25(clerk):
    permit = owing(Decimal("25.00"))
    refused = 0
    for _ in range(29):
        try:
            pay(permit, "1.00", clerk)
        except RulesBroken:
            refused += 1
    assert refused == 4 and permit.amount_paid == Decimal("25.00") and permit.payments.count() == 25


@pytest.mark.django_db
def test_303_4f2_no_fee_owed_refuses_any_payment(clerk):
    draft = permit_in(Status.DRAFT)  # no fee is computed before submission
    with pytest.raises(RulesBroken) as exc:
        pay(draft, "1.00", clerk)
    assert "no fee is owed" in refusal(exc, "amount").message and not Payment.objects.exists()


@pytest.mark.django_db
def test_303_4f2_the_payment_is_decided_on_the_balance_in_the_database_not_the_callers_copy(clerk):
    permit = owing()
    stale = Permit.objects.get(pk=permit.pk)
    pay(permit, "50.00", clerk)
    with pytest.raises(RulesBroken):
        pay(stale, "50.00", clerk)  # a page loaded before the first payment
    assert Payment.objects.count() == 1


# --- A check or card reference once on a permit ----------------------------------------------------------------


@pytest.mark.django_db
def test_303_4f2_the_same_check_twice_is_refused_with_one_receipt(clerk):
    permit = owing()
    first = pay(permit, "20.00", clerk, method="check", reference="5120")
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "20.00", clerk, method="check", reference=" 5120 ")
    violation = refusal(exc, "reference")
    assert violation.message.startswith(f"Check 5120 is already recorded on receipt {first.receipt_number}")
    assert Payment.objects.filter(permit=permit).count() == 1 and permit.balance_due == Decimal("30.00")


@pytest.mark.django_db
def test_303_4f2_the_same_card_reference_twice_is_refused(clerk):
    permit = owing()
    pay(permit, "10.00", clerk, method="card", reference="AUTH-77")
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "10.00", clerk, method="card", reference="AUTH-77")
    assert refusal(exc, "reference").message.startswith("Card AUTH-77 is already recorded")


@pytest.mark.django_db
def test_303_4f2_check_numbers_are_per_payer_so_another_permit_may_record_the_same_number(clerk):
    # Every checkbook has its own check 1042 (the demo data pays two permits with check 4410): the rule is per permit.
    pay(owing(), "50.00", clerk, method="check", reference="1042")
    pay(owing(), "50.00", clerk, method="check", reference="1042")
    assert Payment.objects.filter(reference="1042").count() == 2


@pytest.mark.django_db
def test_303_4f2_two_cash_payments_of_the_same_amount_are_two_payments(clerk):
    permit = owing()
    pay(permit, "25.00", clerk)
    pay(permit, "25.00", clerk)
    assert permit.balance_due == 0


@pytest.mark.django_db
def test_303_4f2_the_database_refuses_the_same_check_twice_on_a_permit(clerk):
    permit = owing()
    fields = {"permit": permit, "amount": 1, "method": "check", "reference": "5120", "received_by": clerk}
    Payment.objects.create(receipt_number="R-T-1", received_at=timezone.now(), **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(receipt_number="R-T-2", received_at=timezone.now(), **fields)


@pytest.mark.django_db
def test_303_4f2_a_duplicate_the_database_catches_gets_the_same_clear_message(clerk, monkeypatch):
    # A path that skipped the check under the lock still ends in the field's message, not a 500.
    permit = owing()
    first = pay(permit, "20.00", clerk, method="check", reference="5120")
    monkeypatch.setattr(services, "_refuse_payment_not_due", lambda *args, **kwargs: None)
    with pytest.raises(RulesBroken) as exc:
        pay(permit, "20.00", clerk, method="check", reference="5120")
    message = refusal(exc, "reference").message
    assert message.startswith(f"Check 5120 is already recorded on receipt {first.receipt_number}")
    assert Payment.objects.count() == 1


@pytest.mark.django_db
def test_303_4f2_the_payment_form_shows_the_overpayment_on_its_amount_field(clerk):
    # As the back office's record-payment page does (permits/admin/core.py): the service's refusal lands on the field.
    permit = owing()
    form = PaymentForm({"amount": "500.00", "method": "check", "reference": "5120", "note": ""})
    assert form.is_valid()
    with pytest.raises(ValidationError) as exc:
        record_payment(permit=permit, by=clerk, **form.cleaned_data)
    add_service_errors(form, exc.value)
    assert "more than the balance due" in form.errors["amount"][0] and not Payment.objects.exists()


# --- Special charges: paid once (Wis. Stat. § 66.0627(2)) ------------------------------------------------------


@pytest.mark.django_db
def test_66_0627_2_a_second_payment_of_a_paid_charge_names_the_first_receipt(clerk):
    charge = make_charge(ParcelFactory(), by=clerk)
    check = {"amount": "75.00", "method": "check", "reference": "5120", "by": clerk, "today": BILLED}
    first = record_charge_payment(charge=charge, **check)
    stale = type(charge).objects.get(pk=charge.pk)
    with pytest.raises(ValidationError) as exc:
        record_charge_payment(charge=stale, **check)
    assert first.receipt_number in exc.value.message_dict["amount"][0]
    assert ChargePayment.objects.count() == 1


@pytest.mark.django_db
def test_66_0627_2_the_database_refuses_a_second_payment_of_a_charge(clerk):
    charge = make_charge(ParcelFactory(), by=clerk)
    fields = {"charge": charge, "amount": 75, "method": "cash", "received_by": clerk}
    ChargePayment.objects.create(receipt_number="RC-T-1", received_at=timezone.now(), **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        ChargePayment.objects.create(receipt_number="RC-T-2", received_at=timezone.now(), **fields)


# --- Eight at once (PostgreSQL) -----------------------------------------------------------------------------------


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_303_4f2_eight_simultaneous_payments_of_the_fee_record_it_once(clerk):
    permit = owing()
    results, errors = at_once(8, lambda: pay(Permit.objects.get(pk=permit.pk), "50.00", clerk))
    assert len(results) == 1 and len(errors) == 7
    assert all(isinstance(e, RulesBroken) and e.violations[0].code == "nothing_due" for e in errors), errors
    assert permit.amount_paid == FEE and Payment.objects.filter(permit=permit).count() == 1


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_303_4f2_eight_simultaneous_submissions_of_the_same_check_give_one_receipt(clerk):
    permit = owing()
    results, errors = at_once(
        8, lambda: pay(Permit.objects.get(pk=permit.pk), "10.00", clerk, method="check", reference="5120")
    )
    assert len(results) == 1 and len(errors) == 7
    assert all(isinstance(e, RulesBroken) and e.violations[0].field == "reference" for e in errors), errors
    assert Payment.objects.filter(permit=permit).count() == 1 and permit.balance_due == Decimal("40.00")


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_66_0627_2_eight_simultaneous_payments_of_a_charge_record_it_once(clerk):
    charge = make_charge(ParcelFactory(), by=clerk)
    results, errors = at_once(
        8,
        lambda: record_charge_payment(
            charge=type(charge).objects.get(pk=charge.pk), amount="75.00", method="cash", by=clerk, today=BILLED
        ),
    )
    assert len(results) == 1 and len(errors) == 7
    assert all(isinstance(e, ValidationError) and "nothing is due" in str(e) for e in errors), errors
    assert ChargePayment.objects.filter(charge=charge).count() == 1
