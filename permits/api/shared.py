"""The API's shared parts: the permit read serializers every permit type reuses, and the caller's permits."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import filters, serializers, viewsets

from permits.models import Parcel, Permit, PermitEvent
from permits.paging import KeysFirstPagination
from permits.roles import is_village_staff
from permits.selectors import permits_visible_to
from permits.text_search import filter_every_term


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


class PermitListSerializer(PermitSerializer):
    """A list row without the timeline (a permit's timeline may hold 1,000 events); the
    detail keeps it."""

    timeline = None

    class Meta(PermitSerializer.Meta):
        fields = [name for name in PermitSerializer.Meta.fields if name != "timeline"]
        read_only_fields = fields


class PermitViewSet(viewsets.ReadOnlyModelViewSet):
    """Every permit the caller may see (its own and its organization's; all of them for Village staff)."""

    serializer_class = PermitSerializer
    lookup_field = "number"
    pagination_class = KeysFirstPagination

    def get_serializer_class(self):
        return PermitListSerializer if self.action == "list" else PermitSerializer

    def get_queryset(self):
        qs = permits_visible_to(self.request.user).order_by("-created_at", "-pk")  # permit_created_at_idx
        return qs if self.action == "list" else qs.prefetch_related("events")


class ParcelSerializer(serializers.ModelSerializer):
    address = serializers.CharField(source="site_address")
    street = serializers.CharField(source="street.name")

    class Meta:
        model = Parcel
        fields = [
            "tax_key",
            "address",
            "land_use",
            "street",
            "owner_name",
            "corner_lot",
            "crosswalk_adjacent",
            "owner_mailing_address",
        ]
        read_only_fields = fields

    def to_representation(self, instance):
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is None or not is_village_staff(request.user):
            data.pop("owner_mailing_address")  # public records, but kept to staff to deter mailing-list harvesting
        return data


class IndexedSearchFilter(filters.SearchFilter):
    """DRF's search rule (every term found in one of `search_fields`), each term matched through permits.text_search:
    the trigram indexes on PostgreSQL, no join before the filter."""

    def filter_queryset(self, request, queryset, view):
        fields = getattr(view, "search_fields", None)
        terms = self.get_search_terms(request)
        if not fields or not terms:
            return queryset
        return filter_every_term(queryset, terms, fields)


@extend_schema_view(
    list=extend_schema(summary="Find parcels by address, owner or tax key (?search=TEXT)"),
    retrieve=extend_schema(summary="One parcel by its tax key number"),
)
class ParcelViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ParcelSerializer
    lookup_field = "tax_key"
    lookup_value_regex = "[^/]+"
    filter_backends = [IndexedSearchFilter]
    search_fields = ["site_address", "owner_name", "tax_key"]

    def get_queryset(self):
        # Ordered by address (its index), not by street name first: a join sorts every match, this stops at a page.
        return Parcel.objects.select_related("street").order_by("site_address", "tax_key")
