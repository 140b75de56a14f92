"""Street privilege permits (§ 303-7, Wis. Stat. § 66.0425): the application's details, the advisory
recommendations, the Village's actual costs, and the § 303-7F sidewalk obstruction cases. Status and audit fields
are written by the services only (permits.street_privilege.services)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from permits.models.core import Parcel, Permit
from permits.models.shared_fields import board_motion


class Purpose(models.TextChoices):
    MOVE_BUILDING = "move_building", "Moving a building or structure"
    MATERIALS = "materials", "Materials for construction or demolition"


class StreetPrivilege(models.Model):
    """What the applicant asked for (§ 303-7A, § 303-7D) and what the Village decided about it."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="street_privilege")
    purpose = models.CharField(max_length=20, choices=Purpose.choices)
    building_permit_number = models.CharField(
        max_length=40, blank=True, help_text="A building permit number the applicant gave (for the Building Inspector)"
    )
    # § 303-7D(1): the street's width on the Village's register when the application was filed (never typed by the
    # applicant): the third is measured against it, and the permit prints it.
    street_width_feet = models.DecimalField(max_digits=5, decimal_places=1, editable=False)
    occupied_street_feet = models.DecimalField(max_digits=5, decimal_places=1)
    sidewalk_occupied = models.BooleanField(default=False)
    temporary_walk_width_feet = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    fence_height_feet = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    fenced_both_sides = models.BooleanField(default=False)
    lighted_at_night = models.BooleanField(default=False)
    # A building move (§ 303-7D(4) to (6))
    building_description = models.TextField(blank=True)
    route_description = models.TextField(blank=True, help_text="The route the applicant proposes")
    overnight_stops = models.TextField(blank=True)
    overnight_at_intersection_or_hydrant = models.BooleanField(default=False)
    day_and_night_requested = models.BooleanField(default=False)
    # The DPW Director's bond (§ 303-7B), filed with the Clerk-Treasurer or waived by the Board
    bond_amount = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True, editable=False)
    bond_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    bond_set_at = models.DateTimeField(null=True, blank=True, editable=False)
    bond_filed_at = models.DateTimeField(null=True, blank=True, editable=False)
    bond_filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    bond_surety = models.CharField(max_length=200, blank=True, editable=False)
    bond_waiver_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    bond_waiver_motion = board_motion(editable=False)
    bond_waiver_refused_motion = board_motion(editable=False)
    # The Board's route (§ 303-7D(6)) and day-and-night order (§ 303-7D(4))
    route_prescribed = models.TextField(blank=True, editable=False)
    route_motion = board_motion(editable=False)
    day_and_night_ordered = models.BooleanField(default=False, editable=False)
    day_and_night_motion = board_motion(editable=False)
    # § 303-7A: the Building Inspector's determination whether a building permit is required, and the one shown
    building_permit_required = models.BooleanField(null=True, editable=False)
    building_permit_determined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    building_permit_determined_at = models.DateTimeField(null=True, blank=True, editable=False)
    building_permit_shown_number = models.CharField(max_length=40, blank=True, editable=False)
    building_permit_shown_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The Building Inspector's grant (§ 303-7A) and earlier termination (§ 303-7E)
    inspector_conditions = models.TextField(blank=True, editable=False)
    earlier_termination_on = models.DateField(null=True, blank=True, editable=False)
    termination_notice_for = models.DateField(null=True, blank=True, editable=False)
    # The closing inspection (§ 303-7D(7))
    closing_inspection_opened_on = models.DateField(null=True, blank=True, editable=False)
    closing_inspected_on = models.DateField(null=True, blank=True, editable=False)
    closing_inspected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    closing_passed = models.BooleanField(null=True, editable=False)
    closing_notes = models.TextField(blank=True, editable=False)

    class Meta:
        indexes = [models.Index(fields=["purpose"])]
        constraints = [
            models.CheckConstraint(condition=Q(street_width_feet__gt=0), name="privilege_street_width_positive"),
            models.CheckConstraint(condition=Q(occupied_street_feet__gte=0), name="privilege_occupied_not_negative"),
            # § 303-7A: a building permit is shown only where the Building Inspector found one required
            models.CheckConstraint(
                condition=Q(building_permit_shown_number="") | Q(building_permit_required=True),
                name="privilege_building_permit_shown_if_required",
            ),
            # § 303-7B: at most $10,000
            models.CheckConstraint(
                condition=Q(bond_amount__isnull=True) | Q(bond_amount__gt=0, bond_amount__lte=10000),
                name="privilege_bond_within_cap",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number}: {self.get_purpose_display().lower()}"

    def get_absolute_url(self) -> str:
        return self.permit.get_absolute_url()

    @property
    def is_move(self) -> bool:
        return self.purpose == Purpose.MOVE_BUILDING

    @property
    def building_permit_determined(self) -> bool:
        return self.building_permit_determined_at is not None

    @property
    def building_permit_shown(self) -> bool:
        return bool(self.building_permit_shown_number)

    @property
    def bond_waived(self) -> bool:
        return self.bond_waiver_motion_id is not None


class Office(models.TextChoices):
    DPW = "dpw", "Director of Public Works"
    POLICE = "police", "Chief of Police"


class Recommendation(models.Model):
    """§ 303-7A: the advisory recommendation of the DPW Director or the Chief of Police ("not recommended" does not
    block), with the conditions the official attaches (printed on the permit)."""

    privilege = models.ForeignKey(StreetPrivilege, on_delete=models.PROTECT, related_name="recommendations")
    office = models.CharField(max_length=10, choices=Office.choices)
    recommended = models.BooleanField()
    conditions = models.TextField(blank=True)
    insurance_required = models.BooleanField(default=False, help_text="Proof of liability insurance (§ 303-7A)")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["office"]
        constraints = [models.UniqueConstraint(fields=["privilege", "office"], name="privilege_one_recommendation")]

    def __str__(self) -> str:
        return f"{self.get_office_display()}: {'recommended' if self.recommended else 'not recommended'}"


class CostLine(models.Model):
    """§ 303-7C: an actual Village cost (a police escort, barricades), one line on the bill and the receipt."""

    privilege = models.ForeignKey(StreetPrivilege, on_delete=models.PROTECT, related_name="cost_lines")
    description = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField()

    class Meta:
        ordering = ["added_at", "pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="privilege_cost_positive")]

    def __str__(self) -> str:
        return f"{self.description}: ${self.amount}"


class SidewalkObstruction(models.Model):
    """§ 303-7F: a lawfully obstructed sidewalk the adjoining owner or occupant must clear within 24 hours of the
    Board's notice; otherwise the Village removes it and the cost is a special charge on the next annual roll."""

    class Status(models.TextChoices):
        REPORTED = "reported", "Reported, awaiting the Board's notice"
        NOTICED = "noticed", "Noticed by the Board"
        REMOVED_BY_OWNER = "removed_by_owner", "Removed by the owner or occupant"
        VILLAGE_REMOVED = "village_removed", "Removed by the Village; cost charged"

    privilege = models.ForeignKey(StreetPrivilege, on_delete=models.PROTECT, related_name="obstructions")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+", help_text="The abutting parcel")
    description = models.CharField(max_length=300)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REPORTED, editable=False)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reported_at = models.DateTimeField()
    notice_motion = board_motion(editable=False)
    noticed_at = models.DateTimeField(null=True, blank=True, editable=False)
    removed_at = models.DateTimeField(null=True, blank=True, editable=False)
    cost = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True, editable=False)
    charge = models.OneToOneField(
        "permits.SpecialCharge", on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )

    class Meta:
        ordering = ["-reported_at"]
        constraints = [
            models.CheckConstraint(condition=Q(cost__isnull=True) | Q(cost__gte=0), name="privilege_removal_cost")
        ]

    def __str__(self) -> str:
        return f"Sidewalk obstruction at {self.parcel.site_address} ({self.privilege.permit.number})"
