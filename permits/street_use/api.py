"""The street use API (§ 303-15).

POST /api/v1/street-use-permits/ creates and submits an application; GET lists the caller's own; GET .../{number}/
shows one with its status, the petition's `signatures_counted` and `signatures_required`, and its timeline. A request
that breaks rules gets HTTP 400 with every broken rule at once, each with its citation: the same rule functions and
messages as the web form (services.check_application).
"""

from __future__ import annotations

from rest_framework import serializers

from permits.api.shared import ApplicationViewSet, PermitEventSerializer, application_views, street_named
from permits.input_limits import PlausibleDateTimeSerializerField as PlausibleDateTime
from permits.models import PermitKind
from permits.street_use import services


def _text(max_length: int = 300, **kwargs):
    return serializers.CharField(required=False, allow_blank=True, default="", max_length=max_length, **kwargs)


class StreetUseCreateSerializer(serializers.Serializer):
    """The application (§ 303-15B). Fields are optional in the schema so that every missing item is reported at
    once, with the section that requires it (§ 303-15D(4))."""

    applicant_name = _text(200)
    applicant_address = _text()
    applicant_phone = _text(40)
    organization_name = _text(200, help_text="Only for a use by or for an organization (§ 303-15B(2))")
    organization_address = _text()
    organization_phone = _text(40)
    organization_heads = _text(2000)
    responsible_name = _text(200)
    responsible_address = _text()
    responsible_phone = _text(40)
    starts_at = PlausibleDateTime(required=False, allow_null=True)
    ends_at = PlausibleDateTime(required=False, allow_null=True, help_text="Three days at most (§ 303-15D(5))")
    street = _text(200, help_text="Street name from the Village's list")
    portion_description = _text()
    expected_attendance = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=100000)
    proposed_use = _text(5000)
    chapter_245_permit = _text(40, help_text="Blank when none; an event under one needs no street use permit")


class StreetUseSerializer(serializers.Serializer):
    number = serializers.CharField()
    status = serializers.CharField()
    terminated = serializers.BooleanField(source="street_use.is_terminated")
    street = serializers.CharField(source="street.name", default=None)
    portion_description = serializers.CharField(source="location_description")
    proposed_use = serializers.CharField(source="work_description")
    applicant_name = serializers.CharField(source="street_use.applicant_name")
    organization_name = serializers.CharField(source="street_use.organization_name")
    responsible_name = serializers.CharField(source="street_use.responsible_name")
    starts_at = serializers.DateTimeField(source="street_use.starts_at")
    ends_at = serializers.DateTimeField(source="street_use.ends_at")
    expected_attendance = serializers.IntegerField(source="street_use.expected_attendance")
    signatures_counted = serializers.SerializerMethodField()
    signatures_required = serializers.SerializerMethodField()
    adults_declared = serializers.SerializerMethodField()
    addresses_undeclared = serializers.SerializerMethodField()
    conditions = serializers.CharField(source="street_use.conditions")
    fee_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    submitted_at = serializers.DateTimeField()
    issued_on = serializers.DateField(allow_null=True)
    timeline = PermitEventSerializer(source="events.all", many=True)

    def _count(self, permit):
        cache = self.context.setdefault("counts", {})
        if permit.pk not in cache:
            cache[permit.pk] = services.petition_count(permit.street_use)
        return cache[permit.pk]

    def get_signatures_counted(self, permit) -> int:
        return self._count(permit).counted

    def get_signatures_required(self, permit) -> int:
        return self._count(permit).required

    def get_adults_declared(self, permit) -> int:
        """§ 303-15F: the residents over 18 the petition's addresses declared (the count's denominator)."""
        return self._count(permit).roster_size

    def get_addresses_undeclared(self, permit) -> int:
        """§ 303-15F: the addresses along the portion that declared nothing yet (each holds the count back)."""
        return len(self._count(permit).undeclared)


class StreetUseListSerializer(serializers.Serializer):
    """A list row: no timeline and no petition count (the detail has both)."""

    number = serializers.CharField()
    status = serializers.CharField()
    street = serializers.CharField(source="street.name", default=None)
    starts_at = serializers.DateTimeField(source="street_use.starts_at")
    ends_at = serializers.DateTimeField(source="street_use.ends_at")


@application_views(
    listed="Your street use applications",
    shown="One street use permit with its status, petition count and timeline",
    applied="Apply for a street use permit (creates and submits it)",
)
class StreetUseViewSet(ApplicationViewSet):
    kind = PermitKind.STREET_USE
    serializer_class = StreetUseSerializer
    list_serializer_class = StreetUseListSerializer
    create_serializer_class = StreetUseCreateSerializer

    def get_queryset(self):
        qs = self.permits_of_kind().select_related("street_use")
        if self.action == "list":
            return qs.filter(applicant=self.request.user).order_by("-created_at")  # the caller's own
        return qs.prefetch_related("events").order_by("-created_at")

    def resolve(self, values, user):
        return street_named(values, citation="§ 303-15B(5)")

    def check(self, values, *, user, today, now):
        return services.check_application(values)

    def apply(self, values, *, user, today):
        return services.apply_for_street_use(applicant=user, data=values, today=today)
