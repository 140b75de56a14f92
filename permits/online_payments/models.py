"""Online card payments (django-payments) and what the Clerk-Treasurer does with them: refunds and voids, and the
daily settlement she reconciles with the gateway's payout.

An OnlinePayment is the gateway's side of a payment (django-payments' BasePayment: variant, status, total,
transaction id). Once the gateway confirms it, permits.online_payments.services.settle() records it in the Village's
books exactly as a counter payment is: a core Payment with receipt R-YYYY-NNNN for a permit, or a ledger
ChargePayment with receipt RC-YYYY-NNNN for a special charge. A confirmation for a balance that is already settled
is never kept silently: the payment is held for the clerk, who refunds it.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from payments import PaymentStatus
from payments.models import BasePayment

from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models.core import Payment, Permit


class OnlinePayment(BasePayment):
    """One card payment attempt through the gateway, for one permit's balance or one special charge's balance."""

    class Purpose(models.TextChoices):
        PERMIT = "permit", "Permit fee"
        CHARGE = "charge", "Special charge"

    class Outcome(models.TextChoices):
        OPEN = "open", "Waiting for the card payment"
        RECORDED = "recorded", "Paid and receipted"
        HELD = "held", "Held for the Clerk-Treasurer (to refund)"
        FAILED = "failed", "Not paid (declined, cancelled or abandoned)"
        REFUNDED = "refunded", "Refunded"

    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, null=True, blank=True, related_name="online_payments")
    charge = models.ForeignKey(
        SpecialCharge, on_delete=models.PROTECT, null=True, blank=True, related_name="online_payments"
    )
    payer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    balance_amount = models.DecimalField(
        max_digits=9, decimal_places=2, help_text="The balance due when the payment was started (server-computed)"
    )
    convenience_fee = models.DecimalField(max_digits=9, decimal_places=2, default=Decimal("0.00"))
    paid_for = models.CharField(max_length=300, help_text="What is paid for, with the fee item and its section")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.OPEN)
    outcome_message = models.TextField(blank=True)
    receipt_payment = models.OneToOneField(
        Payment, on_delete=models.PROTECT, null=True, blank=True, related_name="online_payment"
    )
    receipt_charge_payment = models.OneToOneField(
        ChargePayment, on_delete=models.PROTECT, null=True, blank=True, related_name="online_payment"
    )
    settled_at = models.DateTimeField(null=True, blank=True)

    # An outcome the Village has settled: what the gateway says afterwards changes nothing (a refund aside).
    SETTLED = frozenset({Outcome.RECORDED, Outcome.HELD, Outcome.REFUNDED})
    # Written only by the services, each naming its fields (save(update_fields=...) or a queryset update).
    SETTLEMENT_FIELDS = ("outcome", "outcome_message", "receipt_payment", "receipt_charge_payment", "settled_at")

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["outcome", "-created"]), models.Index(fields=["settled_at"])]
        constraints = [
            # The gateway's payment id is recorded once: a confirmation delivered twice finds the same row.
            models.UniqueConstraint(
                fields=["variant", "transaction_id"],
                condition=~Q(transaction_id=""),
                name="online_payment_gateway_once",
            ),
            models.CheckConstraint(
                condition=Q(purpose="permit", permit__isnull=False, charge__isnull=True)
                | Q(purpose="charge", charge__isnull=False, permit__isnull=True),
                name="online_payment_pays_one_thing",
            ),
            models.CheckConstraint(condition=Q(balance_amount__gt=0), name="online_payment_amount_positive"),
            models.CheckConstraint(condition=Q(convenience_fee__gte=0), name="online_payment_fee_not_negative"),
            models.CheckConstraint(
                condition=~Q(outcome="recorded")
                | Q(receipt_payment__isnull=False)
                | Q(receipt_charge_payment__isnull=False),
                name="online_payment_recorded_has_receipt",
            ),
        ]

    def __str__(self) -> str:
        return f"Online payment {self.token} ({self.get_outcome_display().lower()}): ${self.total}"

    def save(self, **kwargs):
        """django-payments saves its whole instance after telling us of a status change (StripeProviderV3 stores the
        session, BasePayment.refund the captured amount); that copy may be older than the settlement made meanwhile
        under the row lock, so a whole-instance save of an existing row never writes the settlement's fields."""
        if self.pk and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in self.SETTLEMENT_FIELDS
            ]
        return super().save(**kwargs)

    def change_status(self, status, message="") -> None:
        """The gateway's status changes only while the Village has no outcome: after it is recorded, held or refunded
        (under the same row lock), a late or stray status (an expired session, a retry) leaves the record as it is, so
        a paid payment stays refundable. A refund's own status (REFUNDED) is the one change still made."""
        with transaction.atomic():
            outcome = type(self).objects.select_for_update().filter(pk=self.pk).values_list("outcome", flat=True)
            if outcome.first() in self.SETTLED and status != PaymentStatus.REFUNDED:
                self.refresh_from_db()
                return
            super().change_status(status, message)

    # --- what django-payments asks of the model -------------------------------------------------------------------

    def get_failure_url(self) -> str:
        return self._absolute(reverse("online_payments:result", args=[self.token]))

    def get_success_url(self) -> str:
        return self._absolute(reverse("online_payments:result", args=[self.token]))

    def _absolute(self, path: str) -> str:
        """The site the payer started from (kept when the payment started), else PAYMENT_HOST or the Sites domain:
        the gateway sends the payer back there."""
        try:
            base = self.attrs.base_url
        except AttributeError:
            from payments.core import get_base_url

            base = get_base_url()
        return base.rstrip("/") + path

    def get_purchased_items(self):
        from payments import PurchasedItem

        yield PurchasedItem(
            name=self.paid_for[:120], quantity=1, price=self.balance_amount, currency=self.currency, sku=self.purpose
        )
        if self.convenience_fee:
            yield PurchasedItem(
                name="Card convenience fee", quantity=1, price=self.convenience_fee, currency=self.currency, sku="fee"
            )

    # --- what the Village reads ----------------------------------------------------------------------------------

    @property
    def gateway_reference(self) -> str:
        """The gateway's id of the money (Stripe's payment intent when known, else the session or transaction id)."""
        session = {}
        try:
            session = self.attrs.session or {}
        except AttributeError:
            pass
        ref = (session.get("payment_intent") if isinstance(session, dict) else None) or self.transaction_id
        return ref if len(ref) <= 60 else ref[-60:]

    @property
    def is_confirmed_by_gateway(self) -> bool:
        return self.status in {PaymentStatus.CONFIRMED, PaymentStatus.PREAUTH}

    @property
    def subject_number(self) -> str:
        return self.permit.number if self.permit_id else self.charge.number

    @property
    def receipt_number(self) -> str:
        if self.receipt_payment_id:
            return self.receipt_payment.receipt_number
        if self.receipt_charge_payment_id:
            return self.receipt_charge_payment.receipt_number
        return ""


class Refund(models.Model):
    """Money the Clerk-Treasurer gave back, with her reason: through the gateway for a card payment made online, as
    a recorded refund (check from the Village) for cash, check or a card taken at the counter. A void is a refund of
    a payment recorded in error on the day it was taken."""

    class Kind(models.TextChoices):
        REFUND = "refund", "Refund"
        VOID = "void", "Void"

    class Channel(models.TextChoices):
        GATEWAY = "gateway", "Through the card gateway"
        RECORDED = "recorded", "Recorded (cash or Village check)"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REFUND)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    online_payment = models.ForeignKey(
        OnlinePayment, on_delete=models.PROTECT, null=True, blank=True, related_name="refunds"
    )
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, null=True, blank=True, related_name="refunds")
    charge_payment = models.ForeignKey(
        ChargePayment, on_delete=models.PROTECT, null=True, blank=True, related_name="refunds"
    )
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    reason = models.TextField()
    reference = models.CharField(max_length=80, blank=True, help_text="Gateway refund id or Village check number")
    refunded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    refunded_at = models.DateTimeField()

    class Meta:
        ordering = ["-refunded_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="refund_amount_positive"),
            models.CheckConstraint(condition=~Q(reason=""), name="refund_has_reason"),
            # A payment is refunded at most once (in full): a refund posted twice is one refund.
            models.UniqueConstraint(fields=["online_payment"], name="refund_online_payment_once"),
            models.UniqueConstraint(fields=["payment"], name="refund_payment_once"),
            models.UniqueConstraint(fields=["charge_payment"], name="refund_charge_payment_once"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of ${self.amount}"


class SettlementDay(models.Model):
    """The treasurer's settlement of one day: card (online and counter), cash and check totals, per fee item,
    built by the nightly job and reconciled by the clerk against the gateway's payout."""

    day = models.DateField(unique=True)
    totals = models.JSONField(default=dict, help_text="Totals per method and per fee item, as built")
    built_at = models.DateTimeField()
    gateway_payout = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    reconciled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reconciled_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"Settlement of {self.day:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("online_payments:settlement", args=[self.day.isoformat()])


def _on_status_changed(sender, instance, **kwargs):
    """django-payments tells us whenever the gateway changes a payment's status: record it (once) in the books."""
    from permits.online_payments.services import settle

    settle(instance)


def connect_signals() -> None:
    from payments.signals import status_changed

    status_changed.connect(_on_status_changed, sender=OnlinePayment, dispatch_uid="online_payments_settle")


connect_signals()
