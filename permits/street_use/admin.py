"""Back office for the street use records (§ 303-15). Status and audit fields are read-only; acts go through the
services (permits.street_use.services); public records are never deleted. The petition's addresses, households, pages
and consents are the Clerk-Treasurer's alone (permits.role_permissions: no other role sees them)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.mixins import ReadOnly
from permits.errors import RulesBroken
from permits.street_use import services
from permits.street_use.models import (
    BoardAppearance,
    HouseholdContact,
    PetitionAddress,
    PetitionPage,
    PetitionSignature,
    StreetUse,
)
from permits.workflow import IllegalTransition


def _each(modeladmin, request, queryset, verb, done: str):
    for su in queryset.select_related("permit"):
        try:
            verb(permit=su.permit, by=request.user)
        except RulesBroken as error:
            modeladmin.message_user(request, f"{su.permit.number}: {error}", messages.ERROR)
        except (PermissionDenied, IllegalTransition) as error:
            modeladmin.message_user(request, f"{su.permit.number}: {error}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{su.permit.number}: {done}")


@admin.register(StreetUse)
class StreetUseAdmin(ReadOnly, SimpleHistoryAdmin):
    """Filed through the application (§ 303-15B); decided by the Board (§ 303-15C); acts call the services."""

    list_display = ["permit", "applicant_name", "organization_name", "starts_at", "ends_at", "terminated_at"]
    search_fields = ["permit__number", "applicant_name", "organization_name"]
    list_select_related = ["permit"]
    actions = ["verify_petition", "issue"]

    @admin.action(description="Verify the petition (§ 303-15F)")
    def verify_petition(self, request, queryset):
        _each(self, request, queryset, services.verify_petition, "petition verified (§ 303-15F)")

    @admin.action(description="Issue the permit (§ 303-15A, § 303-15G)")
    def issue(self, request, queryset):
        _each(self, request, queryset, services.issue_street_use, "issued (§ 303-15A)")


@admin.register(PetitionAddress)
class PetitionAddressAdmin(ReadOnly, admin.ModelAdmin):
    """§ 303-15F: the addresses along the portion, from the parcel roll, with the adults each declared. Recorded on
    the clerk's street use page (services.declare_adults, add_unit), where the rules run."""

    list_display = ["__str__", "street_use", "adults_declared", "declared_by_label"]
    list_select_related = ["street_use__permit", "parcel"]
    search_fields = ["parcel__site_address", "street_use__permit__number"]


@admin.register(HouseholdContact)
class HouseholdContactAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["email", "address", "recorded_by", "recorded_at"]
    list_select_related = ["address__parcel", "recorded_by"]


@admin.register(PetitionPage)
class PetitionPageAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "street_use", "sworn_on", "accepted_at"]
    list_select_related = ["street_use__permit"]


@admin.register(PetitionSignature)
class PetitionSignatureAdmin(ReadOnly, admin.ModelAdmin):
    """§ 303-15F: recorded by a household's code or from an accepted paper page (the street use page)."""

    list_display = ["signer_name", "street_use", "address", "method", "page", "signed_at"]
    list_select_related = ["street_use__permit", "address__parcel", "page"]


@admin.register(BoardAppearance)
class BoardAppearanceAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["name", "capacity", "item", "street_use"]
    list_select_related = ["item__meeting", "street_use__permit"]
