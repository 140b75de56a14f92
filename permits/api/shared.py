"""The API's shared parts: the permit read serializers every permit type reuses, and the caller's permits."""

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q, QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import filters, mixins, serializers, status, viewsets
from rest_framework.response import Response

from permits.api.errors import error_response, parse_each_field, rules_broken_response
from permits.api.parsers import API_PARSERS
from permits.errors import Violation
from permits.models import Organization, Parcel, Permit, PermitEvent, Street
from permits.paging import KeysFirstPagination
from permits.roles import is_village_staff
from permits.selectors import organization_ids_of, permits_visible_to
from permits.text_search import filter_every_term


class PermitEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = PermitEvent
        fields = ["at", "kind", "from_status", "to_status", "actor_label", "reason"]


class PermitSerializer(serializers.ModelSerializer):
    street = serializers.CharField(source="street.name", default=None, read_only=True)
    timeline = PermitEventSerializer(source="events", many=True, read_only=True)
    # The same balance and refund as every page (permits.models.core.owed): a withdrawn or denied application owes
    # nothing, and what was paid and not kept under Chapter 167 is a refund due.
    balance_due = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    refund_due = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)

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
            "balance_due",
            "refund_due",
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


def street_named(values: dict, *, citation: str) -> list[dict]:
    """Put the Street the application names in `values["street"]` (None when it names none): an unknown name is an
    error citing the type's section."""
    name = (values.get("street") or "").strip()
    values["street"] = street = Street.objects.filter(name__iexact=name).first() if name else None
    if name and street is None:
        message = f"No street named {name!r} in the Village's street list ({citation})"
        return [{"field": "street", "code": "unknown_street", "citation": citation, "message": message}]
    return []


def organization_field(**options) -> serializers.CharField:
    """An application's `organization`: the name of one of the caller's organizations (organization_named finds it)."""
    options.setdefault("help_text", "Company name, if you are on the staff of several")
    return serializers.CharField(required=False, allow_blank=True, max_length=200, **options)


def organization_named(values: dict, user, *, default_to_first: bool = True) -> tuple[Organization | None, list[dict]]:
    """The organization the application is filed for, by name, among the caller's own; none named, the caller's first
    (or none, `default_to_first=False`). Taken out of `values`."""
    orgs = Organization.objects.filter(memberships__user=user)
    wanted = (values.pop("organization", "") or "").strip()
    if not wanted:
        return (orgs.order_by("pk").first() if default_to_first else None), []
    organization = orgs.filter(name__iexact=wanted).first()
    if organization is None:
        message = "You are not on the staff of that organization"
        return None, [{"field": "organization", "code": "not_a_member", "citation": "", "message": message}]
    return organization, []


def application_schema(summary: str, *, request, created):
    """The schema of a type's `create`: the application it takes, the permit it returns, the one error body."""
    errors = OpenApiResponse(description='{"errors": [{"field", "code", "citation", "message"}]}')
    return extend_schema(summary=summary, request=request, responses={201: created, 400: errors})


def application_views(*, listed: str, shown: str, applied: str, created=None):
    """Document a type's ApplicationViewSet: the summaries of its list, its detail and its `create`. `create` takes the
    viewset's `create_serializer_class` and answers with its `serializer_class`, or `created` when the body adds to
    it."""

    def document(viewset):
        return extend_schema_view(
            list=extend_schema(summary=listed),
            retrieve=extend_schema(summary=shown),
            create=application_schema(
                applied, request=viewset.create_serializer_class, created=created or viewset.serializer_class
            ),
        )(viewset)

    return document


def filed_by_or_for(qs: QuerySet[Permit], user) -> QuerySet[Permit]:
    """The permits in `qs` the user filed, or that were filed for one of the user's organizations. (Village staff see
    every permit; their own list still shows only these.)"""
    # The ids fetched first: no join, no DISTINCT.
    return qs.filter(Q(applicant=user) | Q(organization_id__in=organization_ids_of(user)))


# A permit type's applications: list and retrieve, and `create`, which applies and submits in one request. A request
# that breaks rules gets HTTP 400 with every broken rule at once: each malformed field by its own error, with the rules
# the well-formed fields break. A type names its serializers and fills in the three steps: `resolve` (names to
# records), `check` (the filing rules, warnings included) and `apply` (its service). (A comment, not a docstring: the
# API docs would show it on every type's endpoints.)
class ApplicationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    lookup_field = "number"
    parser_classes = API_PARSERS  # one JSON object of bounded depth (OWASP ASVS V13.1.1)
    kind: str  # the PermitKind it files and shows
    create_serializer_class: type[serializers.Serializer]
    list_serializer_class: type[serializers.Serializer]
    created_with_warnings = False  # the created permit's body lists the warnings given at filing

    def get_serializer_class(self):
        return self.list_serializer_class if self.action == "list" else self.serializer_class

    def permits_of_kind(self) -> QuerySet[Permit]:
        """The permits of this type the caller may see."""
        return permits_visible_to(self.request.user).filter(kind=self.kind)

    def resolve(self, values: dict, user) -> list[dict]:
        """Turn the names the request gives into records, in `values`; the errors of names that match none."""
        return []

    def check(self, values: dict, *, user, today, now) -> list[Violation]:
        raise NotImplementedError

    def apply(self, values: dict, *, user, today) -> Permit:
        raise NotImplementedError

    def create(self, request):
        now = timezone.now()
        today = timezone.localdate(now)
        values, errors = parse_each_field(self.create_serializer_class(), request.data)
        if errors and not hasattr(request.data, "get"):
            return error_response(errors)  # not an object: there are no fields to check
        errors += self.resolve(values, request.user)
        checked = self.check(values, user=request.user, today=today, now=now)
        broken = [v for v in checked if not v.warning]
        if errors or broken:  # every broken rule at once, before the service stores anything
            malformed = {e["field"] for e in errors}
            return error_response(errors + [v.as_dict() for v in broken if v.field not in malformed])
        try:
            permit = self.apply(values, user=request.user, today=today)
        except DjangoValidationError as refused:  # RulesBroken, or a check only the service makes
            return rules_broken_response(refused)
        except PermissionDenied as denied:
            return error_response(
                [{"field": "organization", "code": "permission_denied", "citation": "", "message": str(denied)}],
                status.HTTP_403_FORBIDDEN,
            )
        body = self.serializer_class(self.get_queryset().get(pk=permit.pk)).data
        if self.created_with_warnings:
            body["warnings"] = [v.as_dict() for v in checked if v.warning]
        return Response(body, status=status.HTTP_201_CREATED)


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
