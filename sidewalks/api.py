"""The sidewalk permit API and the parcel search.

POST /api/v1/sidewalk-permits/ applies for and submits a sidewalk permit (§ 303-3C); GET lists the caller's own (all
of them for Village staff); GET .../{number}/ shows one with its inspections. A request that breaks rules gets
HTTP 400 with every broken rule at once, each with its citation: the same rule functions as the web form.

GET /api/v1/parcels/?search=TEXT finds parcels by address, owner or tax key for any signed-in user; the owner's
mailing address is shown to Village staff only.
"""

from __future__ import annotations

from rest_framework import serializers

from permits.api.shared import (
    ApplicationViewSet,
    PermitEventSerializer,
    application_views,
    organization_field,
    organization_named,
)
from permits.input_limits import MAX_DESCRIPTION, MAX_INT
from permits.input_limits import PlausibleDateSerializerField as PlausibleDate
from permits.models import PermitKind
from permits.paging import KeysFirstPagination
from sidewalks import services
from sidewalks.models.sidewalk import Material, Standing, Work

FEET = {"max_digits": 5, "decimal_places": 2, "min_value": 0}
INCHES = {"max_digits": 4, "decimal_places": 2, "min_value": 0}


class SidewalkPermitCreateSerializer(serializers.Serializer):
    parcel = serializers.CharField(
        max_length=40, help_text="Tax key number of the parcel in front of which the walk is built"
    )
    work = serializers.ChoiceField(choices=Work.choices)
    frontage_feet = serializers.DecimalField(max_digits=7, decimal_places=1, min_value=0)
    width_feet = serializers.DecimalField(**FEET)
    thickness_inches = serializers.DecimalField(**INCHES)
    driveway_thickness_inches = serializers.DecimalField(**INCHES, required=False, allow_null=True)
    driveway_length_feet = serializers.DecimalField(
        max_digits=6, decimal_places=1, min_value=0, required=False, default=0
    )
    existing_width_feet = serializers.DecimalField(**FEET, required=False, allow_null=True)
    material = serializers.ChoiceField(choices=Material.choices, default=Material.CONCRETE)
    concrete_psi = serializers.IntegerField(min_value=0, max_value=MAX_INT, required=False, allow_null=True)
    sacks_per_cubic_yard = serializers.DecimalField(
        max_digits=4, decimal_places=1, min_value=0, required=False, allow_null=True
    )
    pour_date = PlausibleDate()
    standing = serializers.ChoiceField(
        choices=Standing.choices,
        default=Standing.OWNER,
        help_text="§ 303-3C: on what footing you file. An agent uploads the owner's written authorization to the "
        "permit; the Clerk-Treasurer accepts it (or confirms the Village's contract) before issue.",
    )
    village_contract = serializers.BooleanField(default=False)
    vault_or_cistern = serializers.BooleanField(
        default=False, help_text="The work includes a vault or cistern under the sidewalk (prohibited: § 303-10)"
    )
    work_description = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION)
    organization = organization_field(
        default="", help_text="Company name, if you apply for a company you are on the staff of"
    )


class SidewalkInspectionSerializer(serializers.Serializer):
    stage = serializers.CharField()
    result = serializers.CharField()
    inspected_at = serializers.DateTimeField()
    findings = serializers.CharField()
    citations = serializers.CharField()


class SidewalkPermitSerializer(serializers.Serializer):
    number = serializers.CharField()
    status = serializers.CharField()
    parcel = serializers.CharField(source="sidewalk.parcel.tax_key")
    address = serializers.CharField(source="sidewalk.parcel.site_address")
    land_use = serializers.CharField(source="sidewalk.parcel.land_use")
    work = serializers.CharField(source="sidewalk.work")
    frontage_feet = serializers.DecimalField(source="sidewalk.frontage_feet", max_digits=7, decimal_places=1)
    width_feet = serializers.DecimalField(source="sidewalk.width_feet", **FEET)
    thickness_inches = serializers.DecimalField(source="sidewalk.thickness_inches", **INCHES)
    driveway_thickness_inches = serializers.DecimalField(source="sidewalk.driveway_thickness_inches", **INCHES)
    driveway_length_feet = serializers.DecimalField(
        source="sidewalk.driveway_length_feet", max_digits=6, decimal_places=1
    )
    existing_width_feet = serializers.DecimalField(source="sidewalk.existing_width_feet", **FEET)
    material = serializers.CharField(source="sidewalk.material")
    concrete_psi = serializers.IntegerField(source="sidewalk.concrete_psi")
    sacks_per_cubic_yard = serializers.DecimalField(
        source="sidewalk.sacks_per_cubic_yard", max_digits=4, decimal_places=1
    )
    pour_date = serializers.DateField(source="sidewalk.pour_date")
    village_contract = serializers.BooleanField(source="sidewalk.village_contract")
    owner_of_record = serializers.CharField(source="sidewalk.parcel.owner_name")
    standing = serializers.CharField(source="sidewalk.standing")
    standing_accepted_at = serializers.DateTimeField(source="sidewalk.standing_accepted_at", allow_null=True)
    fee_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    submitted_at = serializers.DateTimeField()
    issued_on = serializers.DateField(allow_null=True)
    completed_on = serializers.DateField(allow_null=True)
    inspections = SidewalkInspectionSerializer(source="sidewalk_inspections.all", many=True)
    timeline = PermitEventSerializer(source="events.all", many=True)


class SidewalkPermitListSerializer(SidewalkPermitSerializer):
    """A list row without the timeline; the detail keeps it."""

    timeline = None


@application_views(
    listed="Your sidewalk permit applications (every one for Village staff)",
    shown="One sidewalk permit with its inspections and timeline",
    applied="Apply for a sidewalk permit (§ 303-3C)",
)
class SidewalkPermitViewSet(ApplicationViewSet):
    kind = PermitKind.SIDEWALK
    serializer_class = SidewalkPermitSerializer
    list_serializer_class = SidewalkPermitListSerializer
    create_serializer_class = SidewalkPermitCreateSerializer
    pagination_class = KeysFirstPagination

    def get_queryset(self):
        qs = self.permits_of_kind().select_related("sidewalk__parcel").order_by("-created_at", "-pk")
        if self.action == "list":
            # No timeline in the list, and no join to the sidewalk details to count the pages: a sidewalk permit has
            # its details from the moment it is created (services.apply_for_sidewalk_permit writes both in one
            # transaction; the admin adds no permits), and the join made every page's count a hash of every sidewalk
            # permit.
            return qs.prefetch_related("sidewalk_inspections")
        return qs.filter(sidewalk__isnull=False).prefetch_related("events", "sidewalk_inspections")

    def resolve(self, values, user):
        errors = []
        if "parcel" in values:
            tax_key = values["parcel"].strip()
            values["parcel"] = services.parcel_by_tax_key(tax_key)
            if values["parcel"] is None:
                message = f"No parcel has the tax key number {tax_key}."
                errors.append({"field": "parcel", "code": "unknown_parcel", "citation": "", "message": message})
        values["organization"], more = organization_named(values, user, default_to_first=False)
        return errors + more

    def check(self, values, *, user, today, now):
        return services.filing_violations(values, today=today)

    def apply(self, values, *, user, today):
        return services.apply_for_sidewalk_permit(applicant=user, today=today, **values)
