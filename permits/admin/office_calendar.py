"""Back office of the office-closure calendar (§ 303-5F, § 303-5H business days) and of what a utility owns
(§ 303-5H): both set by the Clerk-Treasurer, both through their services."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.base import NoDeleteAdmin
from permits.models import OfficeClosure, Organization
from permits.office_calendar import record_closure


class OfficeClosureForm(forms.ModelForm):
    class Meta:
        model = OfficeClosure
        fields = ["day", "name", "closed"]


@admin.register(OfficeClosure)
class OfficeClosureAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    """The days the Village office is closed. Statute rows come from Wis. Stat. § 995.20; a day the office opens
    after all is unticked, not deleted (public record)."""

    form = OfficeClosureForm
    list_display = ["day", "weekday", "name", "closed", "source", "recorded_by"]
    list_filter = ["closed", "source", ("day", admin.DateFieldListFilter)]
    date_hierarchy = "day"
    search_fields = ["name"]
    readonly_fields = ["source", "recorded_by", "recorded_at"]
    list_per_page = 50

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "day"] if obj is not None else self.readonly_fields

    @admin.display(description="Weekday")
    def weekday(self, obj):
        return f"{obj.day:%A}"

    def save_model(self, request, obj, form, change):
        # The form's fields are required, so a RulesBroken here is a race: it is raised as it is.
        saved = record_closure(by=request.user, day=obj.day, name=obj.name, closed=obj.closed)
        obj.pk, obj.source, obj.recorded_by = saved.pk, saved.source, saved.recorded_by


def utility_facility_field() -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=Organization.Facility.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Utilities it owns or controls in or under Village streets (§ 303-5H)",
        help_text="Set by the Clerk-Treasurer after checking. Only an organization with one ticked (and its staff) "
        "may claim an emergency excavation.",
    )


class OrganizationUtilityForm(forms.ModelForm):
    utility_facilities = utility_facility_field()

    class Meta:
        model = Organization
        fields = ["name", "kind", "phone", "address", "utility_facilities", "utility_facilities_note"]
