"""Verbs of online payment. Every entry point (the pay pages, the gateway's webhook and return, the clerk's pages,
the admin, the nightly job, the shell) calls these.

    start_permit_payment(permit, *, by, base_url) -> OnlinePayment     the amount is the balance due, read here
    start_charge_payment(charge, *, by, base_url) -> OnlinePayment     the charge's full balance (no installments)
    settle(online_payment) -> OnlinePayment                            called when the gateway changes its status
    refund_online_payment(online_payment, *, by, reason)               through the gateway (clerk only)
    refund_receipt(receipt_number, *, by, reason, kind, reference)     a counter receipt: a recorded refund or void
    build_settlement(day) / reconcile_settlement(day, *, by, payout, note)

Money is recorded the way counter payments are (permits.services.record_payment and
permits.ledger.services.record_charge_payment): under the permit's or the charge's row lock, the same rules
(permits.services._refuse_payment_not_due; permits.ledger.rules.payment_errors), the same numbered receipts
(R-YYYY-NNNN, RC-YYYY-NNNN). What is different is only who received it: the gateway, for the payer.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from payments import PaymentError, PaymentStatus

from permits import services as core
from permits.access import require_role
from permits.errors import IllegalTransition, RulesBroken, raise_if_broken
from permits.fees import FeeNotConfigured, fee_in_force
from permits.ledger import rules as charge_rules
from permits.ledger.models import ChargePayment, SpecialCharge, TaxRollLine
from permits.models import Payment, Permit, PermitEvent
from permits.online_payments import rules
from permits.online_payments.models import OnlinePayment, Refund
from permits.roles import Role, has_role
from permits.state import change_state
from permits.workflow import is_applicant_side

CONVENIENCE_FEE_CODE = "online_card_convenience_fee"
Outcome = OnlinePayment.Outcome
FAILED_STATUSES = {PaymentStatus.REJECTED, PaymentStatus.ERROR, PaymentStatus.CANCELLED}


def variant() -> str:
    return settings.ONLINE_PAYMENT_VARIANT


def online_payments_enabled() -> bool:
    return bool(getattr(settings, "ONLINE_PAYMENT_VARIANT", ""))


def uses_per_payment_callback(variant_name: str) -> bool:
    """Whether the gateway of `variant_name` reports to a per-payment address (django-payments' process_payment):
    only the demo's test provider does (its 3-D Secure step); Stripe Checkout uses the signed webhook only."""
    handler = settings.PAYMENT_VARIANTS.get(variant_name, ("",))[0]
    return handler == "payments.dummy.DummyProvider"


def convenience_fee(today: date) -> Decimal:
    try:
        return rules.convenience_fee_amount(fee_in_force(CONVENIENCE_FEE_CODE, today).amount)
    except FeeNotConfigured:
        return Decimal("0.00")


# --- What is paid for --------------------------------------------------------------------------------------------


def permit_lines(permit: Permit) -> list[tuple[str, Decimal]]:
    """What the permit's balance is made of, as the pay page shows it: the fee with its item and section, and every
    fee or cost added since (the § 303-4E renewal fee, the Village's actual costs), then what was paid."""
    lines = [(permit.fee_basis or "Permit fee", None)]
    added = Q()
    for marker in FEE_ADDED_MARKERS:
        added |= Q(reason__icontains=marker)
    for event in permit.events.filter(added, kind=PermitEvent.Kind.NOTE).order_by("at", "pk"):
        lines.append((event.reason, None))
    if len(lines) == 1:  # the fee alone: its amount is what the permit owes (with added fees, each note says its own)
        lines[0] = (lines[0][0], permit.fee_amount)
    return lines


# The timeline notes of the services that add to what a permit owes (permits.services.add_fee, the § 303-4E renewal,
# the § 303-5E(5) retest, the § 303-4H(2) Village repair bill): shown on the pay page as what the balance is made of.
FEE_ADDED_MARKERS = ("Fee added", "renewal fee added", "retested at the permittee's cost", "Village repair billed")


def may_pay_permit(user, permit: Permit) -> bool:
    return getattr(user, "is_authenticated", False) and is_applicant_side(user, permit)


def may_pay_charge(user, charge: SpecialCharge) -> bool:
    return getattr(user, "is_authenticated", False) and charge.parcel.owners.filter(pk=user.pk).exists()


def _new_online_payment(*, by, base_url: str, balance: Decimal, paid_for: str, today: date, **subject) -> OnlinePayment:
    fee = convenience_fee(today)
    op = OnlinePayment(
        variant=variant(),
        payer=by,
        balance_amount=balance,
        convenience_fee=fee,
        total=balance + fee,
        currency="USD",
        description=paid_for[:200],
        paid_for=paid_for[:300],
        billing_email=by.email or "",
        billing_first_name=by.first_name,
        billing_last_name=by.last_name,
        **subject,
    )
    op.extra_data = "{}"
    op.attrs.base_url = base_url.rstrip("/")
    op.save()
    if settings.PAYMENT_VARIANTS[op.variant][0] == "payments.dummy.DummyProvider":
        # The test provider has no ids of its own: the token stands for the gateway's payment id.
        OnlinePayment.objects.filter(pk=op.pk).update(transaction_id=f"dummy-{op.token}")
        op.transaction_id = f"dummy-{op.token}"
    return op


def _abandon_open(queryset, message: str) -> None:
    """An older attempt the payer left (closed the tab, started again): marked failed. If its gateway later confirms
    it anyway, settle() holds it for the clerk."""
    queryset.filter(outcome=Outcome.OPEN, status__in=[PaymentStatus.WAITING, PaymentStatus.INPUT]).update(
        outcome=Outcome.FAILED, outcome_message=message
    )


def start_permit_payment(permit: Permit, *, by, base_url: str, today: date | None = None) -> OnlinePayment:
    """§ 303-4F(2): a card payment of the permit's whole balance due, computed here from the payments as stored."""
    today = today or timezone.localdate()
    if not may_pay_permit(by, permit):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("Only the applicant (or the applicant's organization) pays a permit's fee online.")
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        balance = locked.balance_due_as_stored()
        raise_if_broken(
            rules.permit_payable_violations(status=locked.status, balance_due=balance, number=locked.number)
        )
        _abandon_open(locked.online_payments.all(), "Replaced by a newer payment attempt; nothing was taken.")
        paid_for = f"{locked.get_kind_display()} {locked.number}: {locked.fee_basis or 'permit fee'}"
        return _new_online_payment(
            by=by, base_url=base_url, balance=balance, paid_for=paid_for, today=today, purpose="permit", permit=locked
        )


def start_charge_payment(charge: SpecialCharge, *, by, base_url: str, today: date | None = None) -> OnlinePayment:
    """Wis. Stat. § 66.0627(2): the charge's full balance, never an installment (the amount is not the payer's)."""
    today = today or timezone.localdate()
    if not may_pay_charge(by, charge):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("Only an owner of record of the parcel pays its special charges online.")
    with transaction.atomic():
        SpecialCharge.objects.select_for_update().filter(pk=charge.pk).values_list("pk", flat=True).first()
        charge.refresh_from_db()
        balance = charge.balance_due
        raise_if_broken(
            rules.charge_payable_violations(
                status=charge.status,
                status_label=charge.get_status_display(),
                balance_due=balance,
                number=charge.number,
            )
        )
        _abandon_open(charge.online_payments.all(), "Replaced by a newer payment attempt; nothing was taken.")
        paid_for = f"Special charge {charge.number}: {charge.description} ({charge.citation})"
        return _new_online_payment(
            by=by, base_url=base_url, balance=balance, paid_for=paid_for, today=today, purpose="charge", charge=charge
        )


# --- The gateway's confirmation ----------------------------------------------------------------------------------


def settle(online_payment: OnlinePayment) -> OnlinePayment:
    """Record what the gateway says, exactly once. Called (through django-payments' status_changed signal) whenever
    the gateway changes the payment's status: by the webhook (signature verified by the provider), by the return
    page (an API check), or by the test provider's form. Idempotent: the row is locked, and a payment already
    recorded, held or refunded is left as it is, however often the confirmation is delivered. The caller's instance
    is brought up to date either way: django-payments saves it after this returns, and a stale copy once wrote
    "open, no receipt" over a recorded payment (OnlinePayment.save also keeps those fields out of its saves)."""
    with transaction.atomic():
        op = OnlinePayment.objects.select_for_update().get(pk=online_payment.pk)
        if op.outcome in OnlinePayment.SETTLED:
            # Only the settlement's fields: a refund in progress keeps its own (captured_amount) in memory.
            online_payment.refresh_from_db(fields=OnlinePayment.SETTLEMENT_FIELDS)
            return online_payment
        if op.is_confirmed_by_gateway:
            if not op.captured_amount:
                op.captured_amount = op.total  # the test provider confirms without saying what it captured
                op.save(update_fields=["captured_amount"])
            _record_confirmed(op)
        elif op.status in FAILED_STATUSES and op.outcome == Outcome.OPEN:
            op.outcome = Outcome.FAILED
            op.outcome_message = (
                "The card payment did not go through"
                f"{': ' + op.message if op.message else ''}. Nothing was charged and the balance is unchanged."
            )
            op.save(update_fields=["outcome", "outcome_message"])
    online_payment.refresh_from_db()
    return online_payment


def _record_confirmed(op: OnlinePayment) -> None:
    """The card was charged: the money goes on the books with its receipt, or, when the balance is no longer due
    (paid at the counter meanwhile, a second tab, a late confirmation), it is held for the clerk to refund."""
    late = op.outcome == Outcome.FAILED
    try:
        with transaction.atomic():
            if op.purpose == OnlinePayment.Purpose.PERMIT:
                _record_permit_payment(op)
            else:
                _record_charge_payment(op)
    except (RulesBroken, IllegalTransition, IntegrityError) as refused:
        _hold(op, str(refused), late=late)
        return
    op.outcome = Outcome.RECORDED
    op.outcome_message = ""
    op.settled_at = timezone.now()
    op.save(update_fields=["outcome", "outcome_message", "settled_at", "receipt_payment", "receipt_charge_payment"])


def _record_permit_payment(op: OnlinePayment) -> None:
    # As permits.services.record_payment, for a payment the gateway received: the permit row locked, the same rule
    # (nothing more than the balance due as it is now; a fee added meanwhile leaves the rest due, as at the counter).
    now = timezone.now()
    locked = Permit.objects.select_for_update().get(pk=op.permit_id)
    reference = op.gateway_reference
    core._refuse_payment_not_due(locked, amount=op.balance_amount, method=Payment.Method.CARD, reference=reference)
    payment = Payment.objects.create(
        permit=locked,
        amount=op.balance_amount,
        method=Payment.Method.CARD,
        reference=reference,
        receipt_number=core.next_number("R", timezone.localdate(now).year),
        received_by=op.payer,
        received_at=now,
        note=f"Paid online by card ({op.variant} {reference})",
    )
    core.record_event(
        locked,
        by=op.payer,
        kind=PermitEvent.Kind.PAYMENT,
        reason=f"Payment of ${payment.amount} by card online (gateway {reference}); receipt {payment.receipt_number}",
    )
    op.receipt_payment = payment


def _record_charge_payment(op: OnlinePayment) -> None:
    # As permits.ledger.services.record_charge_payment, for a payment the gateway received (§ 66.0627(2)).
    now = timezone.now()
    today = timezone.localdate(now)
    charge = SpecialCharge.objects.select_for_update().get(pk=op.charge_id)
    violations = rules.charge_payable_violations(
        status=charge.status,
        status_label=charge.get_status_display(),
        balance_due=charge.balance_due,
        number=charge.number,
    )
    if not violations:
        violations = charge_rules.payment_errors(op.balance_amount, charge.balance_due)
    raise_if_broken(violations)
    receipt_number = core.next_number("RC", today.year)
    change_state(
        charge,
        to=SpecialCharge.Status.PAID,
        from_states=set(rules.CHARGE_PAYABLE_STATUSES),
        by=op.payer,
        reason=(
            f"Paid in full online by card: ${op.balance_amount:.2f}, receipt {receipt_number} "
            f"(gateway {op.gateway_reference}) (Wis. Stat. § 66.0627(2))"
        ),
        paid_on=today,
    )
    TaxRollLine.objects.filter(charge=charge, batch__state="draft").delete()
    op.receipt_charge_payment = ChargePayment.objects.create(
        charge=charge,
        amount=op.balance_amount,
        method=ChargePayment.Method.CARD,
        reference=op.gateway_reference,
        receipt_number=receipt_number,
        received_by=op.payer,
        received_at=now,
    )


def _hold(op: OnlinePayment, why: str, *, late: bool) -> None:
    op.outcome = Outcome.HELD
    op.outcome_message = (
        f"{'A late' if late else 'A'} card payment of ${op.total:.2f} was confirmed by the gateway, but it was not "
        f"recorded: {why} It is held for the Clerk-Treasurer, who refunds it to the card."
    )
    op.settled_at = timezone.now()
    op.save(update_fields=["outcome", "outcome_message", "settled_at"])
    if op.permit_id:
        core.record_event(
            op.permit,
            by=None,
            kind=PermitEvent.Kind.PAYMENT,
            reason=f"Online payment held for refund: {op.outcome_message}",
        )
    clerk_email = getattr(settings, "CLERK_EMAIL", "")
    if clerk_email:
        core.send_notice(
            op.permit,
            to=clerk_email,
            template="online_payment_held",
            context={"op": op},
        )


def check_with_gateway(op: OnlinePayment) -> OnlinePayment:
    """On the return page: ask the gateway (an API call, not the browser's word) for a payment still waiting."""
    from payments.core import provider_factory

    if op.outcome != Outcome.OPEN or op.status not in {PaymentStatus.WAITING, PaymentStatus.INPUT}:
        return op
    provider = provider_factory(op.variant, op)
    if hasattr(provider, "status") and op.transaction_id and not op.transaction_id.startswith("dummy-"):
        try:
            provider.status(op)  # StripeProviderV3: Session.retrieve; confirms through change_status -> settle
        except Exception:  # noqa: BLE001 - a gateway that does not answer leaves the payment waiting
            return op
    op.refresh_from_db()
    return op


# --- Refunds and voids (the Clerk-Treasurer only) ------------------------------------------------------------------


def _subject_event(*, permit: Permit | None, charge: SpecialCharge | None, by, reason: str) -> None:
    """The refund on the permit's timeline, or on the charge's history (a StateChange note without a state move)."""
    if permit is not None:
        core.record_event(permit, by=by, kind=PermitEvent.Kind.PAYMENT, reason=reason)
    elif charge is not None:
        from django.contrib.contenttypes.models import ContentType

        from permits.models import StateChange
        from permits.state import actor_label

        StateChange.objects.create(
            record_type=ContentType.objects.get_for_model(SpecialCharge),
            record_id=charge.pk,
            field="refund",
            from_state=charge.status,
            to_state=charge.status,
            actor=by,
            actor_label=actor_label(by),
            at=timezone.now(),
            reason=reason,
        )


def _reopen_charge(charge_payment: ChargePayment | None, *, by, what: str) -> None:
    """Wis. Stat. § 66.0627(2), (4): the refunded or voided payment no longer pays the charge, so it is owed again:
    an audited state change back to the state it was in before it was paid (rules.charge_status_after_refund), its
    billing, due and delinquency dates kept, its paid date cleared. Called under the refund's transaction."""
    if charge_payment is None:
        return
    from permits.state import history_of

    # The refunded payment no longer stands: the charge may be paid once more (the charge_paid_once constraint).
    ChargePayment.objects.filter(pk=charge_payment.pk).update(refunded=True)

    charge = SpecialCharge.objects.select_for_update().get(pk=charge_payment.charge_id)
    if charge.balance_due <= 0:
        return  # another payment still pays it (never the case for a charge paid in full once, but never lose it)
    paid_move = history_of(charge).filter(field="status", to_state=charge.status).order_by("-at", "-pk").first()
    to = rules.charge_status_after_refund(
        status=charge.status,
        delinquent_on=charge.delinquent_on,
        status_before_payment=paid_move.from_state if paid_move else "",
    )
    if to is None:
        return
    labels = dict(SpecialCharge.Status.choices)
    change_state(
        charge,
        to=to,
        from_states={charge.status},
        by=by,
        reason=(
            f"{what}: ${charge.balance_due:.2f} is owed again and the charge is {labels[to].lower()} "
            "(Wis. Stat. § 66.0627(2), (4))"
        ),
        paid_on=None,
    )


def refund_online_payment(op: OnlinePayment, *, by, reason: str) -> Refund:
    """§ 303-4F(2): the Clerk-Treasurer refunds a card payment taken online, through the gateway, with her reason:
    a held duplicate or late payment (its balance was already settled), or a recorded one (its receipt stays, marked
    refunded, and what it paid is owed again: the permit's balance, or the charge, back to billed or delinquent)."""
    require_role(by, Role.CLERK, action="refund payments (the Clerk-Treasurer refunds them, § 303-4F(2))")
    raise_if_broken(rules.refund_reason_violations(reason))
    with transaction.atomic():
        op = OnlinePayment.objects.select_for_update().get(pk=op.pk)
        if op.outcome not in {Outcome.HELD, Outcome.RECORDED} or op.status != PaymentStatus.CONFIRMED:
            raise RulesBroken(
                [
                    rules.Violation(
                        None,
                        "not_refundable",
                        "§ 303-4F(2)",
                        f"This online payment is {op.get_outcome_display().lower()}: there is nothing to refund.",
                    )
                ]
            )
        was_held = op.outcome == Outcome.HELD
        try:
            op.refund(amount=op.total)  # the provider's refund call (Stripe: Refund.create on the payment intent)
        except (PaymentError, ValueError) as error:
            raise RulesBroken(
                [rules.Violation(None, "gateway_refused", "§ 303-4F(2)", f"The gateway refused the refund: {error}")]
            ) from None
        op.refresh_from_db()
        gateway_id = ""
        try:
            gateway_id = str(op.attrs.refund)[:80]
        except AttributeError:
            pass
        refund = Refund.objects.create(
            channel=Refund.Channel.GATEWAY,
            online_payment=op,
            payment=op.receipt_payment,
            charge_payment=op.receipt_charge_payment,
            amount=op.total,
            reason=reason.strip(),
            reference=gateway_id or op.gateway_reference,
            refunded_by=by,
            refunded_at=timezone.now(),
        )
        OnlinePayment.objects.filter(pk=op.pk).update(outcome=Outcome.REFUNDED)
        what = "held online payment" if was_held else f"online payment (receipt {op.receipt_number})"
        _subject_event(
            permit=op.permit,
            charge=op.charge,
            by=by,
            reason=f"Refund of ${refund.amount:.2f} to the card, {what}, through the gateway: {refund.reason}",
        )
        _reopen_charge(op.receipt_charge_payment, by=by, what=f"Receipt {op.receipt_number} refunded to the card")
    return refund


def refund_receipt(
    receipt_number: str,
    *,
    by,
    reason: str,
    kind: str = Refund.Kind.REFUND,
    reference: str = "",
    today: date | None = None,
) -> Refund:
    """§ 303-4F(2): a refund (or, on the day it was issued, a void) of a receipt issued at the counter, recorded with
    the clerk's reason: the money goes back in cash or by Village check (`reference`: the check number). A card
    payment taken online is refunded through the gateway (refund_online_payment). Either way the whole payment is
    refunded, once (a database constraint), and what it paid is owed again (Permit.paid_as_stored and the lists'
    paid_total count no refunded payment; a special charge moves back, _reopen_charge)."""
    require_role(by, Role.CLERK, action="refund payments (the Clerk-Treasurer refunds them, § 303-4F(2))")
    today = today or timezone.localdate()
    violations = rules.refund_reason_violations(reason)
    payment = Payment.objects.select_related("permit").filter(receipt_number=receipt_number).first()
    charge_payment = None
    if payment is None:
        charge_payment = ChargePayment.objects.select_related("charge").filter(receipt_number=receipt_number).first()
    record = payment or charge_payment
    if record is None:
        raise RulesBroken([rules.Violation("receipt", "no_receipt", "§ 303-4F(2)", f"No receipt {receipt_number}.")])
    if getattr(record, "online_payment", None) is not None:
        violations.append(
            rules.Violation(
                "receipt",
                "use_gateway",
                "§ 303-4F(2)",
                f"Receipt {receipt_number} was paid online by card: refund it through the gateway.",
            )
        )
    if kind == Refund.Kind.VOID:
        violations += rules.void_violations(received_on=timezone.localdate(record.received_at), today=today)
    raise_if_broken(violations)
    try:
        with transaction.atomic():
            refund = Refund.objects.create(
                kind=kind,
                channel=Refund.Channel.RECORDED,
                payment=payment,
                charge_payment=charge_payment,
                amount=record.amount,
                reason=reason.strip(),
                reference=reference.strip(),
                refunded_by=by,
                refunded_at=timezone.now(),
            )
            label = "Void" if kind == Refund.Kind.VOID else "Refund"
            _subject_event(
                permit=payment.permit if payment else None,
                charge=charge_payment.charge if charge_payment else None,
                by=by,
                reason=f"{label} of receipt {receipt_number} (${record.amount:.2f}, "
                f"{record.get_method_display().lower()}): {refund.reason}",
            )
            _reopen_charge(charge_payment, by=by, what=f"{label} of receipt {receipt_number}")
    except IntegrityError:
        raise RulesBroken(
            [
                rules.Violation(
                    "receipt", "already_refunded", "§ 303-4F(2)", f"Receipt {receipt_number} is already refunded."
                )
            ]
        ) from None
    return refund


def may_refund(user) -> bool:
    return has_role(user, Role.CLERK)
