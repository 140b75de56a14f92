"""Back office for the street use records (§ 303-15). Status and audit fields are read-only; acts go through the
services (permits.street_use.services); public records are never deleted. The register of adult residents and the
petition's signatures are the Clerk-Treasurer's alone (permits.role_permissions: no other role sees them)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.mixins import NoDelete, ReadOnly
from permits.errors import RulesBroken
from permits.street_use import services
from permits.street_use.models import BoardAppearance, PetitionSignature, RegisteredResident, StreetUse
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


@admin.register(RegisteredResident)
class RegisteredResidentAdmin(NoDelete, SimpleHistoryAdmin):
    """§ 303-15F: the register the petition's roster comes from. Moved out: set the last day of residence."""

    list_display = ["name", "parcel", "birth_date", "attested_adult", "resides_until"]
    search_fields = ["name", "parcel__site_address", "parcel__tax_key"]
    autocomplete_fields = ["parcel"]
    readonly_fields = ["recorded_by", "recorded_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.recorded_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(PetitionSignature)
class PetitionSignatureAdmin(ReadOnly, admin.ModelAdmin):
    """§ 303-15F: recorded by the neighbour's verified link or the clerk's entry (the street use page)."""

    list_display = ["signer_name", "street_use", "method", "resident", "signed_at"]
    list_select_related = ["street_use__permit", "resident__parcel"]


@admin.register(BoardAppearance)
class BoardAppearanceAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["name", "capacity", "item", "street_use"]
    list_select_related = ["item__meeting", "street_use__permit"]
