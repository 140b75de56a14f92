"""The right-of-way map's records: street segments with their geometry, where each permit is, the DPW's conflict
margin and its record of conflicts seen, residents' street subscriptions and permittees' calendar tokens.

Geometry is stored as GeoJSON in a JSON field (no system GIS library: the embedded mode must run on a bare
machine); permits.streetmap.geometry reads it with shapely.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from permits.models.core import Permit, Street


class StreetSegment(models.Model):
    """A street between two cross streets (or a cross street and its end), with its address range and its line."""

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="segments")
    from_street = models.CharField("from (cross street)", max_length=100, blank=True)
    to_street = models.CharField("to (cross street)", max_length=100, blank=True)
    address_from = models.PositiveIntegerField("lowest address number", null=True, blank=True)
    address_to = models.PositiveIntegerField("highest address number", null=True, blank=True)
    geometry = models.JSONField(
        help_text='A GeoJSON LineString: {"type": "LineString", "coordinates": [[lon, lat], ...]}'
    )
    source_id = models.CharField(
        max_length=60, blank=True, help_text="The feature's id in the imported GeoJSON (a re-import updates it)"
    )
    # Recomputed from the geometry by services.recompute_adjoining (segments whose lines touch).
    adjoining = models.ManyToManyField("self", blank=True, symmetrical=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["street__name", "address_from", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(address_from__isnull=True)
                | Q(address_to__isnull=True)
                | Q(address_to__gte=models.F("address_from")),
                name="street_segment_address_range_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.street.name}: {self.extent}"

    @property
    def extent(self) -> str:
        if self.from_street and self.to_street:
            return f"{self.from_street} to {self.to_street}"
        return self.from_street or self.to_street or "whole street"

    def holds_address(self, number: int) -> bool:
        if self.address_from is None or self.address_to is None:
            return False
        return self.address_from <= number <= self.address_to


class Placement(models.Model):
    """Where a permit is, when it was put there by hand (a point or a line drawn on the map, or segments chosen)
    rather than from its address. Without one, permits.streetmap.placement places the permit from its data."""

    class Source(models.TextChoices):
        POINT = "point", "A point drawn on the map"
        LINE = "line", "A line drawn on the map"
        SEGMENTS = "segments", "Segments chosen by the Village"

    permit = models.OneToOneField(Permit, on_delete=models.CASCADE, related_name="placement")
    source = models.CharField(max_length=10, choices=Source.choices)
    geometry = models.JSONField(null=True, blank=True, help_text="GeoJSON Point or LineString, when drawn")
    segments = models.ManyToManyField(StreetSegment, related_name="placements", blank=True)
    placed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    placed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Placement of {self.permit.number} ({self.get_source_display().lower()})"


class ConflictMargin(models.Model):
    """The margin, in days, the DPW sets for conflict checks: two works on the same or an adjoining segment conflict
    when their dates overlap or come within this many days of each other. The newest row applies."""

    days = models.PositiveSmallIntegerField()
    effective_from = models.DateField()
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    set_at = models.DateTimeField()
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-effective_from", "-set_at"]

    def __str__(self) -> str:
        return f"{self.days} days from {self.effective_from}"


class ConflictReview(models.Model):
    """The DPW's record that it saw the conflicts listed at review (and, for a street use closure over a street
    opening's work, that it accepts the closure)."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="conflict_reviews")
    conflicts = models.JSONField(default=list, help_text="What was listed when the DPW recorded it")
    accepts_closure = models.BooleanField(
        default=False, help_text="The DPW accepts a street use closure over a street opening's work"
    )
    note = models.TextField(blank=True)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reviewed_at = models.DateTimeField()

    class Meta:
        ordering = ["-reviewed_at"]

    def __str__(self) -> str:
        return f"Conflicts of {self.permit.number} seen by {self.reviewed_by} on {self.reviewed_at:%Y-%m-%d}"


class StreetSubscription(models.Model):
    """A resident asked to be told when a permit or closure is issued on a street (or at one address of it)."""

    email = models.EmailField()
    street = models.ForeignKey(Street, on_delete=models.CASCADE, related_name="subscriptions")
    address_number = models.PositiveIntegerField(null=True, blank=True, help_text="Only permits at this address")
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    verified_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_notified_on = models.DateField(
        null=True, blank=True, editable=False, help_text="Permits issued up to this day have been told"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["email", "street", "address_number"], name="street_subscription_once"),
        ]

    def __str__(self) -> str:
        where = f"{self.address_number} {self.street.name}" if self.address_number else self.street.name
        return f"{self.email}: {where}"


class SubscriptionDelivery(models.Model):
    """One permit told to one subscription: a permit is never told twice to the same subscriber."""

    subscription = models.ForeignKey(StreetSubscription, on_delete=models.CASCADE, related_name="deliveries")
    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subscription", "permit"], name="subscription_delivery_once"),
        ]

    def __str__(self) -> str:
        return f"{self.permit_id} told to {self.subscription_id}"


class CalendarToken(models.Model):
    """The private token of a permittee's deadline calendar (a calendar program cannot log in)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token")
    token = models.UUIDField(default=uuid.uuid4, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Calendar token of {self.user}"
