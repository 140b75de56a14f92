"""Back office for the field half of a street opening. Records are made by the field pages' services (inspections,
notices, pavement, completion, defects); here they are searched and read. Audit fields are read-only, actions go
through field_work.py, and nothing is deleted (public records)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from permits.errors import RulesBroken
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import (
    CoveringHold,
    DefectNotice,
    Guarantee,
    Inspection,
    PavementRestoration,
    PermitteeNotice,
    VillageExpense,
)


class FieldRecordAdmin(admin.ModelAdmin):
    """Read-only: the field pages are the one way to create and change these records."""

    list_select_related = ["permit"]
    search_fields = [
        "permit__number",
        "permit__location_description",
        "permit__street__name",
        "permit__organization__name",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_list_display_links(self, request, list_display):
        # The first column is already a link (to the field page): the record's own page is the next one's, or the
        # admin would nest a link in a link, leaving an empty one for screen readers.
        return list(list_display)[1:2]

    @admin.display(description="Field record")
    def field_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("permits:field_permit", args=[obj.permit.number]), obj.permit.number
        )


@admin.register(CoveringHold)
class CoveringHoldAdmin(FieldRecordAdmin):
    """§ 303-1C(4): made by the Director on the field page, released by the DPW's underground inspection."""

    list_display = ["field_link", "requested_at", "requested_by", "released_at"]
    list_filter = [("requested_at", admin.DateFieldListFilter)]
    readonly_fields = [f.name for f in CoveringHold._meta.fields]


@admin.register(Inspection)
class InspectionAdmin(FieldRecordAdmin):
    list_display = ["field_link", "kind", "result", "at", "inspector", "retest_fee_charged"]
    list_filter = ["kind", "result", ("at", admin.DateFieldListFilter), "retest_fee_charged"]
    list_select_related = ["permit", "inspector"]
    date_hierarchy = "at"
    readonly_fields = [f.name for f in Inspection._meta.fields]


@admin.register(PermitteeNotice)
class PermitteeNoticeAdmin(FieldRecordAdmin):
    list_display = ["field_link", "kind", "planned_work_at", "due_by", "given_at", "timeliness", "reminder_sent_at"]
    list_filter = ["kind", "timeliness", "method"]
    readonly_fields = [f.name for f in PermitteeNotice._meta.fields]


@admin.register(PavementRestoration)
class PavementRestorationAdmin(FieldRecordAdmin, SimpleHistoryAdmin):
    list_display = ["field_link", "temporary_placed_on", "permanent_due_on", "permanent_completed_on", "overdue"]
    list_filter = ["overdue", ("permanent_due_on", admin.DateFieldListFilter)]
    readonly_fields = [f.name for f in PavementRestoration._meta.fields]


@admin.register(Guarantee)
class GuaranteeAdmin(FieldRecordAdmin):
    list_display = ["field_link", "completed_on", "ends_on", "ended"]
    list_filter = ["ended", ("ends_on", admin.DateFieldListFilter)]
    readonly_fields = [f.name for f in Guarantee._meta.fields]


@admin.register(DefectNotice)
class DefectNoticeAdmin(FieldRecordAdmin, SimpleHistoryAdmin):
    list_display = [
        "field_link",
        "kind",
        "served_on",
        "addressee_name",
        "deadline",
        "corrected_on",
        "past_deadline_on",
        "village_repaired_on",
        "repair_total_display",
    ]
    list_filter = ["kind", "addressed_to", ("deadline", admin.DateFieldListFilter)]
    readonly_fields = [f.name for f in DefectNotice._meta.fields] + ["repair_total_display"]
    actions = ["mark_corrected_today"]

    @admin.display(description="Village repair bill (+20%)")
    def repair_total_display(self, obj):
        return f"${obj.repair_total}" if obj.repair_total is not None else "-"

    @admin.action(description="Mark the selected defects corrected today (§ 303-4H(4))")
    def mark_corrected_today(self, request, queryset):
        done = 0
        for notice in queryset.select_related("permit"):
            try:
                field_work.record_correction(notice=notice, by=request.user)
                done += 1
            except (PermissionDenied, RulesBroken) as error:
                self.message_user(request, f"{notice}: {error}", messages.ERROR)
        if done:
            self.message_user(request, f"{done} defect notice(s) marked corrected.")


@admin.register(VillageExpense)
class VillageExpenseAdmin(FieldRecordAdmin):
    """§ 303-4F(2): billed on the field page (bill_village_expenses), which adds them to the permit fee."""

    list_display = ["field_link", "incurred_on", "description", "labor", "equipment", "materials", "recorded_by"]
    list_filter = [("incurred_on", admin.DateFieldListFilter)]
    readonly_fields = [f.name for f in VillageExpense._meta.fields]
