"""Back office for the street privilege records. Everything is read-only here (status, bond, Board decisions and
audit fields are written by the services); the actions call the services. Public records are never deleted."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied

from permits.admin.base import ReadOnlyAdmin, ReadOnlyInline
from permits.errors import RulesBroken
from permits.street_privilege import services as sp_services
from permits.street_privilege.models import CostLine, Recommendation, SidewalkObstruction, StreetPrivilege
from permits.workflow import IllegalTransition


class RecommendationInline(ReadOnlyInline):
    model = Recommendation
    fields = readonly_fields = ["office", "recommended", "conditions", "insurance_required", "by", "at"]


class CostLineInline(ReadOnlyInline):
    model = CostLine
    fields = readonly_fields = ["description", "amount", "added_by", "added_at"]


def _act_on_each(modeladmin, request, queryset, verb, call):
    done = 0
    for sp in queryset.select_related("permit"):
        try:
            call(sp.permit, request.user)
        except (RulesBroken, PermissionDenied, IllegalTransition) as error:
            modeladmin.message_user(request, f"{sp.permit.number}: {error}", messages.ERROR)
        else:
            done += 1
    if done:
        modeladmin.message_user(request, f"{done} permit(s) {verb}.", messages.SUCCESS)


@admin.action(description="Request the advisory recommendations (start review, § 303-7A)")
def begin_review(modeladmin, request, queryset):
    _act_on_each(modeladmin, request, queryset, "taken up", lambda p, u: sp_services.begin_review(permit=p, by=u))


@admin.action(description="Issue (§ 303-7A; refused until recommendations, building permit, bond and fee are in)")
def issue(modeladmin, request, queryset):
    _act_on_each(
        modeladmin, request, queryset, "issued", lambda p, u: sp_services.issue_street_privilege(permit=p, by=u)
    )


@admin.register(StreetPrivilege)
class StreetPrivilegeAdmin(ReadOnlyAdmin):
    list_display = ["permit", "purpose", "bond_amount", "bond_filed_at", "day_and_night_ordered", "closing_passed"]
    list_filter = ["purpose", "sidewalk_occupied", "day_and_night_ordered"]
    search_fields = ["permit__number", "permit__street__name", "permit__location_description"]
    list_select_related = ["permit"]
    inlines = [RecommendationInline, CostLineInline]
    actions = [begin_review, issue]
    work_page = ("permits:street_privilege_queue", "work on street privilege permits on their pages")

    def has_change_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]


@admin.register(SidewalkObstruction)
class SidewalkObstructionAdmin(ReadOnlyAdmin):
    list_display = ["privilege", "parcel", "status", "noticed_at", "removed_at", "cost", "charge"]
    list_filter = ["status"]
    list_select_related = ["privilege__permit", "parcel", "charge"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]
