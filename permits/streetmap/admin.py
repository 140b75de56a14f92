"""Back office of the street map: segments (import GeoJSON, edit), the DPW's conflict margin, and read-only
placements, conflict reviews and subscriptions (they change through their pages and services)."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.base import NoDeleteAdmin, ReadOnlyAdmin
from permits.errors import RulesBroken
from permits.streetmap import geometry, services
from permits.streetmap.models import ConflictMargin, ConflictReview, Placement, StreetSegment, StreetSubscription


class StreetSegmentForm(forms.ModelForm):
    class Meta:
        model = StreetSegment
        fields = ["street", "from_street", "to_street", "address_from", "address_to", "geometry", "source_id"]

    def clean_geometry(self):
        value = self.cleaned_data["geometry"]
        try:
            geometry.line_from_geojson(value)
        except geometry.GeometryError as error:
            raise forms.ValidationError(str(error)) from None
        return value


class GeoJSONImportForm(forms.Form):
    file = forms.FileField(label="GeoJSON file (a FeatureCollection of LineStrings)")
    create_streets = forms.BooleanField(label="Create missing streets", required=False)


@admin.register(StreetSegment)
class StreetSegmentAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    form = StreetSegmentForm
    list_display = ["street", "from_street", "to_street", "address_from", "address_to"]
    list_filter = ["street"]
    search_fields = ["street__name", "from_street", "to_street"]
    list_select_related = ["street"]
    change_list_template = "admin/permits/streetsegment/change_list.html"

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.recompute_adjoining()

    def get_urls(self):
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="permits_streetsegment_import"),
        ] + super().get_urls()

    def import_view(self, request):
        """Upload a GeoJSON file of segments; every problem is listed, and nothing is stored unless all is good."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = GeoJSONImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                result = services.import_segments(
                    data=form.cleaned_data["file"].read(),
                    by=request.user,
                    create_streets=form.cleaned_data["create_streets"],
                )
            except RulesBroken as error:
                for violation in error.violations:
                    messages.error(request, violation.message)
            else:
                messages.success(request, f"Imported {result['created']} new and {result['updated']} updated segments.")
                return redirect("admin:permits_streetsegment_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Import street segments (GeoJSON)",
            "form": form,
        }
        return TemplateResponse(request, "admin/permits/streetsegment/import.html", context)


@admin.register(ConflictMargin)
class ConflictMarginAdmin(NoDeleteAdmin):
    list_display = ["days", "effective_from", "set_by", "set_at", "note"]
    fields = ["days", "effective_from", "note"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        try:
            saved = services.set_conflict_margin(
                days=obj.days, effective_from=obj.effective_from or timezone.localdate(), by=request.user, note=obj.note
            )
        except (RulesBroken, PermissionDenied) as error:
            messages.error(request, str(error))
            return
        obj.pk = saved.pk


@admin.register(Placement)
class PlacementAdmin(ReadOnlyAdmin):
    list_display = ["permit", "source", "placed_by", "placed_at"]
    list_select_related = ["permit", "placed_by"]
    search_fields = ["permit__number"]


@admin.register(ConflictReview)
class ConflictReviewAdmin(ReadOnlyAdmin):
    list_display = ["permit", "reviewed_by", "reviewed_at", "accepts_closure"]
    list_select_related = ["permit", "reviewed_by"]
    search_fields = ["permit__number"]


@admin.register(StreetSubscription)
class StreetSubscriptionAdmin(ReadOnlyAdmin):
    list_display = ["email", "street", "address_number", "created_at", "verified_at"]
    list_filter = ["street"]
    search_fields = ["email"]
