"""Snow and ice (§ 303-8) and rubbish (§ 303-2) cases: the owners' sidewalk duties. The Village's work on them is
billed through the core ledger (permits.ledger)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from permits.models import Parcel
from permits.models.shared_fields import NumberedRecord

# --- Snow and ice (§ 303-8) -------------------------------------------------------------------------------------


class Snowfall(models.Model):
    """A snowfall recorded by the DPW with the time the snow stopped: every § 303-8 clock starts there."""

    stopped_at = models.DateTimeField("snow stopped at")
    inches = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    notes = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-stopped_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(inches__isnull=True) | Q(inches__gte=0), name="snowfall_inches_not_negative"
            )
        ]

    def __str__(self) -> str:
        from django.utils import timezone

        return f"Snowfall ending {timezone.localtime(self.stopped_at):%b %-d, %Y %-I:%M %p}"

    def get_absolute_url(self) -> str:
        return reverse("sidewalks:snowfall_detail", args=[self.pk])


class SnowCase(NumberedRecord):
    """A report of an uncleared walk (§ 303-8A), from staff or a resident, and what the Village did about it."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        OWNER_CLEARED = "owner_cleared", "Cleared by the owner"
        VILLAGE_CLEARED = "village_cleared", "Cleared by the Village"
        DISMISSED = "dismissed", "Dismissed"

    class ReportedVia(models.TextChoices):
        STAFF = "staff", "Village staff"
        PUBLIC = "public", "Public report form"

    detail_url_name = "sidewalks:snow_case"

    snowfall = models.ForeignKey(Snowfall, on_delete=models.PROTECT, related_name="cases", null=True, blank=True)
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="snow_cases", null=True, blank=True)
    # § 303-8A: the street of the register the report was matched to (the parcel's, or the street alone).
    street = models.ForeignKey(
        "permits.Street", on_delete=models.PROTECT, related_name="snow_cases", null=True, blank=True
    )
    reported_address = models.CharField(max_length=200)
    details = models.CharField(max_length=500, blank=True)
    reported_via = models.CharField(max_length=10, choices=ReportedVia.choices)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reporter_contact = models.CharField(max_length=200, blank=True)
    reported_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN, editable=False)
    cleared_at = models.DateTimeField(null=True, blank=True, editable=False)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    crew_notes = models.CharField(max_length=500, blank=True)
    unoccupied = models.BooleanField(
        "unoccupied lot or abandoned property",
        default=False,
        help_text="§ 303-8B: set by DPW staff; no written notice to the owner need be given for such a lot.",
    )
    owner_notified_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The reporter's link to follow the case (sidewalks:snow_follow): unguessable; empty on cases filed before it.
    follow_token = models.CharField(max_length=64, blank=True, db_index=True, editable=False)

    class Meta:
        ordering = ["-reported_at"]
        indexes = [models.Index(fields=["status", "-reported_at"])]

    def __str__(self) -> str:
        return f"{self.number}: {self.reported_address}"

    def get_follow_url(self) -> str:
        return reverse("sidewalks:snow_follow", args=[self.follow_token]) if self.follow_token else ""


# --- Rubbish and dirt (§ 303-2) ---------------------------------------------------------------------------------


class RubbishCase(NumberedRecord):
    """§ 303-2: rubbish or dirt on a sidewalk; notice to the owner or occupant; if not removed, Village removal."""

    class Status(models.TextChoices):
        NOTICED = "noticed", "Notice served"
        OWNER_REMOVED = "owner_removed", "Removed by the owner or occupant"
        VILLAGE_REMOVED = "village_removed", "Removed by the Village"

    detail_url_name = "sidewalks:rubbish_case"

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="rubbish_cases")
    description = models.CharField(max_length=500)
    served_to = models.CharField(max_length=200, help_text="Owner or occupant notified")
    served_method = models.CharField(max_length=100)
    served_at = models.DateTimeField()
    deadline_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.NOTICED, editable=False)
    removed_at = models.DateTimeField(null=True, blank=True, editable=False)
    removal_cost = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-served_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(deadline_at__gt=models.F("served_at")), name="rubbish_deadline_after_notice"
            ),
            models.CheckConstraint(
                condition=Q(removal_cost__isnull=True) | Q(removal_cost__gte=0), name="rubbish_cost_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.parcel.site_address}"
