"""The street privilege API: POST /api/v1/street-privilege-permits/ creates and submits an application; GET lists
the caller's own; GET .../{number}/ shows one with its status, its timeline and, once issued, `terminates_on`. A
request that breaks rules gets HTTP 400 with every broken rule at once, each with its citation: the same rule
functions and messages as the web form (services.check_application)."""

from __future__ import annotations

from rest_framework import serializers

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
from permits.models import PermitKind
from permits.street_privilege import services as sp_services
from permits.street_privilege.models import Purpose

FEET = {"max_digits": 5, "decimal_places": 1, "required": False, "allow_null": True, "min_value": 0}


class StreetPrivilegeCreateSerializer(serializers.Serializer):
    """The application. Fields are optional in the schema so that every missing item is reported at once, with the
    section that requires it."""

    purpose = serializers.ChoiceField(choices=Purpose.choices, required=False, allow_blank=True)
    street = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="From the Village's list"
    )
    location_description = serializers.CharField(required=False, allow_blank=True, max_length=300)
    start_date = PlausibleDate(required=False, allow_null=True)
    end_date = PlausibleDate(required=False, allow_null=True)
    building_permit_number = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=40,
        default="",
        help_text="If you have one; the Building Inspector decides whether one is required (§ 303-7A)",
    )
    occupied_street_feet = serializers.DecimalField(
        **FEET, help_text="At most one third of the street's width on the Village's register (§ 303-7D(1))"
    )
    sidewalk_occupied = serializers.BooleanField(required=False, default=False)
    temporary_walk_width_feet = serializers.DecimalField(**FEET, help_text="At least 4 ft (§ 303-7D(3))")
    fence_height_feet = serializers.DecimalField(**FEET, help_text="At least 4 ft (§ 303-7D(3))")
    fenced_both_sides = serializers.BooleanField(required=False, default=False)
    lighted_at_night = serializers.BooleanField(required=False, default=False, help_text="§ 303-7D(2)")
    building_description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION
    )
    route_description = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION)
    overnight_stops = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION)
    overnight_at_intersection_or_hydrant = serializers.BooleanField(required=False, default=False)
    day_and_night_requested = serializers.BooleanField(required=False, default=False, help_text="§ 303-7D(4)")
    organization = organization_field()


class RecommendationSerializer(serializers.Serializer):
    office = serializers.CharField()
    recommended = serializers.BooleanField()
    conditions = serializers.CharField()
    insurance_required = serializers.BooleanField()
    at = serializers.DateTimeField()


class StreetPrivilegeSerializer(serializers.Serializer):
    number = serializers.CharField()
    status = serializers.CharField()
    purpose = serializers.CharField(source="street_privilege.purpose")
    street = serializers.CharField(source="street.name", default=None)
    location_description = serializers.CharField()
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    building_permit_number = serializers.CharField(source="street_privilege.building_permit_number")
    street_width_feet = serializers.DecimalField(
        source="street_privilege.street_width_feet", max_digits=5, decimal_places=1
    )
    occupied_street_feet = serializers.DecimalField(
        source="street_privilege.occupied_street_feet", max_digits=5, decimal_places=1
    )
    sidewalk_occupied = serializers.BooleanField(source="street_privilege.sidewalk_occupied")
    building_permit_required = serializers.BooleanField(
        source="street_privilege.building_permit_required",
        allow_null=True,
        help_text="§ 303-7A: the Building Inspector's determination (null: not recorded yet)",
    )
    lighted_at_night = serializers.BooleanField(source="street_privilege.lighted_at_night")
    route_prescribed = serializers.CharField(source="street_privilege.route_prescribed")
    day_and_night_ordered = serializers.BooleanField(source="street_privilege.day_and_night_ordered")
    bond_amount = serializers.DecimalField(
        source="street_privilege.bond_amount", max_digits=8, decimal_places=2, allow_null=True
    )
    bond_waived = serializers.BooleanField(source="street_privilege.bond_waived")
    fee_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    recommendations = RecommendationSerializer(source="street_privilege.recommendations.all", many=True)
    issued_on = serializers.DateField(allow_null=True)
    terminates_on = serializers.SerializerMethodField(help_text="§ 303-7E: the last day, once issued")
    timeline = PermitEventSerializer(source="events.all", many=True)

    def get_terminates_on(self, permit) -> str | None:
        return permit.expires_on.isoformat() if permit.issued_on and permit.expires_on else None


class StreetPrivilegeListSerializer(StreetPrivilegeSerializer):
    """A list row without the timeline; the detail keeps it."""

    timeline = None


@application_views(
    listed="Your street privilege applications",
    shown="One street privilege permit with its status, timeline and end date",
    applied="Apply for a street privilege permit (creates and submits it)",
)
class StreetPrivilegeViewSet(ApplicationViewSet):
    kind = PermitKind.STREET_PRIVILEGE
    serializer_class = StreetPrivilegeSerializer
    list_serializer_class = StreetPrivilegeListSerializer
    create_serializer_class = StreetPrivilegeCreateSerializer

    def get_queryset(self):
        qs = self.permits_of_kind()
        qs = qs.select_related("street", "street_privilege").prefetch_related("street_privilege__recommendations")
        if self.action == "list":
            return filed_by_or_for(qs, self.request.user).order_by("-created_at")
        return qs.prefetch_related("events").order_by("-created_at")

    def resolve(self, values, user):
        errors = street_named(values, citation="§ 303-7A")
        values["organization"], more = organization_named(values, user)
        return errors + more

    def check(self, values, *, user, today, now):
        return sp_services.check_application(values)

    def apply(self, values, *, user, today):
        organization = values.pop("organization")
        return sp_services.apply_for_street_privilege(applicant=user, organization=organization, data=values)
