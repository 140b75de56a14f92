"""The back office: a customized Django admin. It never goes around the services: status and audit fields are
read-only, and every status change goes through workflow.transition()."""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.models import BaseInlineFormSet
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator
from simple_history.admin import SimpleHistoryAdmin

from permits import services, workflow
from permits.admin.base import NoDeleteAdmin, lock_history_forms
from permits.admin.edits import PermitEditForm, edited_values
from permits.admin.office_calendar import OrganizationUtilityForm  # also registers the office-closure calendar
from permits.applicant import admin as applicant_admin  # noqa: F401  (registers the parcel link requests)
from permits.board import admin as board_admin  # noqa: F401  (the Village Board's roster, meetings, designations)
from permits.errors import RulesBroken
from permits.fees import FeeNotConfigured, fee_in_force
from permits.forms import PaymentForm, add_service_errors
from permits.kinds import discover, kind_choices
from permits.models import (
    Document,
    FeeItem,
    JobRun,
    Membership,
    Notice,
    Organization,
    Parcel,
    Payment,
    Permit,
    PermitEvent,
    Status,
    Street,
)
from permits.online_payments import admin as online_payments_admin  # noqa: F401  (online card payments)
from permits.paging import CappedPaginator, KeysFirstPaginator
from permits.parcel_import import import_parcels
from permits.roles import Role, has_role
from permits.selectors import with_paid_total
from permits.text_search import matching

INLINE_ROWS = 50  # the latest rows an inline shows: a permit's timeline may hold 1,000 events


class LatestRowsFormSet(BaseInlineFormSet):
    """At most INLINE_ROWS rows, the newest first, fetched in one query (the inline's select_related included)."""

    def get_queryset(self):
        if not hasattr(self, "_queryset"):
            newest = [f"-{name}" if not name.startswith("-") else name[1:] for name in self.model._meta.ordering]
            qs = super().get_queryset().order_by(*newest, "-pk")[:INLINE_ROWS]
            len(qs)  # evaluated once here: the forms index into the cached rows
            self._queryset = qs
        return self._queryset


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False
    formset = LatestRowsFormSet
    list_select_related: list[str] = []

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class EventInline(ReadOnlyInline):
    model = PermitEvent
    fields = readonly_fields = ["at", "kind", "from_status", "to_status", "actor_label", "reason"]
    verbose_name_plural = f"Timeline (the latest {INLINE_ROWS} events; the whole timeline is on the permit's page)"
    list_select_related = ["permit"]  # PermitEvent.__str__ names its permit


class PaymentInline(ReadOnlyInline):
    model = Payment
    fields = readonly_fields = ["receipt_link", "amount", "method", "reference", "received_at", "received_by"]
    list_select_related = ["permit", "received_by"]

    @admin.display(description="Receipt")
    def receipt_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("permits:receipt_pdf", args=[obj.receipt_number]), obj.receipt_number
        )


class DocumentInline(ReadOnlyInline):
    model = Document
    fields = readonly_fields = [
        "kind",
        "file_link",
        "size",
        "uploaded_by",
        "uploaded_at",
        "review_status",
        "review_reason",
    ]
    list_select_related = ["permit", "uploaded_by"]

    @admin.display(description="File")
    def file_link(self, obj):
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), obj.original_name)


class NoticeInline(ReadOnlyInline):
    model = Notice
    fields = readonly_fields = ["created_at", "to", "subject", "sent_at"]
    list_select_related = ["permit"]


class StatusChangeForm(forms.Form):
    to = forms.ChoiceField(label="New status")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def __init__(self, *args, targets, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [(t, Status(t).label) for t in targets]

    def clean(self):
        data = super().clean()
        if data.get("to") in (Status.DENIED, Status.REVOKED) and not data.get("reason", "").strip():
            self.add_error("reason", "Say why: a denial or revocation must give its reason.")
        return data


def _transition_action(target: str, label: str):
    def action(modeladmin, request, queryset):
        done = 0
        for permit in queryset:
            try:
                workflow.transition(permit, target, by=request.user, reason=f"Bulk action: {label}")
                done += 1
            except (workflow.IllegalTransition, RulesBroken) as error:
                modeladmin.message_user(request, f"{permit.number}: {error}", messages.ERROR)
        if done:
            modeladmin.message_user(request, f"{done} permit(s) marked {Status(target).label.lower()}.")

    action.__name__ = f"mark_{target}"
    action.short_description = label
    return action


class PermitKindFilter(admin.SimpleListFilter):
    """The permit types of the registry (Permit.kind has no choices of its own)."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return kind_choices()

    def queryset(self, request, queryset):
        return queryset.filter(kind=self.value()) if self.value() else queryset


@admin.register(Permit)
class PermitAdmin(SimpleHistoryAdmin):
    list_display = [
        "number",
        "kind_display",
        "status",
        "applicant_name",
        "street",
        "location_description",
        "submitted_at",
        "balance",
    ]
    list_filter = [PermitKindFilter, "status", ("submitted_at", admin.DateFieldListFilter), "expires_on"]
    search_fields = [
        "number",
        "location_description",
        "street__name",
        "parcel__site_address",
        "parcel__tax_key",
        "applicant__email",
        "applicant__first_name",
        "applicant__last_name",
        "organization__name",
    ]
    # No date_hierarchy: its year links are a DISTINCT over the whole table on every page; the
    # "submitted" filter narrows by date instead.
    list_select_related = ["applicant", "street", "organization"]
    list_per_page = 50
    # 40 pages at most, counted over at most 40 pages of rows, a page read keys first (permits/paging.py)
    paginator = KeysFirstPaginator
    show_full_result_count = False  # no second whole-table count on a search
    readonly_fields = [
        "number",
        "kind_display",
        "status",
        "applicant",
        "organization",
        "fee_code",
        "fee_amount",
        "fee_basis",
        "fee_kept",
        "submitted_at",
        "approved_on",
        "issued_on",
        "expires_on",
        "completed_on",
        "closed_on",
        "public_link",
    ]
    fields = (
        readonly_fields[:3]
        + ["street", "parcel", "location_description", "work_description", "start_date", "end_date"]
        + readonly_fields[3:]
    )
    raw_id_fields = ["parcel"]
    form = PermitEditForm  # edits run the type's rules and are recorded on the timeline (permits.admin.edits)
    inlines = [EventInline, PaymentInline, DocumentInline, NoticeInline]
    actions = [
        _transition_action(Status.UNDER_REVIEW, "Start review of selected permits"),
        _transition_action(Status.ISSUED, "Issue selected permits"),
        _transition_action(Status.CLOSED, "Close selected permits"),
    ]
    change_form_template = "admin/permits/permit/change_form.html"

    def get_queryset(self, request):
        return with_paid_total(super().get_queryset(request))

    def get_search_results(self, request, queryset, search_term):
        """The search_fields, each related table searched on its own (its trigram index on PostgreSQL) and matched
        by id, instead of nine `icontains` over four joins, which no index serves. What was typed is
        one phrase, as before."""
        term = search_term.strip()
        if not term:
            return queryset, False
        return queryset.filter(matching(Permit, term, self.search_fields)), False

    def has_add_permission(self, request):
        return False  # applications are made by applicants, or by the clerk on their behalf through the portal

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user  # the edit policy asks who edits (a class built for this request)
        return form

    def save_model(self, request, obj, form, change):
        # The one save path of an edit (its rules checked again on the locked row; the timeline records it).
        services.edit_permit(permit=Permit.objects.get(pk=obj.pk), by=request.user, values=edited_values(form))

    def has_delete_permission(self, request, obj=None):
        return False  # public records (Wis. Stat. § 19.21): never deleted

    @admin.display(description="Kind", ordering="kind")
    def kind_display(self, obj):
        return obj.get_kind_display()

    @admin.display(description="Applicant", ordering="applicant__last_name")
    def applicant_name(self, obj):
        return obj.organization.name if obj.organization else (obj.applicant.get_full_name() or obj.applicant.email)

    @admin.display(description="Balance due")
    def balance(self, obj):
        refund = obj.refund_due  # withdrawn or denied: nothing due, what was paid and not kept is refunded
        return f"Refund due ${refund}" if refund else f"${obj.balance_due}"

    @admin.display(description="Public status page")
    def public_link(self, obj):
        return format_html('<a href="{}">{}</a>', obj.get_public_url(), "Open")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}), "may_record_payment": has_role(request.user, Role.CLERK)}
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        return [
            path("<int:pk>/status/", self.admin_site.admin_view(self.change_status_view), name="permits_permit_status"),
            path(
                "<int:pk>/payment/", self.admin_site.admin_view(self.record_payment_view), name="permits_permit_payment"
            ),
        ] + super().get_urls()

    def change_status_view(self, request, pk):
        permit = get_object_or_404(Permit, pk=pk)
        targets = workflow.allowed_targets(request.user, permit)
        form = StatusChangeForm(request.POST or None, targets=targets)
        if request.method == "POST" and form.is_valid():
            try:
                workflow.transition(
                    permit, form.cleaned_data["to"], by=request.user, reason=form.cleaned_data["reason"]
                )
            except workflow.IllegalTransition as error:
                messages.error(request, str(error))
            except RulesBroken as error:
                for violation in error.violations:
                    messages.error(request, violation.message)
            else:
                messages.success(request, f"{permit.number} is now {permit.get_status_display().lower()}.")
            return redirect("admin:permits_permit_change", pk)
        title = f"Change the status of {permit.number}"
        return self._permit_form_page(request, "admin/permits/permit/change_status.html", permit, form, title)

    def record_payment_view(self, request, pk):
        if not has_role(request.user, Role.CLERK):
            raise PermissionDenied  # § 303-4F(2): only the Clerk-Treasurer receives fees
        permit = get_object_or_404(Permit, pk=pk)
        form = PaymentForm(request.POST or None, initial={"amount": permit.balance_due})
        if request.method == "POST" and form.is_valid():
            try:
                payment = services.record_payment(permit=permit, by=request.user, **form.cleaned_data)
            except PermissionDenied as error:
                messages.error(request, str(error))
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, f"Payment recorded; receipt {payment.receipt_number}.")
                return redirect("admin:permits_permit_change", pk)
        title = f"Record a payment for {permit.number}"
        return self._permit_form_page(request, "admin/permits/permit/record_payment.html", permit, form, title)

    def _permit_form_page(self, request, template: str, permit, form, title: str):
        """One of the permit's own admin pages: its form in the admin's frame."""
        context = {
            **self.admin_site.each_context(request),
            "permit": permit,
            "form": form,
            "opts": self.opts,
            "title": title,
        }
        return TemplateResponse(request, template, context)


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ["receipt_number", "permit", "amount", "method", "reference", "received_at", "received_by"]
    list_filter = ["method", ("received_at", admin.DateFieldListFilter)]
    search_fields = ["receipt_number", "permit__number", "reference"]
    list_select_related = ["permit", "received_by"]
    paginator = CappedPaginator
    show_full_result_count = False

    def has_add_permission(self, request):
        return False  # recorded from the permit's page, which issues the receipt

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(FeeItem)
class FeeItemAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    """Chapter 167 fees are ended (effective_to), never deleted (Wis. Stat. § 19.21): a deleted fee refused every new
    application that needed it, and permits already charged it must still show where the amount came from."""

    list_display = [
        "code",
        "name",
        "amount",
        "effective_from",
        "effective_to",
        "citation",
        "is_placeholder",
        "kept_when_withdrawn_or_denied",
    ]
    list_filter = ["is_placeholder", "kept_when_withdrawn_or_denied", "code"]
    search_fields = ["code", "name", "citation"]
    actions = ["end_today"]

    @admin.action(
        description="End the selected fees today (in force through today; Chapter 167)", permissions=["change"]
    )
    def end_today(self, request, queryset):
        today = timezone.localdate()
        for fee in queryset:
            if fee.effective_from > today:
                self.message_user(
                    request,
                    f"{fee}: effective_from is after today, so it cannot end today; change its dates instead "
                    "(Chapter 167, Fees).",
                    messages.ERROR,
                )
                continue
            if fee.effective_to is not None and fee.effective_to <= today:
                self.message_user(
                    request, f"{fee}: already ended on {fee.effective_to} (effective_to).", messages.ERROR
                )
                continue
            fee.effective_to = today
            fee._history_user = request.user
            fee.save(update_fields=["effective_to"])
            self.message_user(request, f"{fee}: ended; in force through {today} (effective_to).")
            try:
                fee_in_force(fee.code, today + timedelta(days=1))
            except FeeNotConfigured:
                self.message_user(
                    request,
                    f"No fee '{fee.code}' is in force from tomorrow: enter its new amount (Chapter 167, Fees), or "
                    "every new application that needs it will be refused.",
                    messages.WARNING,
                )


@admin.register(Street)
class StreetAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    search_fields = ["name"]
    list_display = ["name", "width_feet", "traveled_width_feet", "sidewalk_width_feet"]
    # § 303-7D(1), § 303-6B(2): the widths are recorded on the street register page (its service checks who and
    # what), so here they are shown, never edited.
    readonly_fields = [
        "width_feet",
        "traveled_width_feet",
        "sidewalk_width_feet",
        "widths_recorded_by",
        "widths_recorded_at",
    ]


@admin.register(Parcel)
class ParcelAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    list_display = ["tax_key", "site_address", "owner_name", "land_use", "street", "corner_lot"]
    list_filter = ["land_use", "corner_lot", "crosswalk_adjacent", "street"]
    search_fields = ["tax_key", "site_address", "owner_name"]
    # By address (its index), not Parcel.Meta's street name first: that join sorted every match of a search.
    ordering = ["site_address", "tax_key"]
    list_select_related = ["street"]
    paginator = CappedPaginator
    show_full_result_count = False
    filter_horizontal = ["owners"]
    change_list_template = "admin/permits/parcel/change_list.html"

    def get_urls(self):
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="permits_parcel_import"),
        ] + super().get_urls()

    def import_view(self, request):
        """Upload the assessment roll CSV, preview every row with its errors, then confirm. All or nothing."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        context = {**self.admin_site.each_context(request), "opts": self.opts, "title": "Import the assessment roll"}
        if request.method == "POST":
            text = request.POST.get("csv_text", "")
            upload = request.FILES.get("csv_file")
            if upload is not None:
                if upload.size > 5 * 1024 * 1024:
                    messages.error(request, "The CSV file is larger than 5 MB.")
                    return TemplateResponse(request, "admin/permits/parcel/import.html", context)
                try:
                    text = upload.read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    messages.error(request, "The file is not UTF-8 text: save it from the spreadsheet as 'CSV UTF-8'.")
                    return TemplateResponse(request, "admin/permits/parcel/import.html", context)
            commit = request.POST.get("confirm") == "1"
            result = import_parcels(text, commit=commit)
            if commit and result.ok:
                messages.success(request, f"Imported {result.created} new and {result.updated} updated parcels.")
                return redirect("admin:permits_parcel_changelist")
            context.update({"result": result, "csv_text": text})
        return TemplateResponse(request, "admin/permits/parcel/import.html", context)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Organization)
class OrganizationAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    list_display = ["name", "kind", "phone", "utility_facilities"]
    list_filter = ["kind"]
    search_fields = ["name"]
    inlines = [MembershipInline]
    form = OrganizationUtilityForm  # § 303-5H: what it owns or controls, set by the Clerk-Treasurer
    readonly_fields = ["utility_recorded_by", "utility_recorded_at"]

    def save_model(self, request, obj, form, change):
        if "utility_facilities" in form.changed_data or "utility_facilities_note" in form.changed_data:
            obj.utility_recorded_by, obj.utility_recorded_at = request.user, timezone.now()
        super().save_model(request, obj, form, change)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["created_at", "to", "subject", "permit", "sent_at"]
    search_fields = ["to", "subject", "permit__number"]
    list_select_related = ["permit"]
    paginator = CappedPaginator
    show_full_result_count = False
    readonly_fields = ["permit", "to", "subject", "body", "template", "created_at", "sent_at"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(JobRun)
class JobRunAdmin(admin.ModelAdmin):
    list_display = ["name", "started_at", "finished_at", "state", "items_done", "items_total", "reason"]
    list_filter = ["name", "state"]
    readonly_fields = ["name", "started_at", "finished_at", "state", "items_total", "items_done", "message", "worker"]

    @admin.display(description="Message")
    def reason(self, obj):
        return Truncator(obj.message).chars(200)  # why it failed (an error's whole text is on the run's page)

    def has_add_permission(self, request):
        return False


# Each part's back office, from the registry.
discover("admin")
# No history form saves a past version back (OWASP ASVS V4.1.3): every admin with field history, types' included.
lock_history_forms(admin.site)
