"""Back office of online payments: read-only. Refunds, voids and reconciliation go through the services and the
Clerk-Treasurer's pages (permits.online_payments.views); public records are never deleted (Wis. Stat. § 19.21)."""

from django.contrib import admin

from permits.admin.base import ReadOnlyAdmin
from permits.online_payments.models import OnlinePayment, Refund, SettlementDay


@admin.register(OnlinePayment)
class OnlinePaymentAdmin(ReadOnlyAdmin):
    work_page = ("online_payments:office_list", "refund held payments on the online payments page")
    list_display = ["created", "purpose", "permit", "charge", "payer", "total", "status", "outcome", "transaction_id"]
    list_filter = ["outcome", "status", "purpose", "variant"]
    search_fields = ["transaction_id", "token", "permit__number", "charge__number", "payer__email"]
    list_select_related = ["permit", "charge", "payer"]
    date_hierarchy = "created"
    exclude = ["extra_data"]  # the gateway's raw session: kept, not shown


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin):
    work_page = ("online_payments:settlements", "refund or void receipts from the daily settlement")
    list_display = ["refunded_at", "kind", "channel", "amount", "payment", "charge_payment", "refunded_by", "reason"]
    list_filter = ["kind", "channel"]
    list_select_related = ["payment", "charge_payment", "refunded_by"]


@admin.register(SettlementDay)
class SettlementDayAdmin(ReadOnlyAdmin):
    work_page = ("online_payments:settlements", "reconcile on the daily settlement page")
    list_display = ["day", "built_at", "gateway_payout", "reconciled_by", "reconciled_at"]
    date_hierarchy = "day"
