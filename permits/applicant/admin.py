"""Back office: parcel link requests, read-only; their decisions call permits.applicant.parcel_links (the same
service as the clerk's queue page). Drafts and notice preferences are the applicant's own and stay out of it."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError

from permits.admin.base import NoDeleteAdmin
from permits.applicant import parcel_links
from permits.models import InformationRequest, ParcelLinkRequest


@admin.register(ParcelLinkRequest)
class ParcelLinkRequestAdmin(NoDeleteAdmin):
    list_display = ["requested_at", "user", "parcel", "tax_bill_number", "status", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["parcel__tax_key", "parcel__site_address", "user__email", "tax_bill_number"]
    list_select_related = ["user", "parcel", "decided_by"]
    readonly_fields = [
        "user",
        "parcel",
        "tax_bill_number",
        "document",
        "document_content_type",
        "note",
        "status",
        "requested_at",
        "decided_at",
        "decided_by",
        "decision_reason",
    ]
    actions = ["approve_selected"]

    def has_add_permission(self, request):
        return False  # a resident asks from the site, with proof

    @admin.action(description="Approve the selected requests (the proof matches the owner of record)")
    def approve_selected(self, request, queryset):
        done = 0
        for link in queryset.filter(status=ParcelLinkRequest.Status.PENDING).select_related("user", "parcel"):
            try:
                parcel_links.approve_link(link=link, by=request.user)
            except (PermissionDenied, ValidationError) as error:
                self.message_user(request, f"Request {link.pk}: {error}", level=messages.ERROR)
            else:
                done += 1
        self.message_user(request, f"{done} request{'s' if done != 1 else ''} approved.")


@admin.register(InformationRequest)
class InformationRequestAdmin(NoDeleteAdmin):
    """Read only: staff ask from the permit page and the applicant answers there (permits.applicant.applications),
    so the one-open-request rule, the timeline and the notices hold on every path."""

    list_display = ["permit", "asked_at", "asked_by", "answered_at", "answered_by"]
    list_filter = [("answered_at", admin.EmptyFieldListFilter)]
    search_fields = ["permit__number", "question", "answer"]
    list_select_related = ["permit", "asked_by", "answered_by"]
    readonly_fields = [
        "permit",
        "question",
        "asked_by",
        "asked_at",
        "answer",
        "answered_by",
        "answered_at",
        "documents",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
