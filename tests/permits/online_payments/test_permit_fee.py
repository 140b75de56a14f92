"""§ 303-4F(2), § 303-4B: a permit's fee paid online by card, recorded once with its R- receipt."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from payments import PaymentStatus

from permits.errors import RulesBroken
from permits.models import Payment, PermitEvent, Status
from permits.online_payments import services
from permits.online_payments.models import OnlinePayment
from permits.services import record_payment
from tests.factories import FeeItemFactory
from tests.permits.conftest import ALL_PERSONAS
from tests.permits.online_payments.conftest import BASE, confirm, permit_owing

pytestmark = pytest.mark.django_db


def test_303_4f_2_online_card_payment_records_one_receipt(owing, contractor):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    assert op.total == Decimal("50.00") and op.balance_amount == Decimal("50.00")
    op = confirm(op)
    assert op.outcome == OnlinePayment.Outcome.RECORDED
    payment = op.receipt_payment
    assert payment.receipt_number.startswith("R-") and payment.method == Payment.Method.CARD
    assert payment.reference == op.gateway_reference and payment.amount == Decimal("50.00")
    owing.refresh_from_db()
    assert owing.balance_due_as_stored() == 0
    event = owing.events.filter(kind=PermitEvent.Kind.PAYMENT).get()
    assert "by card online" in event.reason and payment.receipt_number in event.reason


def test_303_4f_2_confirmation_delivered_twice_records_one_payment(owing, contractor):
    op = confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE))
    services.settle(op)
    op.change_status(PaymentStatus.CONFIRMED)  # the gateway says it again
    services.settle(op)
    assert Payment.objects.filter(permit=owing).count() == 1
    op.refresh_from_db()
    assert op.outcome == OnlinePayment.Outcome.RECORDED  # not turned into a "held" duplicate of itself
    assert not owing.events.filter(reason__startswith="Online payment held").exists()


def test_303_4f_2_gateway_payment_id_is_unique_in_the_database(owing, contractor):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    with pytest.raises(IntegrityError), transaction.atomic():
        OnlinePayment.objects.create(
            variant=op.variant,
            transaction_id=op.transaction_id,
            purpose="permit",
            permit=owing,
            payer=contractor,
            balance_amount=Decimal("1.00"),
            paid_for="x",
            currency="USD",
        )


def test_303_4f_2_amount_is_the_balance_computed_on_the_server(owing, contractor, clerk):
    record_payment(permit=owing, amount=Decimal("20.00"), method="cash", by=clerk)
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    assert op.balance_amount == Decimal("30.00") and op.total == Decimal("30.00")


def test_303_4f_2_payment_for_a_balance_already_settled_is_held_for_refund(owing, contractor, clerk):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    record_payment(permit=owing, amount=Decimal("50.00"), method="check", reference="1042", by=clerk)  # at the counter
    op = confirm(op)
    assert op.outcome == OnlinePayment.Outcome.HELD and "Nothing is due" in op.outcome_message
    assert Payment.objects.filter(permit=owing).count() == 1  # never silently kept
    assert owing.events.filter(reason__startswith="Online payment held for refund").exists()


def test_303_4f_2_a_second_tab_confirmed_late_is_held_not_recorded(owing, contractor):
    first = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    second = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    first.refresh_from_db()
    assert first.outcome == OnlinePayment.Outcome.FAILED  # replaced: nothing taken
    assert confirm(second).outcome == OnlinePayment.Outcome.RECORDED
    late = confirm(first)  # its gateway confirms it after all
    assert late.outcome == OnlinePayment.Outcome.HELD and late.outcome_message.startswith("A late")
    assert Payment.objects.filter(permit=owing).count() == 1


@pytest.mark.parametrize("status", [PaymentStatus.REJECTED, PaymentStatus.ERROR, PaymentStatus.CANCELLED])
def test_303_4f_2_failed_payment_leaves_the_balance_unchanged_and_says_so(owing, contractor, status):
    op = confirm(services.start_permit_payment(owing, by=contractor, base_url=BASE), status)
    assert op.outcome == OnlinePayment.Outcome.FAILED
    assert "balance is unchanged" in op.outcome_message
    assert owing.balance_due_as_stored() == Decimal("50.00") and not Payment.objects.exists()


@pytest.mark.parametrize("status", [Status.DRAFT, Status.SUBMITTED])
def test_303_4b_fee_not_payable_before_the_application_is_found_complete(status, contractor):
    permit = permit_owing(status, applicant=contractor)
    with pytest.raises(RulesBroken, match="303-4B"):
        services.start_permit_payment(permit, by=contractor, base_url=BASE)
    assert not OnlinePayment.objects.exists()


@pytest.mark.parametrize(
    "status", [Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED, Status.ACTIVE, Status.COMPLETED]
)
def test_303_4f_2_fee_payable_once_found_complete_while_open(status, contractor):
    permit = permit_owing(status, applicant=contractor)
    assert services.start_permit_payment(permit, by=contractor, base_url=BASE).balance_amount == Decimal("50.00")


@pytest.mark.parametrize("status", [Status.DENIED, Status.WITHDRAWN, Status.EXPIRED, Status.REVOKED, Status.CLOSED])
def test_303_4f_2_closed_permit_not_payable_online(status, contractor):
    permit = permit_owing(status, applicant=contractor)
    with pytest.raises(RulesBroken, match="303-4F"):
        services.start_permit_payment(permit, by=contractor, base_url=BASE)


def test_303_4f_2_nothing_due_refuses_to_start(contractor):
    permit = permit_owing(applicant=contractor, fee="0.00")
    with pytest.raises(RulesBroken, match="Nothing is due"):
        services.start_permit_payment(permit, by=contractor, base_url=BASE)


def test_303_4e_renewal_fee_added_later_is_payable_online(contractor, clerk):
    permit = permit_owing(Status.ACTIVE, applicant=contractor)
    record_payment(permit=permit, amount=Decimal("50.00"), method="cash", by=clerk)
    FeeItemFactory(code="street_opening_renewal", name="Street opening renewal", amount=Decimal("25.00"))
    from permits.services import add_fee

    add_fee(
        permit, fee_code="street_opening_renewal", by=clerk, reason="Renewed to May 1 (§ 303-4E); renewal fee added"
    )
    op = services.start_permit_payment(permit, by=contractor, base_url=BASE)
    assert op.balance_amount == Decimal("25.00")
    assert any("303-4E" in label for label, _ in services.permit_lines(permit))
    assert confirm(op).outcome == OnlinePayment.Outcome.RECORDED


def test_303_4f_2_convenience_fee_is_its_own_line_not_part_of_the_fee(owing, contractor):
    FeeItemFactory(code=services.CONVENIENCE_FEE_CODE, name="Card convenience fee", amount=Decimal("1.50"))
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    assert op.total == Decimal("51.50") and op.convenience_fee == Decimal("1.50")
    op = confirm(op)
    assert op.receipt_payment.amount == Decimal("50.00")
    assert [item.price for item in op.get_purchased_items()] == [Decimal("50.00"), Decimal("1.50")]


@pytest.mark.parametrize("who", ALL_PERSONAS)
def test_303_4f_2_only_the_applicant_side_pays_a_permit_online(who, persona, owing):
    user = persona(who)
    if who in {"contractor", "contractor_staff"}:  # the applicant and the applicant's organization
        assert services.start_permit_payment(owing, by=user, base_url=BASE)
    else:
        with pytest.raises(PermissionDenied):
            services.start_permit_payment(owing, by=user, base_url=BASE)


def test_303_4f_2_fee_added_while_paying_is_recorded_and_the_rest_stays_due(owing, contractor, clerk):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    FeeItemFactory(code="street_opening_renewal", name="Street opening renewal", amount=Decimal("25.00"))
    from permits.services import add_fee

    add_fee(owing, fee_code="street_opening_renewal", by=clerk)
    assert confirm(op).outcome == OnlinePayment.Outcome.RECORDED
    assert owing.balance_due_as_stored() == Decimal("25.00")


def test_303_4f_2_one_cent_paid_at_the_counter_meanwhile_holds_the_online_payment(owing, contractor, clerk):
    op = services.start_permit_payment(owing, by=contractor, base_url=BASE)
    record_payment(permit=owing, amount=Decimal("0.01"), method="cash", by=clerk)  # $49.99 left: $50.00 is too much
    assert confirm(op).outcome == OnlinePayment.Outcome.HELD
    assert owing.balance_due_as_stored() == Decimal("49.99")
