"""Back office of the special-charge ledger, the tax roll, snow and rubbish. Read-only: every change goes through
the services (sidewalks.charges, sidewalks.tax_roll, sidewalks.snow) and their pages, and public records are never
deleted (Wis. Stat. § 19.21)."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from sidewalks.models import (
    ChargeHearing,
    ChargePayment,
    RubbishCase,
    SnowCase,
    Snowfall,
    SpecialCharge,
    TaxRollBatch,
    TaxRollLine,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    # The list links to the page where the work is done (build and certify, log clearing, record a payment).
    work_page: tuple[str, str] | None = None

    def changelist_view(self, request, extra_context=None):
        if self.work_page and request.method == "GET":
            url_name, label = self.work_page
            messages.info(
                request, format_html('Records are read-only here: <a href="{}">{}</a>.', reverse(url_name), label)
            )
        return super().changelist_view(request, extra_context)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ChargePaymentInline(ReadOnlyInline):
    model = ChargePayment
    fields = readonly_fields = ["receipt_number", "amount", "method", "reference", "received_at", "received_by"]


@admin.register(SpecialCharge)
class SpecialChargeAdmin(ReadOnlyAdmin):
    work_page = ("sidewalks:charges", "record payments and hearings on the special charges pages")
    list_display = ["number", "parcel", "source", "amount", "status", "incurred_on", "due_on", "page_link"]
    list_filter = ["status", "source", "route"]
    search_fields = ["number", "parcel__tax_key", "parcel__site_address", "parcel__owner_name"]
    list_select_related = ["parcel"]
    date_hierarchy = "incurred_on"
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


class TaxRollLineInline(ReadOnlyInline):
    model = TaxRollLine
    fields = readonly_fields = ["tax_key", "owner", "source", "description", "amount", "citation"]


@admin.register(TaxRollBatch)
class TaxRollBatchAdmin(ReadOnlyAdmin):
    work_page = ("sidewalks:tax_rolls", "build, certify and download the roll on the tax roll page")
    list_display = ["year", "state", "built_at", "certified_at", "certified_by", "transferred_on", "page_link"]
    inlines = [TaxRollLineInline]

    @admin.display(description="Page")
    def page_link(self, obj):
        return format_html('<a href="{}">Build, certify, download</a>', reverse("sidewalks:tax_roll", args=[obj.year]))


@admin.register(Snowfall)
class SnowfallAdmin(ReadOnlyAdmin):
    work_page = ("sidewalks:snow", "record snowfalls on the snow and ice page")
    list_display = ["stopped_at", "inches", "recorded_by"]


@admin.register(SnowCase)
class SnowCaseAdmin(ReadOnlyAdmin):
    work_page = ("sidewalks:snow", "log clearing on the snow and ice page")
    list_display = ["number", "reported_address", "reported_via", "reported_at", "status"]
    list_filter = ["status", "reported_via"]
    search_fields = ["number", "reported_address", "parcel__tax_key"]


@admin.register(RubbishCase)
class RubbishCaseAdmin(ReadOnlyAdmin):
    work_page = ("sidewalks:rubbish_cases", "serve notices and log removals on the rubbish page")
    list_display = ["number", "parcel", "served_at", "deadline_at", "status", "removal_cost"]
    list_filter = ["status"]


# Sidewalk permits, surveys and Board orders register their admin in admin_sidewalk.py:
from sidewalks import admin_sidewalk  # noqa: E402,F401
