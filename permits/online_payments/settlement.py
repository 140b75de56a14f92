"""The treasurer's daily settlement: what was received on a day, by method (card online, card at the counter, cash,
check) and per fee item, the refunds of the day, and the card money the gateway owes (to match its payout).

Built from the receipts themselves (core Payment R-..., ledger ChargePayment RC-...), so it always adds up to the
receipts of the day; the nightly job stores it, and the clerk reconciles it with the gateway's payout.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from permits.access import require_role
from permits.errors import raise_if_broken
from permits.ledger.models import ChargePayment
from permits.models import Payment
from permits.online_payments import rules
from permits.online_payments.models import OnlinePayment, Refund, SettlementDay
from permits.roles import Role

ZERO = Decimal("0.00")


def day_bounds(day: date) -> tuple[datetime, datetime]:
    tz = timezone.get_current_timezone()
    start = datetime.combine(day, time.min, tzinfo=tz)
    return start, start + timedelta(days=1)


def _receipt_row(payment, *, paid_for: str, fee_item: str) -> dict:
    """One receipt of the day, a permit's Payment or a special charge's ChargePayment (the same fields)."""
    online = getattr(payment, "online_payment", None)
    return {
        "receipt": payment.receipt_number,
        "at": payment.received_at,
        "for": paid_for,
        "fee_item": fee_item,
        "method": "card_online" if online else payment.method,
        "reference": payment.reference,
        "amount": payment.amount,
        "convenience_fee": online.convenience_fee if online else ZERO,
    }


def receipts_of(day: date) -> list[dict]:
    """Every receipt issued on `day` (Village time), permits' and special charges', oldest first."""
    start, end = day_bounds(day)
    rows = [
        _receipt_row(p, paid_for=p.permit.number, fee_item=p.permit.fee_code or p.permit.kind)
        for p in Payment.objects.filter(received_at__gte=start, received_at__lt=end).select_related(
            "permit", "online_payment"
        )
    ]
    rows += [
        _receipt_row(c, paid_for=c.charge.number, fee_item=f"special_charge_{c.charge.source}")
        for c in ChargePayment.objects.filter(received_at__gte=start, received_at__lt=end).select_related(
            "charge", "online_payment"
        )
    ]
    rows.sort(key=lambda r: (r["at"], r["receipt"]))
    return rows


def compute_totals(day: date) -> dict:
    """The day's totals as plain strings (stored as JSON): per method, per fee item, refunds, held payments, and
    the card money the gateway should pay out for the day (online card receipts + convenience fees + held payments
    - refunds made through the gateway)."""
    rows = receipts_of(day)
    by_method: dict[str, Decimal] = defaultdict(lambda: ZERO)
    by_item: dict[str, Decimal] = defaultdict(lambda: ZERO)
    fees = ZERO
    for row in rows:
        by_method[row["method"]] += row["amount"]
        by_item[row["fee_item"]] += row["amount"]
        fees += row["convenience_fee"]
    start, end = day_bounds(day)
    held = OnlinePayment.objects.filter(
        outcome__in=[OnlinePayment.Outcome.HELD, OnlinePayment.Outcome.REFUNDED],
        receipt_payment__isnull=True,
        receipt_charge_payment__isnull=True,
        settled_at__gte=start,
        settled_at__lt=end,
    )
    held_total = sum((op.total for op in held), ZERO)
    refunds = list(Refund.objects.filter(refunded_at__gte=start, refunded_at__lt=end))
    gateway_refunds = sum((r.amount for r in refunds if r.channel == Refund.Channel.GATEWAY), ZERO)
    recorded_refunds = sum((r.amount for r in refunds if r.channel == Refund.Channel.RECORDED), ZERO)
    receipts_total = sum((row["amount"] for row in rows), ZERO)
    expected_payout = by_method.get("card_online", ZERO) + fees + held_total - gateway_refunds
    return {
        "receipts": len(rows),
        "receipts_total": str(receipts_total),
        "by_method": {k: str(v) for k, v in sorted(by_method.items())},
        "by_fee_item": {k: str(v) for k, v in sorted(by_item.items())},
        "convenience_fees": str(fees),
        "held_for_refund": str(held_total),
        "refunds_gateway": str(gateway_refunds),
        "refunds_recorded": str(recorded_refunds),
        "expected_gateway_payout": str(expected_payout),
    }


def build_settlement(day: date) -> SettlementDay:
    """Store the day's totals (idempotent). A reconciled day is frozen: it is not rebuilt."""
    with transaction.atomic():
        settlement = SettlementDay.objects.select_for_update().filter(day=day).first()
        if settlement is not None and settlement.reconciled_at:
            return settlement
        totals = compute_totals(day)
        settlement, _ = SettlementDay.objects.update_or_create(
            day=day, defaults={"totals": totals, "built_at": timezone.now()}
        )
    return settlement


def build_settlements(*, today: date | None = None) -> tuple[int, int]:
    """The nightly job: settle yesterday (and refresh today so far). Returns (items_total, items_done)."""
    today = today or timezone.localdate()
    days = [today - timedelta(days=1), today]
    done = 0
    for day in days:
        if not SettlementDay.objects.filter(day=day, reconciled_at__isnull=False).exists():
            build_settlement(day)
            done += 1
    return len(days), done


def reconcile_settlement(day: date, *, by, payout, note: str = "") -> SettlementDay:
    """The Clerk-Treasurer reconciles the day with the gateway's payout; a difference needs her explanation."""
    require_role(by, Role.CLERK, action="reconcile the daily settlement (the Clerk-Treasurer does)")
    payout = Decimal(str(payout)).quantize(Decimal("0.01"))
    with transaction.atomic():
        settlement = build_settlement(day)
        if settlement.reconciled_at:
            raise_if_broken(
                [
                    rules.Violation(
                        None,
                        "already_reconciled",
                        "§ 303-4F(2)",
                        f"The settlement of {day:%B %-d, %Y} was reconciled on {settlement.reconciled_at:%B %-d, %Y}.",
                    )
                ]
            )
        expected = Decimal(settlement.totals["expected_gateway_payout"])
        raise_if_broken(rules.payout_difference_violations(expected=expected, payout=payout, note=note))
        settlement.gateway_payout = payout
        settlement.note = note.strip()
        settlement.reconciled_by = by
        settlement.reconciled_at = timezone.now()
        settlement.save()
    return settlement
