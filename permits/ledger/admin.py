"""Back office of the special-charge ledger and the tax roll. Read-only: every change goes through the services
(permits.ledger.services, permits.ledger.tax_roll) and their pages; public records are never deleted (Wis. Stat.
§ 19.21)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.base import ReadOnlyAdmin, ReadOnlyInline
from permits.board.admin import ServiceAdmin, ServiceForm
from permits.ledger import services as ledger
from permits.ledger.models import (
    AssessmentProceeding,
    ChargeHearing,
    ChargePayment,
    PaymentPeriod,
    SpecialCharge,
    TaxRollBatch,
    TaxRollLine,
)
from permits.paging import CappedPaginator


class ChargePaymentInline(ReadOnlyInline):
    model = ChargePayment
    fields = readonly_fields = ["receipt_number", "amount", "method", "reference", "received_at", "received_by"]


@admin.register(SpecialCharge)
class SpecialChargeAdmin(ReadOnlyAdmin):
    work_page = ("ledger:charges", "record payments and hearings on the special charges pages")
    list_display = ["number", "parcel", "source", "amount", "status", "incurred_on", "due_on", "page_link"]
    # No date_hierarchy: its year links are a DISTINCT over every charge on every page (as on the permits'
    # list); the "incurred" filter narrows by date instead.
    list_filter = ["status", "source", "route", ("incurred_on", admin.DateFieldListFilter)]
    search_fields = ["number", "parcel__tax_key", "parcel__site_address", "parcel__owner_name"]
    list_select_related = ["parcel"]
    paginator = CappedPaginator  # 40 pages at most, no whole-ledger count
    show_full_result_count = False
    inlines = [ChargePaymentInline]
    readonly_fields = ["work_record_link"]

    @admin.display(description="Page")
    def page_link(self, obj):
        return format_html('<a href="{}">Open</a>', obj.get_absolute_url())

    @admin.display(description="Work record")
    def work_record_link(self, obj):
        record = obj.work_record
        if record is None:
            return "-"
        url = getattr(record, "get_absolute_url", None)
        return format_html('<a href="{}">{}</a>', url(), record) if url else str(record)


@admin.register(ChargeHearing)
class ChargeHearingAdmin(ReadOnlyAdmin):
    list_display = ["hearing_on", "published_on", "mailed_on", "recorded_by"]


@admin.register(AssessmentProceeding)
class AssessmentProceedingAdmin(ReadOnlyAdmin):
    """§ 303-3B(2), Wis. Stat. § 66.0703: each step goes through permits.ledger.assessments and the Board's agenda."""

    work_page = ("ledger:assessments", "record the report and the notice on the special assessments page")
    list_display = ["title", "preliminary_motion", "report_filed_on", "published_on", "hearing_on", "final_motion"]


class TaxRollLineInline(ReadOnlyInline):
    model = TaxRollLine
    fields = readonly_fields = ["tax_key", "owner", "source", "description", "amount", "citation"]


@admin.register(TaxRollBatch)
class TaxRollBatchAdmin(ReadOnlyAdmin):
    work_page = ("ledger:tax_rolls", "build, certify and download the roll on the tax roll page")
    list_display = ["year", "state", "built_at", "certified_at", "certified_by", "transferred_on", "page_link"]
    inlines = [TaxRollLineInline]

    @admin.display(description="Page")
    def page_link(self, obj):
        return format_html('<a href="{}">Build, certify, download</a>', reverse("ledger:tax_roll", args=[obj.year]))


class PaymentPeriodForm(ServiceForm):
    class Meta:
        model = PaymentPeriod
        fields = ["days", "effective_from", "motion"]

    def call_service(self, data):
        return ledger.set_payment_period(
            days=data["days"], effective_from=data["effective_from"], motion=data["motion"], by=self.request.user
        )


@admin.register(PaymentPeriod)
class PaymentPeriodAdmin(ServiceAdmin, SimpleHistoryAdmin):
    """Wis. Stat. § 66.0627(4): the time for paying special charges "determined by the governing body", each set by a
    recorded Board motion with the day it takes effect. Read-only once recorded (a new motion sets a new period)."""

    form = PaymentPeriodForm
    list_display = ["days", "effective_from", "motion", "note"]
    raw_id_fields = ["motion"]
