"""The API's shared parts: the permit read serializers every permit type reuses, and the caller's permits."""

from rest_framework import serializers, viewsets

from permits.models import Permit, PermitEvent
from permits.selectors import permits_visible_to


class PermitEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = PermitEvent
        fields = ["at", "kind", "from_status", "to_status", "actor_label", "reason"]


class PermitSerializer(serializers.ModelSerializer):
    street = serializers.CharField(source="street.name", default=None, read_only=True)
    timeline = PermitEventSerializer(source="events", many=True, read_only=True)

    class Meta:
        model = Permit
        fields = [
            "number",
            "kind",
            "status",
            "street",
            "location_description",
            "work_description",
            "start_date",
            "end_date",
            "fee_amount",
            "submitted_at",
            "approved_on",
            "issued_on",
            "expires_on",
            "completed_on",
            "timeline",
        ]
        read_only_fields = fields


class PermitViewSet(viewsets.ReadOnlyModelViewSet):
    """Every permit the caller may see (its own and its organization's; all of them for Village staff)."""

    serializer_class = PermitSerializer
    lookup_field = "number"

    def get_queryset(self):
        return permits_visible_to(self.request.user).prefetch_related("events").order_by("-created_at")
