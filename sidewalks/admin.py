"""Back office for sidewalk permits, inspections, Board waivers, surveys and orders, and the snow and rubbish cases.

Status and audit fields are read-only; every change of state goes through sidewalks.services and the staff pages
(sidewalks:orders, sidewalks:surveys); public records are never deleted (Wis. Stat. § 19.21).
"""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from permits.admin.base import NoDeleteAdmin, ReadOnlyAdmin
from permits.forms import add_violations
from permits.roles import Role, has_role
from sidewalks import services
from sidewalks.models import (
    BoardWaiver,
    MinorRepairAuthority,
    MinorSidewalkRepair,
    RubbishCase,
    SidewalkInspection,
    SidewalkOrder,
    SidewalkPermit,
    SidewalkSurvey,
    SnowCase,
    Snowfall,
    SurveyBlock,
)


@admin.register(SidewalkPermit)
class SidewalkPermitAdmin(ReadOnlyAdmin):
    list_display = [
        "permit",
        "parcel",
        "work",
        "width_feet",
        "thickness_inches",
        "material",
        "pour_date",
        "work_suspended",
    ]
    list_filter = ["work", "material", "standing", "village_contract", "work_suspended"]
    search_fields = ["permit__number", "parcel__tax_key", "parcel__site_address"]
    list_select_related = ["permit", "parcel"]
    readonly_fields = ["page", "owner_of_record"]

    @admin.display(description="Owner of record (§ 303-3C)")
    def owner_of_record(self, obj):
        return obj.parcel.owner_name

    @admin.display(description="Permit page")
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), obj.permit.number)


@admin.register(SidewalkInspection)
class SidewalkInspectionAdmin(ReadOnlyAdmin):
    list_display = ["permit", "stage", "result", "citations", "inspected_at", "inspector"]
    list_filter = ["stage", "result"]
    search_fields = ["permit__number"]
    list_select_related = ["permit", "inspector"]


class BoardWaiverForm(forms.ModelForm):
    """The clerk names the Board's motion; the vote, seats and date are the motion's (permits.board)."""

    class Meta:
        model = BoardWaiver
        fields = ["kind", "parcel", "permit", "emergency", "ends_on", "motion", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "motion" in self.fields:
            self.fields["motion"].required = True
            self.fields["motion"].queryset = self.fields["motion"].queryset.select_related("item__meeting")

    def clean(self):
        data = super().clean()
        if data.get("kind") and data.get("motion"):
            add_violations(self, services.waiver_errors(kind=data["kind"], motion=data["motion"]))
        if data.get("kind") and data.get("parcel"):
            # § 303-3D(9), § 303-3D(6): one permit (and, for cold weather, one emergency and a last day).
            add_violations(
                self,
                services.waiver_permit_errors(
                    kind=data["kind"],
                    parcel=data["parcel"],
                    permit=data.get("permit"),
                    emergency=data.get("emergency") or "",
                    ends_on=data.get("ends_on"),
                    adopted_on=getattr(data.get("motion"), "held_on", None),
                ),
            )
        return data


@admin.register(BoardWaiver)
class BoardWaiverAdmin(NoDeleteAdmin):
    """The clerk records a waiver the Board adopted, with its vote; once recorded it is a public record."""

    form = BoardWaiverForm
    list_display = ["resolution_number", "kind", "parcel", "adopted_on", "ayes", "nays", "seats", "is_effective"]
    list_filter = ["kind"]
    search_fields = ["resolution_number", "parcel__tax_key", "parcel__site_address"]
    list_select_related = ["parcel", "motion"]
    raw_id_fields = ["parcel", "permit"]
    readonly_fields = ["resolution_number", "adopted_on", "ayes", "nays", "seats"]

    @admin.display(boolean=True, description="Effective")
    def is_effective(self, obj):
        return obj.is_effective

    def has_add_permission(self, request):
        return has_role(request.user, Role.CLERK) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        waiver = services.record_board_waiver(
            kind=obj.kind,
            parcel=obj.parcel,
            motion=obj.motion,
            reason=obj.reason,
            permit=obj.permit,
            emergency=obj.emergency,
            ends_on=obj.ends_on,
            by=request.user,
        )
        obj.pk = waiver.pk
        obj.__dict__.update({k: v for k, v in waiver.__dict__.items() if not k.startswith("_")})


class SurveyBlockInline(admin.TabularInline):
    model = SurveyBlock
    extra = 0
    can_delete = False
    fields = readonly_fields = [
        "parcel",
        "block_number",
        "vertical_inches",
        "horizontal_inches",
        "deterioration_inches",
        "defective",
        "defects",
    ]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SidewalkSurvey)
class SidewalkSurveyAdmin(ReadOnlyAdmin):
    list_display = ["street", "surveyed_on", "inspector", "orders_proposed_on", "page"]
    list_filter = ["street"]
    list_select_related = ["street", "inspector"]
    inlines = [SurveyBlockInline]

    @admin.display(description="Survey page")
    def page(self, obj):
        return format_html('<a href="{}">Open</a>', obj.get_absolute_url())


@admin.register(SidewalkOrder)
class SidewalkOrderAdmin(NoDeleteAdmin):
    """Orders move through the staff page (adopt, serve, owner or Village work, charge); here the clerk may only
    record that an order belongs to the Highland Avenue / Theresa Lane project (§ 303-3B(2)) before it is charged."""

    list_display = [
        "number",
        "parcel",
        "work",
        "status",
        "estimated_cost",
        "resolution_number",
        "owner_deadline",
        "charge",
    ]
    list_filter = ["status", "element", "work", "reason", "highland_theresa_project"]
    search_fields = ["number", "parcel__tax_key", "parcel__site_address", "resolution_number"]
    list_select_related = ["parcel", "charge"]
    readonly_fields = [
        "number",
        "page",
        "parcel",
        "survey",
        "reason",
        "element",
        "work",
        "blocks_total",
        "blocks_defective",
        "quantity",
        "unit",
        "fee_code",
        "unit_price",
        "estimated_cost",
        "status",
        "resolution_number",
        "adopted_on",
        "service_method",
        "served_on",
        "service_proof",
        "owner_deadline",
        "owner_permit",
        "village_cost",
        "village_done_on",
        "charge",
        "created_by",
        "created_at",
    ]
    fields = ["number", "page", "highland_theresa_project"] + readonly_fields[2:]

    def has_add_permission(self, request):
        return False  # orders come from surveys (or the Board), through the services

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and (obj.status == SidewalkOrder.Status.CHARGED or not has_role(request.user, Role.CLERK)):
            return self.readonly_fields + ["highland_theresa_project"]
        return self.readonly_fields

    @admin.display(description="Staff page")
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("sidewalks:order", args=[obj.number]), "Open")

    def save_model(self, request, obj, form, change):
        # Only the one editable field is written, so a concurrent status change is never overwritten.
        SidewalkOrder.objects.filter(pk=obj.pk).exclude(status=SidewalkOrder.Status.CHARGED).update(
            highland_theresa_project=obj.highland_theresa_project
        )


@admin.register(MinorRepairAuthority)
class MinorRepairAuthorityAdmin(ReadOnlyAdmin):
    """§ 303-3B(3): the Board's authority for minor repairs, recorded on the minor repairs page (the service checks
    the Board's motion)."""

    work_page = ("sidewalks:minor_repairs", "record the Board's authority on the minor repairs page")
    list_display = ["effective_from", "limit", "motion", "recorded_by"]


@admin.register(MinorSidewalkRepair)
class MinorSidewalkRepairAdmin(ReadOnlyAdmin):
    """§ 303-3B(3), Wis. Stat. § 66.0907: minor repairs and their charges, recorded on the minor repairs page."""

    work_page = ("sidewalks:minor_repairs", "record minor repairs on the minor repairs page")
    list_display = ["number", "parcel", "done_on", "cost", "charge"]
    search_fields = ["number", "parcel__tax_key", "parcel__site_address"]
    list_select_related = ["parcel", "charge"]


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
