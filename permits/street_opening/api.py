"""The street opening API, for utilities that file many permits.

POST /api/v1/street-openings/ creates and submits an application; GET lists the caller's own; GET .../{number}/
shows one with its status and timeline. A request that breaks rules gets HTTP 400 with every broken rule at once,
each with its citation: the same rule functions and messages as the web form.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from permits.api.errors import error_response, parse_each_field
from permits.api.shared import (
    ApplicationViewSet,
    PermitEventSerializer,
    application_views,
    filed_by_or_for,
    organization_field,
    organization_named,
    street_named,
)
from permits.input_limits import MAX_DESCRIPTION
from permits.input_limits import PlausibleDateSerializerField as PlausibleDate
from permits.input_limits import PlausibleDateTimeSerializerField as PlausibleDateTime
from permits.models import PermitKind
from permits.street_opening import lifecycle
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so_services
from permits.street_opening.models import Surface, TrafficControl

MONEY = {"max_digits": 12, "decimal_places": 2, "required": False, "allow_null": True, "min_value": 0}


class StreetOpeningCreateSerializer(serializers.Serializer):
    """The application. Fields are optional in the schema so that every missing item is reported at once, with the
    section that requires it."""

    street = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="Street name from the Village's list"
    )
    location_description = serializers.CharField(required=False, allow_blank=True, max_length=300)
    work_description = serializers.CharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION)
    method = serializers.CharField(required=False, allow_blank=True, max_length=MAX_DESCRIPTION)
    start_date = PlausibleDate(required=False, allow_null=True)
    end_date = PlausibleDate(required=False, allow_null=True)
    surface = serializers.ChoiceField(choices=Surface.choices, required=False, allow_blank=True)
    existing_pavement_inches = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, min_value=0
    )
    emergency = serializers.BooleanField(required=False, default=False)
    emergency_began_on = PlausibleDate(
        required=False, allow_null=True, help_text="Emergencies: the day the work began (default: today)"
    )
    utility_interruption = serializers.BooleanField(required=False, default=False)
    near_existing_patch = serializers.BooleanField(required=False, default=False)
    nearby_openings = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION)
    map_latitude = serializers.DecimalField(
        max_digits=9, decimal_places=6, required=False, allow_null=True, min_value=-90, max_value=90
    )
    map_longitude = serializers.DecimalField(
        max_digits=9, decimal_places=6, required=False, allow_null=True, min_value=-180, max_value=180
    )
    insurance_per_person = serializers.DecimalField(**MONEY)
    insurance_per_accident = serializers.DecimalField(**MONEY)
    insurance_property_damage = serializers.DecimalField(**MONEY)
    insurance_expires = PlausibleDate(required=False, allow_null=True)
    annual_bond = serializers.BooleanField(
        required=False, default=False, help_text="True: the annual bond on file; false: a bond for this permit"
    )
    statement_signed_by = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Full name of the signer of the § 303-4H(1) statement",
    )
    statement_undertakings = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ordinance.UNDERTAKINGS)),
        required=False,
        help_text="Undertakings accepted; omitted, signing accepts the whole statement of § 303-4H(1)",
    )
    diggers_hotline_ticket = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)
    diggers_hotline_requested_at = PlausibleDateTime(required=False, allow_null=True)
    diggers_hotline_legal_start = PlausibleDate(required=False, allow_null=True)
    underground_utility = serializers.BooleanField(required=False, default=False)
    underground_depth_feet = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, min_value=0
    )
    lanes_open_each_way = serializers.IntegerField(
        required=False,
        default=1,
        min_value=0,
        max_value=9,
        help_text="Lanes of traffic kept open in each direction; 0 needs the DPW's approval (§ 303-5B(3))",
    )
    traffic_control = serializers.ChoiceField(
        choices=TrafficControl.choices,
        required=False,
        default=TrafficControl.NONE,
        help_text="none, flagman or temporary_signal: required when no lane is open each way (§ 303-5B(3))",
    )
    organization = organization_field()


class DiggersTicketSerializer(serializers.Serializer):
    number = serializers.CharField()
    contractor = serializers.CharField()
    requested_at = serializers.DateTimeField()
    legal_start = serializers.DateField()
    verification = serializers.CharField(source="verification_label")


class StreetOpeningSerializer(serializers.Serializer):
    number = serializers.CharField()
    status = serializers.CharField()
    street = serializers.CharField(source="street.name", default=None)
    location_description = serializers.CharField()
    work_description = serializers.CharField()
    method = serializers.CharField(source="street_opening.method")
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    surface = serializers.CharField(source="street_opening.surface")
    existing_pavement_inches = serializers.DecimalField(
        source="street_opening.existing_pavement_inches", max_digits=5, decimal_places=2
    )
    emergency = serializers.BooleanField(source="street_opening.emergency")
    utility_interruption = serializers.BooleanField(source="street_opening.utility_interruption")
    insurance_per_person = serializers.DecimalField(
        source="street_opening.insurance_per_person", max_digits=12, decimal_places=2
    )
    insurance_per_accident = serializers.DecimalField(
        source="street_opening.insurance_per_accident", max_digits=12, decimal_places=2
    )
    insurance_property_damage = serializers.DecimalField(
        source="street_opening.insurance_property_damage", max_digits=12, decimal_places=2
    )
    insurance_expires = serializers.DateField(source="street_opening.insurance_expires")
    annual_bond = serializers.BooleanField(source="street_opening.annual_bond")
    statement_signed_by = serializers.CharField(source="street_opening.statement_signed_by")
    statement_signed_at = serializers.DateTimeField(source="street_opening.statement_signed_at")
    dpw_conditions = serializers.CharField(source="street_opening.dpw_conditions")
    lanes_open_each_way = serializers.IntegerField(source="street_opening.lanes_open_each_way")
    traffic_control = serializers.CharField(source="street_opening.traffic_control")
    lane_closure_approved_at = serializers.DateTimeField(
        source="street_opening.lane_closure_approved_at", allow_null=True
    )
    underground_utility = serializers.BooleanField(source="street_opening.underground_utility")
    emergency_work_approved_at = serializers.DateTimeField(
        source="street_opening.emergency_work_approved_at", allow_null=True
    )
    diggers_hotline_tickets = DiggersTicketSerializer(source="street_opening.tickets.all", many=True)
    fee_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    submitted_at = serializers.DateTimeField()
    approved_on = serializers.DateField(allow_null=True)
    issued_on = serializers.DateField(allow_null=True)
    expires_on = serializers.DateField(allow_null=True)
    timeline = PermitEventSerializer(source="events.all", many=True)
    approval_can_come_on = serializers.DateField(
        source="street_opening.approval_can_come_on",
        allow_null=True,
        help_text="§ 303-4D: the first day an approval's 30 days cover the planned work",
    )
    approval_held_until = serializers.DateField(source="street_opening.approval_held_until", allow_null=True)
    opening_lapsed_on = serializers.DateField(
        source="street_opening.opening_lapsed_on",
        allow_null=True,
        help_text="§ 303-4D: the right to open the street ended; the restoration duties remain (§ 303-5G)",
    )
    completion_requested_at = serializers.DateTimeField(
        source="street_opening.completion_requested_at", allow_null=True
    )


class RenewalRequestInSerializer(serializers.Serializer):
    """§ 303-4E: the permittee's written request for a thirty-day renewal."""

    work_begun_on = PlausibleDate(required=False, allow_null=True, help_text="The date the work began")
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why the work will continue beyond the validity"
    )


class RenewalRequestOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField()
    requested_at = serializers.DateTimeField()
    work_begun_on = serializers.DateField()
    reason = serializers.CharField()


class CompletionRequestOutSerializer(serializers.Serializer):
    number = serializers.CharField(source="permit.number")
    completion_requested_at = serializers.DateTimeField()


class StreetOpeningListSerializer(StreetOpeningSerializer):
    """A list row without the timeline; the detail keeps it."""

    timeline = None


class CreatedSerializer(StreetOpeningSerializer):
    warnings = serializers.ListField(child=serializers.DictField(), read_only=True)


def _permittee_request(url_path: str, summary: str, *, done: tuple[int, type], forbidden: str, request=None):
    """A permittee's POST on one permit at `url_path`, documented: its answer when done, the one error body, 403 and
    404."""
    status_code, answer = done
    schema = extend_schema(
        summary=summary,
        request=request,
        responses={
            status_code: answer,
            400: OpenApiResponse(description='{"errors": [{"field", "code", "citation", "message"}]}'),
            403: OpenApiResponse(description=forbidden),
            404: OpenApiResponse(description="No such permit visible to you"),
        },
    )
    route = action(detail=True, methods=["post"], url_path=url_path)
    return lambda method: schema(route(method))


@application_views(
    listed="Your street opening applications",
    shown="One street opening permit with its status and timeline",
    applied="Apply for a street opening permit (creates and submits it)",
    created=CreatedSerializer,
)
class StreetOpeningViewSet(ApplicationViewSet):
    kind = PermitKind.STREET_OPENING
    serializer_class = StreetOpeningSerializer
    list_serializer_class = StreetOpeningListSerializer
    create_serializer_class = StreetOpeningCreateSerializer
    created_with_warnings = True

    def get_queryset(self):
        qs = self.permits_of_kind()
        if self.action == "list":
            # The list has no timeline (the detail has it).
            return (
                filed_by_or_for(qs, self.request.user)
                .select_related("street_opening")
                .prefetch_related("street_opening__tickets")
                .order_by("-created_at")
            )
        return (
            qs.select_related("street_opening")
            .prefetch_related("events", "street_opening__tickets")
            .order_by("-created_at")
        )

    def resolve(self, values, user):
        errors = street_named(values, citation="§ 303-4B")
        if values.get("statement_undertakings") is None and (values.get("statement_signed_by") or "").strip():
            values["statement_undertakings"] = list(ordinance.UNDERTAKINGS)
        values["organization"], more = organization_named(values, user)
        return errors + more

    def check(self, values, *, user, today, now):
        organization = values.get("organization")
        checked = so_services.check_application(values, applicant=user, organization=organization, today=today, now=now)
        return checked.errors + checked.warnings

    def apply(self, values, *, user, today):
        organization = values.pop("organization")
        return so_services.apply_for_street_opening(applicant=user, organization=organization, data=values, today=today)

    @_permittee_request(
        "renewal-request",
        "Ask in writing for a thirty-day renewal (§ 303-4E)",
        request=RenewalRequestInSerializer,
        done=(201, RenewalRequestOutSerializer),
        forbidden="Only the permittee asks for a renewal",
    )
    def renewal_request(self, request, number=None):
        permit = self.get_object()
        values, errors = parse_each_field(RenewalRequestInSerializer(), request.data)
        if errors:
            return error_response(errors)
        renewal_request = lifecycle.request_renewal(
            permit=permit, by=request.user, work_begun_on=values.get("work_begun_on"), reason=values.get("reason", "")
        )
        return Response(RenewalRequestOutSerializer(renewal_request).data, status=status.HTTP_201_CREATED)

    @_permittee_request(
        "completion-request",
        "Request completion of the work (§ 303-4H(3)); the DPW confirms it after the final inspection",
        done=(200, CompletionRequestOutSerializer),
        forbidden="Only the permittee requests completion",
    )
    def completion_request(self, request, number=None):
        permit = self.get_object()
        so = lifecycle.request_completion(permit=permit, by=request.user)
        return Response(CompletionRequestOutSerializer(so).data, status=status.HTTP_200_OK)
