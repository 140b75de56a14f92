"""Two confirmations of the same card payment at once (the webhook and the return page, or Stripe's retry) record
it once; two different payments confirmed at once for one balance record one and hold the other. PostgreSQL only
(SQLite serializes every write): run with DATABASE_URL=postgres://... as the CI's production pass does."""

import pytest
from payments import PaymentStatus

from permits.models import Payment
from permits.online_payments import services
from permits.online_payments.models import OnlinePayment
from tests.concurrency import at_once, on_postgresql
from tests.permits.online_payments.conftest import BASE

pytestmark = [on_postgresql, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def deliver(op_pk):
    op = OnlinePayment.objects.get(pk=op_pk)
    op.change_status(PaymentStatus.CONFIRMED)  # django-payments' status_changed -> settle()
    return op_pk


def test_303_4f_2_eight_simultaneous_confirmations_of_one_payment_record_it_once(owing, contractor):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    results, errors = at_once(8, lambda: deliver(op.pk))
    assert not errors and len(results) == 8
    assert Payment.objects.filter(permit=owing).count() == 1
    op.refresh_from_db()
    assert op.outcome == OnlinePayment.Outcome.RECORDED


def test_303_4f_2_two_payments_confirmed_at_once_for_one_balance_record_one_and_hold_one(owing, contractor):
    first = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    OnlinePayment.objects.filter(pk=first.pk).update(outcome=OnlinePayment.Outcome.OPEN)  # two live tabs
    second = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    OnlinePayment.objects.filter(pk=first.pk).update(outcome=OnlinePayment.Outcome.OPEN)
    pks = iter([first.pk, second.pk])
    results, errors = at_once(2, lambda: deliver(next(pks)))
    assert not errors
    outcomes = sorted(OnlinePayment.objects.values_list("outcome", flat=True))
    assert outcomes == ["held", "recorded"]
    assert Payment.objects.filter(permit=owing).count() == 1
