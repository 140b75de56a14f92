"""Back office for the enforcement cases and the official street numbers.

Read-only: every change goes through obstructions.services and the staff pages (obstructions:cases,
obstructions:numbers); public records are never deleted (Wis. Stat. § 19.21).
"""

from django.contrib import admin
from django.utils.html import format_html

from obstructions.models import Case, CaseStep, MaterialsAuthorization, StreetNumber
from obstructions.registers import admin as registers_admin  # noqa: F401  (registers the registers' back office)
from permits.admin.base import ReadOnlyAdmin, ReadOnlyInline


class CaseStepInline(ReadOnlyInline):
    model = CaseStep
    fields = ["kind", "at", "by_label", "note", "photo"]
    readonly_fields = fields


@admin.register(Case)
class CaseAdmin(ReadOnlyAdmin):
    work_page = ("obstructions:cases", "work the cases on the enforcement pages")
    list_display = ["number", "kind", "status", "attention", "reported_address", "seen_at", "deadline_at"]
    list_filter = ["kind", "status", "attention", "via"]
    search_fields = ["number", "reported_address", "parcel__tax_key"]
    list_select_related = ["parcel"]
    inlines = [CaseStepInline]
    readonly_fields = ["page"]

    @admin.display(description="Case page")
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), obj.number)


@admin.register(StreetNumber)
class StreetNumberAdmin(ReadOnlyAdmin):
    work_page = ("obstructions:numbers", "assign numbers on the street numbers page (the Clerk-Treasurer)")
    list_display = ["__str__", "parcel", "building", "map_reference", "assigned_on", "assigned_by"]
    search_fields = ["parcel__tax_key", "parcel__site_address", "street__name"]
    list_select_related = ["parcel", "street", "assigned_by"]


@admin.register(MaterialsAuthorization)
class MaterialsAuthorizationAdmin(ReadOnlyAdmin):
    work_page = ("obstructions:materials", "authorize building materials on their page (the Building Inspector)")
    list_display = ["number", "parcel", "starts_on", "ends_on", "occupied_street_feet", "occupied_sidewalk_feet"]
    search_fields = ["number", "parcel__site_address", "location_description"]
    list_select_related = ["parcel"]
