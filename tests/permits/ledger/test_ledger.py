"""The ledger: add_charge (the contract), billing, payments, delinquency, hearings, constraints."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from permits.errors import IllegalTransition
from permits.ledger.models import ChargePayment, SpecialCharge, TaxRollBatch, TaxRollLine
from permits.ledger.services import (
    bill_charge,
    charges_for_work,
    mark_delinquent_charges,
    record_charge_payment,
)
from permits.ledger.tax_roll import build_tax_roll
from permits.models import Notice
from tests.permits.ledger.conftest import BILLED, LATE, hearing, make_charge, make_delinquent

S = SpecialCharge.Status
pytestmark = pytest.mark.django_db


def test_add_charge_bills_with_due_date_and_emails_the_owner(parcel, inspector, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        charge = make_charge(parcel, by=inspector)
    assert charge.status == S.BILLED
    assert charge.number.startswith("SC-2026-")
    assert charge.billed_on == BILLED and charge.due_on == date(2026, 4, 1)
    notice = Notice.objects.get(to="olga@example.com")
    assert charge.number in notice.subject and "$75.00" in notice.body


def test_add_charge_links_the_work_record(parcel, inspector):
    work = make_charge(parcel, by=inspector)  # any model instance will do
    charge = make_charge(parcel, by=inspector, work_record=work)
    assert charge.work_record == work
    assert list(charges_for_work(work)) == [charge]


def test_add_charge_pending_then_billed(parcel, clerk):
    charge = make_charge(parcel, by=clerk, bill_now=False)
    assert charge.status == S.PENDING and charge.due_on is None
    bill_charge(charge, by=clerk, today=date(2026, 4, 1))
    assert charge.status == S.BILLED and charge.due_on == date(2026, 5, 1)
    with pytest.raises(IllegalTransition):
        bill_charge(charge, by=clerk)


def test_add_charge_without_owner_email_emails_nothing_and_queues_a_letter_not_yet_given(other_parcel, clerk):
    from django.core import mail

    charge = make_charge(other_parcel, by=clerk)
    [letter] = Notice.objects.all()
    assert letter.channel == Notice.Channel.MAIL and not letter.is_given and letter.to == ""
    assert mail.outbox == []
    assert charge.due_on is None  # falls due from the day the letter is mailed


def test_add_charge_refuses_negative_amount_naming_the_field(parcel, clerk):
    with pytest.raises(ValidationError) as exc:
        make_charge(parcel, by=clerk, amount="-1.00")
    assert "amount" in exc.value.message_dict
    assert not SpecialCharge.objects.exists()


def test_add_charge_refuses_unknown_source_and_route_at_once(parcel, clerk):
    with pytest.raises(ValidationError) as exc:
        make_charge(parcel, by=clerk, source="parking", route="whim")
    assert {"source", "route"} <= set(exc.value.message_dict)


def test_resident_cannot_add_a_charge(parcel, resident):
    with pytest.raises(PermissionDenied):
        make_charge(parcel, by=resident)


def test_amount_constraint_is_in_the_database(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    with pytest.raises(IntegrityError), transaction.atomic():
        SpecialCharge.objects.filter(pk=charge.pk).update(amount=Decimal("-5.00"))


def test_66_0627_delinquent_the_day_after_due_and_job_is_idempotent(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    assert mark_delinquent_charges(today=date(2026, 4, 1)) == (0, 0)
    assert mark_delinquent_charges(today=date(2026, 4, 2)) == (1, 1)
    charge.refresh_from_db()
    assert charge.status == S.DELINQUENT and charge.delinquent_on == date(2026, 4, 2)
    assert mark_delinquent_charges(today=date(2026, 4, 3)) == (0, 0)
    assert Notice.objects.filter(template="special_charge_delinquent", to="olga@example.com").count() == 1


def test_clerk_records_full_payment_with_rc_receipt(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    payment = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=BILLED)
    assert payment.receipt_number == "RC-2026-0001"
    charge.refresh_from_db()
    assert charge.status == S.PAID and charge.balance_due == 0 and charge.paid_on == BILLED


def test_66_0627_partial_payment_refused(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    with pytest.raises(ValidationError) as exc:
        record_charge_payment(charge=charge, amount="25.00", method="cash", by=clerk)
    assert "installments" in exc.value.message_dict["amount"][0]
    assert not ChargePayment.objects.exists()


def test_paid_charge_cannot_be_paid_again(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk)
    with pytest.raises(ValidationError):
        record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk)


def test_check_payment_needs_a_reference(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    with pytest.raises(ValidationError) as exc:
        record_charge_payment(charge=charge, amount="75.00", method="check", by=clerk)
    assert "reference" in exc.value.message_dict


def test_inspector_cannot_record_a_payment(parcel, clerk, inspector):
    charge = make_charge(parcel, by=clerk)
    with pytest.raises(PermissionDenied):
        record_charge_payment(charge=charge, amount="75.00", method="cash", by=inspector)


def test_payment_after_certification_is_paid_on_roll(parcel, clerk):
    from permits.ledger.tax_roll import certify_tax_roll

    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    certify_tax_roll(batch=batch, by=clerk, today=LATE)
    record_charge_payment(charge=charge, amount="75.00", method="tax_bill", by=clerk, today=date(2027, 1, 20))
    charge.refresh_from_db()
    assert charge.status == S.PAID_ON_ROLL
    assert TaxRollLine.objects.filter(charge=charge, batch__state=TaxRollBatch.State.CERTIFIED).exists()


def test_clerk_records_a_hearing(parcel, clerk):
    charge = make_charge(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR)
    held = hearing(
        clerk, date(2026, 6, 21), published_on=date(2026, 6, 1), mailed_on=date(2026, 6, 11), charges=[charge]
    )
    assert list(held.charges.all()) == [charge]


def test_hearing_notice_after_the_hearing_refused(parcel, clerk):
    with pytest.raises(ValidationError) as exc:
        hearing(clerk, date(2026, 6, 21), published_on=date(2026, 6, 22), mailed_on=date(2026, 6, 1))
    assert "published_on" in exc.value.message_dict


def test_board_member_cannot_record_a_hearing(board_member):
    with pytest.raises(PermissionDenied):
        hearing(board_member, date(2026, 6, 21), published_on=date(2026, 6, 1), mailed_on=date(2026, 6, 1))


def test_system_may_add_a_charge(parcel):
    charge = make_charge(parcel, by=None, today=BILLED + timedelta(days=1))
    assert charge.created_by is None


def test_add_charge_refuses_a_description_too_long_for_the_roll(parcel, clerk):
    with pytest.raises(ValidationError) as exc:
        make_charge(parcel, by=clerk, description="x" * 281)
    assert "description" in exc.value.message_dict
    assert make_charge(parcel, by=clerk, description="x" * 280).description == "x" * 280
