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
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from permits import kinds
from permits.access import require_role
from permits.errors import raise_if_broken
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import FeeItem, Payment
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


# --- Words, not codes: the totals keep stable codes (stored as built); pages, CSV and PDF show these -------------

METHOD_LABELS = {
    "card_online": "Card, online",
    "card": "Card at the counter",
    "cash": "Cash",
    "check": "Check",
    "tax_bill": "Collected on the tax bill",
}


def method_label(code: str) -> str:
    return METHOD_LABELS.get(code, code.replace("_", " ").capitalize())


def fee_item_labels() -> dict[str, str]:
    """Every fee item code the totals may hold, in words: the Chapter 167 fee items by name, a permit type by its
    label (a permit without a fee code), a special charge by its source."""
    labels = {code: record.label for code, record in kinds.registry().items()}
    labels |= dict(FeeItem.objects.order_by("effective_from").values_list("code", "name"))
    labels |= {f"special_charge_{code}": f"Special charge: {name}" for code, name in SpecialCharge.Source.choices}
    return labels


def in_words(totals: dict) -> dict:
    """The stored totals with their method and fee item codes as (words, amount) pairs, for a page or a PDF."""
    items = fee_item_labels()
    return {
        **totals,
        "by_method": [(method_label(k), v) for k, v in totals.get("by_method", {}).items()],
        "by_fee_item": [(items.get(k, k), v) for k, v in totals.get("by_fee_item", {}).items()],
    }


def receipts_in_words(rows: list[dict]) -> list[dict]:
    items = fee_item_labels()
    return [
        {
            **row,
            "method_label": method_label(row["method"]),
            "fee_item_label": items.get(row["fee_item"], row["fee_item"]),
        }
        for row in rows
    ]


def _sum_by_day(queryset, stamp: str, **sums) -> dict[date, dict]:
    """{day: {name: total}} of `queryset` grouped by the Village-time day of its `stamp` field: one query."""
    day = TruncDate(stamp, tzinfo=timezone.get_current_timezone())
    rows = queryset.annotate(settled_day=day).values("settled_day").annotate(**sums).order_by()
    return {row.pop("settled_day"): row for row in rows}


def live_summaries(days: list[date]) -> dict[date, dict]:
    """The list's figures for `days` (receipts, their total, the expected card payout), counted from the receipts as
    compute_totals counts them, in a fixed number of queries however many days: a day not reconciled is shown as it
    stands now, never as it stood when the nightly job last built it (the list and the day's page once disagreed)."""
    if not days:
        return {}
    start, end = day_bounds(min(days))[0], day_bounds(max(days))[1]
    money = {
        "n": Count("pk"),
        "total": Sum("amount"),
        "online": Sum("amount", filter=Q(online_payment__isnull=False)),
        "fees": Sum("online_payment__convenience_fee"),
    }
    window = {"received_at__gte": start, "received_at__lt": end}
    permits_paid = _sum_by_day(Payment.objects.filter(**window), "received_at", **money)
    charges_paid = _sum_by_day(ChargePayment.objects.filter(**window), "received_at", **money)
    held = _sum_by_day(
        OnlinePayment.objects.filter(
            outcome__in=[OnlinePayment.Outcome.HELD, OnlinePayment.Outcome.REFUNDED],
            receipt_payment__isnull=True,
            receipt_charge_payment__isnull=True,
            settled_at__gte=start,
            settled_at__lt=end,
        ),
        "settled_at",
        total=Sum("total"),
    )
    refunded = _sum_by_day(
        Refund.objects.filter(channel=Refund.Channel.GATEWAY, refunded_at__gte=start, refunded_at__lt=end),
        "refunded_at",
        total=Sum("amount"),
    )
    summaries = {}
    for day in days:
        paid = [permits_paid.get(day, {}), charges_paid.get(day, {})]
        received = sum((p.get("total") or ZERO for p in paid), ZERO)
        online = sum((p.get("online") or ZERO for p in paid), ZERO)
        fees = sum((p.get("fees") or ZERO for p in paid), ZERO)
        payout = online + fees + (held.get(day, {}).get("total") or ZERO) - (refunded.get(day, {}).get("total") or ZERO)
        summaries[day] = {
            "receipts": sum(p.get("n") or 0 for p in paid),
            "receipts_total": str(received.quantize(Decimal("0.01"))),
            "expected_gateway_payout": str(payout.quantize(Decimal("0.01"))),
        }
    return summaries


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
