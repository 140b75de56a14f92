"""The Clerk-Treasurer's registers (Chapter 303): grades (§ 303-1A, § 303-1B), sidewalk grade applications
(§ 303-1A(2)), requests for improvements (§ 303-11), the Board's higher sidewalk standards (§ 303-3D(11)) and the
terrace areas approved to be covered (§ 303-9B).

Imported by obstructions/models.py (one line) so Django loads them with the app; tables have the `obstructions`
label. Rows are written by obstructions.registers.services only; status and audit fields are read-only in the admin.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from permits.board.models import Motion
from permits.models import Parcel, Street
from permits.models.shared_fields import board_motion

FEET = {"max_digits": 5, "decimal_places": 2, "null": True, "blank": True}


class Grade(models.Model):
    """The grade of a street, an alley or the sidewalk along a street, as established by the Village Board and
    recorded by the Clerk-Treasurer with the resolution (§ 303-1A(1)); an alteration (§ 303-1B) is a new row that
    supersedes the one in force, so the register keeps every grade the street ever had."""

    class Way(models.TextChoices):
        STREET = "street", "Street"
        ALLEY = "alley", "Alley"
        SIDEWALK = "sidewalk", "Sidewalk"

    class Basis(models.TextChoices):
        ESTABLISHED = "established", "Established by the Board (§ 303-1A(1))"
        CONFIRMED = "confirmed", "Established before the register; confirmed by § 303-1A(1)"
        OWNERS_APPLICATION = "owners_application", "Sidewalk grade on the owners' application (§ 303-1A(2))"
        BOARD_ALTERATION = "board_alteration", "Altered by the Board (§ 303-1B)"
        DPW_ALTERATION = "dpw_alteration", "Altered on the Director of Public Works' authorization (§ 303-1B)"

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="grades")
    way = models.CharField(max_length=10, choices=Way.choices, default=Way.STREET)
    description = models.TextField(help_text="The grade: elevations, the profile sheet and datum it is drawn to")
    basis = models.CharField(max_length=20, choices=Basis.choices, editable=False)
    motion = board_motion()
    resolution_number = models.CharField(max_length=60, blank=True, help_text="The resolution that set the grade")
    established_on = models.DateField()
    authorized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    supersedes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="superseded_by", editable=False
    )
    application = models.OneToOneField(
        "GradeApplication", on_delete=models.PROTECT, null=True, blank=True, related_name="grade", editable=False
    )
    in_force = models.BooleanField(default=True, editable=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["street__name", "way", "-established_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["street", "way"], condition=Q(in_force=True), name="registers_one_grade_in_force"
            ),
            models.CheckConstraint(
                condition=~Q(basis__in=["established", "owners_application", "board_alteration"])
                | Q(motion__isnull=False),
                name="registers_board_grade_has_motion",
            ),
            models.CheckConstraint(
                condition=~Q(basis="dpw_alteration") | Q(authorized_by__isnull=False),
                name="registers_dpw_alteration_authorized",
            ),
            models.CheckConstraint(
                condition=~Q(basis__in=["board_alteration", "dpw_alteration"]) | Q(supersedes__isnull=False),
                name="registers_alteration_supersedes",
            ),
            models.CheckConstraint(
                condition=Q(basis="dpw_alteration") | ~Q(resolution_number=""),
                name="registers_grade_has_resolution",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_way_display()} grade of {self.street} ({self.established_on:%Y-%m-%d})"


class GradeApplication(models.Model):
    """§ 303-1A(2): the abutting owners' application for a sidewalk grade, which waits for the Board (a matter of
    permits.board.matters) and becomes a recorded sidewalk grade when its motion carries."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the Board"
        ESTABLISHED = "established", "Grade established"
        DENIED = "denied", "Denied by the Board"

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="+")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+")
    owners = models.CharField(max_length=300, help_text="The owners applying, as they signed")
    received_on = models.DateField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING, editable=False)
    decided_by = board_motion()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["received_on", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["street"], condition=Q(status="pending"), name="registers_one_pending_grade_application"
            ),
        ]

    def __str__(self) -> str:
        return f"Sidewalk grade application: {self.parcel.site_address} ({self.get_status_display().lower()})"


class ImprovementRequest(models.Model):
    """§ 303-11: a request or petition by property owners for a street improvement, and the year the Board considers
    it for installation (computed from when it was presented, stored so the clerk's list reads by year)."""

    class Kind(models.TextChoices):
        NEW_STREET = "new_street", "New street"
        RESURFACING = "resurfacing", "Street resurfacing"
        CURB_AND_GUTTER = "curb_and_gutter", "Curb and gutter"
        STORM_SEWER = "storm_sewer", "Storm sewer"
        UTILITY_WORK = "utility_work", "Utility work"
        SIDEWALK = "sidewalk", "Sidewalk"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    street = models.ForeignKey(Street, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    location = models.CharField(max_length=300, help_text="Where: the block, the addresses")
    petitioners = models.CharField(max_length=300, help_text="Who asks: the owners, as they signed")
    signatures = models.PositiveIntegerField(default=1)
    description = models.TextField(blank=True)
    presented_at = models.DateTimeField(help_text="When it reached the Clerk-Treasurer")
    consideration_year = models.PositiveSmallIntegerField(editable=False, db_index=True)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["consideration_year", "presented_at", "pk"]
        indexes = [models.Index(fields=["consideration_year", "presented_at"], name="registers_improvement_year")]
        constraints = [models.CheckConstraint(condition=Q(signatures__gte=1), name="registers_request_signed")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.location} (for {self.consideration_year})"


class HigherStandard(models.Model):
    """§ 303-3D(11): a higher sidewalk standard the Board required for a location (a parcel's frontage, or a whole
    street when no parcel is named), by a carried motion; the sidewalk rules apply the latest one in force."""

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="+")
    parcel = models.ForeignKey(
        Parcel, on_delete=models.PROTECT, null=True, blank=True, related_name="+", help_text="Blank: the whole street"
    )
    min_width_feet = models.DecimalField(**FEET)
    min_thickness_inches = models.DecimalField(**FEET)
    min_driveway_thickness_inches = models.DecimalField(**FEET)
    reason = models.TextField(blank=True)
    motion = models.ForeignKey(Motion, on_delete=models.PROTECT, related_name="+")
    resolution_number = models.CharField(max_length=60)
    adopted_on = models.DateField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["street__name", "-adopted_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_width_feet__isnull=False)
                | Q(min_thickness_inches__isnull=False)
                | Q(min_driveway_thickness_inches__isnull=False),
                name="registers_higher_standard_sets_something",
            ),
            models.CheckConstraint(
                condition=(Q(min_width_feet__isnull=True) | Q(min_width_feet__gt=0))
                & (Q(min_thickness_inches__isnull=True) | Q(min_thickness_inches__gt=0))
                & (Q(min_driveway_thickness_inches__isnull=True) | Q(min_driveway_thickness_inches__gt=0)),
                name="registers_higher_standard_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"Higher sidewalk standard at {self.location} (Resolution {self.resolution_number})"

    @property
    def location(self) -> str:
        return self.parcel.site_address if self.parcel_id else f"all of {self.street}"


class TerraceApproval(models.Model):
    """§ 303-9B: an area of a terrace "specifically approved by the Village Board or its designee" to be paved,
    surfaced or covered: the Board's carried motion (recorded by the clerk), or its designee for § 303-9 acting on the
    day. An enforcement case on a paved or covered terrace reads this record; no official's checkbox stands for it."""

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+")
    area = models.CharField(max_length=300, help_text="The area approved and what covers it")
    approved_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True, help_text="The last day it stands (blank: until revoked)")
    motion = board_motion(help_text="The Board's motion, when the Board approved it (blank: its designee did)")
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-approved_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("approved_on")),
                name="registers_terrace_approval_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return f"{self.parcel.site_address}: {self.area} (approved {self.approved_on:%Y-%m-%d})"
