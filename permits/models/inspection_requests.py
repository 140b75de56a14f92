"""The inspection times the DPW offers and the permittees' requests for them (permits/inspection_requests)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from permits.models.core import Permit


class InspectionKind(models.TextChoices):
    BACKFILL = "backfill", "Before backfilling (§ 303-5F)"
    POUR = "pour", "Forms and subgrade before the pour (§ 303-3D(5))"
    FINAL = "final", "Final inspection of the finished work"


class InspectionSlot(models.Model):
    """A time the DPW offers for inspections: a day, a window, the inspector who goes, how many visits fit."""

    day = models.DateField()
    starts_at = models.TimeField("from")
    ends_at = models.TimeField("until")
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    capacity = models.PositiveSmallIntegerField(default=1, help_text="How many inspections fit in the window")
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", editable=False)
    offered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "starts_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="inspection_slot_ends_after_start"),
            models.CheckConstraint(condition=Q(capacity__gte=1), name="inspection_slot_capacity_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.day:%a %b %-d, %Y}, {self.starts_at:%-I:%M %p} to {self.ends_at:%-I:%M %p}"


class InspectionRequest(models.Model):
    """A permittee's request for an inspection in an offered slot. Cancelled requests stay, with who and when."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="inspection_requests")
    slot = models.ForeignKey(InspectionSlot, on_delete=models.PROTECT, related_name="requests")
    kind = models.CharField(max_length=20, choices=InspectionKind.choices)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["slot__day", "slot__starts_at", "id"]
        indexes = [models.Index(fields=["slot"], name="inspection_request_slot_idx", condition=Q(cancelled_at=None))]

    def __str__(self) -> str:
        return f"{self.permit.number}: {self.get_kind_display()} on {self.slot}"
