"""The registers in the back office: read-only (the records are public and the pages record them through the
services: permits.admin.base.ReadOnlyAdmin links each list to its page). Never deleted (Wis. Stat. § 19.21)."""

from __future__ import annotations

from django.contrib import admin

from obstructions.registers.models import (
    Grade,
    GradeApplication,
    HigherStandard,
    ImprovementRequest,
    TerraceApproval,
)
from permits.admin.base import ReadOnlyAdmin
from permits.models import VillageContract


class RegisterAdmin(ReadOnlyAdmin):
    """No add, change or delete here: the register's pages record through the services."""


@admin.register(Grade)
class GradeAdmin(RegisterAdmin):
    work_page = ("obstructions:registers:grades", "record grades and alterations on the register of grades")
    list_display = ("street", "way", "basis", "resolution_number", "established_on", "in_force")
    list_filter = ("way", "basis", "in_force")
    search_fields = ("street__name", "resolution_number")
    list_select_related = ("street",)


@admin.register(GradeApplication)
class GradeApplicationAdmin(RegisterAdmin):
    list_display = ("parcel", "street", "owners", "received_on", "status")
    list_filter = ("status",)
    list_select_related = ("parcel", "street")


@admin.register(ImprovementRequest)
class ImprovementRequestAdmin(RegisterAdmin):
    work_page = ("obstructions:registers:improvements", "receive requests on the improvement requests page")
    list_display = ("kind", "location", "petitioners", "presented_at", "consideration_year")
    list_filter = ("consideration_year", "kind")
    search_fields = ("location", "petitioners")


@admin.register(HigherStandard)
class HigherStandardAdmin(RegisterAdmin):
    work_page = ("obstructions:registers:higher_standards", "record standards on the higher standards page")
    list_display = ("street", "parcel", "min_width_feet", "min_thickness_inches", "resolution_number", "adopted_on")
    list_select_related = ("street", "parcel")


@admin.register(TerraceApproval)
class TerraceApprovalAdmin(RegisterAdmin):
    work_page = ("obstructions:registers:terrace_approvals", "record approvals on the terrace approvals page")
    list_display = ("parcel", "area", "approved_on", "ends_on", "motion", "approved_by")
    list_select_related = ("parcel", "approved_by", "motion")


@admin.register(VillageContract)
class VillageContractAdmin(RegisterAdmin):
    """§ 303-3C: the Village's contracts, entered on the register's page (permits.village_contracts)."""

    work_page = ("obstructions:registers:village_contracts", "enter contracts on the Village's contracts page")
    list_display = ("number", "contractor", "work", "starts_on", "ends_on", "motion")
    list_select_related = ("motion",)
    search_fields = ("number", "contractor")
