"""The field half of a street opening: inspections (§ 303-5E, § 303-5G, § 303-5B(1), § 303-1C), the notices the
permittee gives (§ 303-5B(4), § 303-5B(5), § 303-5F), pavement restoration deadlines (§ 303-5G(4)), the one-year
guarantee (§ 303-4H(3)) and defect notices with the Village's repair (§ 303-4H(2), (4))."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from permits.models.core import Document, Permit
from permits.models.shared_fields import board_motion

INCHES = {"max_digits": 6, "decimal_places": 2, "null": True, "blank": True}
AMOUNT = {"max_digits": 12, "decimal_places": 2}


class Inspection(models.Model):
    """One visit of a DPW inspector (or the Director) to a street opening, with what was measured and the result."""

    class Kind(models.TextChoices):
        BACKFILL = "backfill", "Backfill material (§ 303-5E(1))"
        COMPACTION = "compaction", "Compaction of a lift (§ 303-5E(4))"
        PAVEMENT = "pavement", "Pavement replacement (§ 303-5G)"
        TRENCH = "trench", "Trench limits (§ 303-5B(1))"
        UNDERGROUND_DEPTH = "underground_depth", "Underground depth before covering (§ 303-1C)"
        PROTECTION = "protection", "Barriers, signs and lights (§ 303-5B(1))"
        SAW_CUT = "saw_cut", "Pavement removal and saw cut (§ 303-5C)"
        FINAL = "final", "Final: surface restored (§ 303-1C(8))"

    class Result(models.TextChoices):
        PASS = "pass", "Pass"
        FAIL = "fail", "Fail"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="inspections")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    result = models.CharField(max_length=4, choices=Result.choices)
    failures = models.JSONField(
        default=list, blank=True, help_text="Every rule the work broke: field, code, citation, message"
    )
    notes = models.TextField(blank=True)
    photo = models.ForeignKey(Document, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    retest_fee_charged = models.BooleanField(default=False, help_text="§ 303-5E(5): retest charged to the permittee")
    # § 303-5E(1) backfill
    largest_stone_inches = models.DecimalField(**INCHES)
    cinders_or_ashes = models.BooleanField(null=True, blank=True)
    refuse = models.BooleanField(null=True, blank=True)
    organic_matter = models.BooleanField(null=True, blank=True)
    frozen_lumps = models.BooleanField(null=True, blank=True)
    # § 303-5E(4) compaction
    lift_inches = models.DecimalField(**INCHES)
    compaction_percent = models.DecimalField(
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        help_text="Dry density, % of the Modified Proctor maximum",
    )
    mechanical = models.BooleanField(null=True, blank=True)
    flooded = models.BooleanField(null=True, blank=True)
    # § 303-5G pavement
    surface = models.CharField(max_length=20, blank=True)
    existing_pavement_inches = models.DecimalField(**INCHES)
    three_inch_stone_inches = models.DecimalField(**INCHES)
    three_quarter_stone_inches = models.DecimalField(**INCHES)
    depth_inches = models.DecimalField(**INCHES)
    base_layer_inches = models.DecimalField(**INCHES)
    top_layer_inches = models.DecimalField(**INCHES)
    straightedge_deviation_inches = models.DecimalField(max_digits=5, decimal_places=3, null=True, blank=True)
    calcium_chloride = models.BooleanField(null=True, blank=True)
    poured_on = models.DateField(null=True, blank=True)
    opened_to_traffic_on = models.DateField(null=True, blank=True)
    # § 303-5B(1) trench
    excavated_ahead_feet = models.DecimalField(max_digits=7, decimal_places=1, null=True, blank=True)
    unfilled_feet = models.DecimalField(max_digits=7, decimal_places=1, null=True, blank=True)
    special_permission = models.BooleanField(null=True, blank=True)
    # § 303-1C(1) underground depth
    cover_feet = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    # § 303-1C(8) final
    surface_restored = models.BooleanField(null=True, blank=True)
    # § 303-5B(1) protection of the public
    barriers = models.BooleanField(null=True, blank=True, help_text="Enclosed with sufficient barriers")
    signs = models.BooleanField(null=True, blank=True, help_text="Sufficient signs and traffic control devices")
    warning_lights = models.BooleanField(null=True, blank=True, help_text="Sufficient warning lights kept on")
    open_flame = models.BooleanField(null=True, blank=True, help_text="Open-flame warning devices in use")
    # § 303-5C pavement removal and saw cut
    saw_cut_straight = models.BooleanField(null=True, blank=True, help_text="Removed to neat, straight lines")
    final_saw_cut = models.BooleanField(null=True, blank=True, help_text="Final saw cut made after backfilling")
    damaged_not_recut = models.BooleanField(
        null=True, blank=True, help_text="Damaged beyond the saw-cut lines and not saw cut again"
    )
    saw_cut_rectangular = models.BooleanField(null=True, blank=True, help_text="A regular rectangular section")
    saw_cut_aligned = models.BooleanField(
        null=True, blank=True, help_text="Parallel with the curbline or travel (concrete: or at right angles)"
    )
    vertical_face = models.BooleanField(null=True, blank=True, help_text="Concrete: vertical face at the saw cut")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["permit", "kind", "-at"])]
        constraints = [
            models.CheckConstraint(condition=Q(result__in=["pass", "fail"]), name="inspection_result_known"),
            models.CheckConstraint(
                condition=Q(compaction_percent__isnull=True) | Q(compaction_percent__gte=0),
                name="inspection_compaction_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(lift_inches__isnull=True) | Q(lift_inches__gt=0), name="inspection_lift_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number}: {self.get_kind_display()} {self.result} ({self.at:%Y-%m-%d %H:%M})"

    @property
    def citations(self) -> list[str]:
        return sorted({f["citation"] for f in self.failures})


class CoveringHold(models.Model):
    """§ 303-1C(4): the Director of Public Works asked to check the underground construction before it is covered. Until
    the DPW's underground inspection is logged, nothing may be recorded that covers it (backfill, compaction,
    pavement, restoration, completion)."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="covering_holds")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    note = models.TextField(blank=True)
    released_by = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    released_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            # One open request per permit: asking again while it is open changes nothing.
            models.UniqueConstraint(
                fields=["permit"], condition=Q(released_at__isnull=True), name="covering_hold_one_open_per_permit"
            ),
        ]

    def __str__(self) -> str:
        state = "released" if self.released_at else "open"
        return f"{self.permit.number}: inspect before covering ({state})"

    @property
    def is_open(self) -> bool:
        return self.released_at is None


class PermitteeNotice(models.Model):
    """A notice the permittee must give before a step of the work, and whether it came in time."""

    class Kind(models.TextChoices):
        DPW_EXCAVATION = "dpw_excavation", "DPW, 24 hours before excavation (§ 303-5B(4))"
        AFFECTED_PARTIES = "affected_parties", "Affected parties, one business day before work (§ 303-5F)"
        UTILITY_OUTAGE = "utility_outage", "Private properties, 12 hours before a utility outage (§ 303-5B(5))"
        DPW_BACKFILL = "dpw_backfill", "Village, 4 hours before backfilling or restoring (§ 303-5F)"

    class Method(models.TextChoices):
        PHONE = "phone", "Phone call"
        EMAIL = "email", "Email"
        IN_PERSON = "in_person", "In person"
        WRITTEN = "written", "Written notice (letter or door hanger)"
        PORTAL = "portal", "This website"

    class Timeliness(models.TextChoices):
        PENDING = "pending", "Not given yet"
        ON_TIME = "on_time", "On time"
        LATE = "late", "Late"
        NOT_REQUIRED = "not_required", "Not required (emergency)"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="permittee_notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    planned_work_at = models.DateTimeField(help_text="When the step the notice announces is planned to begin")
    due_by = models.DateTimeField(help_text="The latest moment the notice may be given")
    given_at = models.DateTimeField(null=True, blank=True)
    given_to = models.CharField(max_length=300, blank=True)
    method = models.CharField(max_length=20, choices=Method.choices, blank=True)
    timeliness = models.CharField(max_length=20, choices=Timeliness.choices, default=Timeliness.PENDING)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reminder_at = models.DateTimeField(null=True, blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["planned_work_at", "kind"]
        indexes = [models.Index(fields=["reminder_sent_at", "reminder_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(due_by__lte=models.F("planned_work_at")), name="notice_due_before_work"),
            models.CheckConstraint(
                condition=Q(given_at__isnull=True, timeliness="pending")
                | Q(given_at__isnull=False) & ~Q(timeliness="pending"),
                name="notice_timeliness_matches_given",
            ),
            # One notice of each kind waiting to be given: planning again moves it rather than adding another.
            models.UniqueConstraint(
                fields=["permit", "kind"], condition=Q(given_at__isnull=True), name="notice_one_pending_per_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number}: {self.get_kind_display()} ({self.get_timeliness_display()})"

    @property
    def citation(self) -> str:
        return self.get_kind_display().rsplit("(", 1)[-1].rstrip(")")


class PavementRestoration(models.Model):
    """§ 303-5G(4): when the permanent pavement is due, the temporary winter surface if any, and when it was done."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="pavement_restoration")
    temporary_placed_on = models.DateField(null=True, blank=True)
    temporary_depth_inches = models.DecimalField(**INCHES)
    permanent_due_on = models.DateField()
    permanent_completed_on = models.DateField(null=True, blank=True)
    overdue = models.BooleanField(default=False, editable=False)
    overdue_flagged_on = models.DateField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(temporary_depth_inches__isnull=True) | Q(temporary_depth_inches__gt=0),
                name="restoration_temporary_depth_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"Pavement of {self.permit.number}, due {self.permanent_due_on}"

    @property
    def is_winter_patch(self) -> bool:
        return self.temporary_placed_on is not None


class Guarantee(models.Model):
    """§ 303-4H(3): the restorer answers for the work for one year from the date of its completion."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="guarantee")
    completed_on = models.DateField()
    ends_on = models.DateField()
    ended = models.BooleanField(default=False, editable=False)
    ended_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gt=models.F("completed_on")), name="guarantee_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"Guarantee of {self.permit.number} to {self.ends_on}"


class DefectNotice(models.Model):
    """Two notices with one consequence. § 303-4H(2): the DPW's notice of faulty work or materials while the work is
    under way. § 303-4H(4): the Village Board's written notice of work found defective within one year of completion,
    made only on the Board's carried motion (`finding`). Either one not corrected in time: the Village repairs and
    bills (§ 303-4H(2))."""

    class Kind(models.TextChoices):
        FAULTY_WORK = "faulty_work", "The DPW's notice of faulty work or materials (§ 303-4H(2))"
        BOARD_FINDING = "board_finding", "The Village Board's finding of defective work (§ 303-4H(4))"

    class Addressee(models.TextChoices):
        PERMITTEE = "permittee", "The permittee (contractor)"
        SURETY = "surety", "The permittee's surety"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="defect_notices")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.FAULTY_WORK)
    defect = models.TextField()
    work_to_be_done = models.TextField()
    estimated_cost = models.DecimalField(**AMOUNT)
    deadline = models.DateField()
    addressed_to = models.CharField(max_length=20, choices=Addressee.choices)
    addressee_name = models.CharField(max_length=200)
    addressee_email = models.EmailField(blank=True)
    served_on = models.DateField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    finding = board_motion(help_text="The Board's carried motion finding the work defective (§ 303-4H(4))")
    corrected_on = models.DateField(null=True, blank=True)
    past_deadline_on = models.DateField(
        null=True, blank=True, editable=False, help_text="Flagged the day after the deadline passed uncorrected"
    )
    village_repaired_on = models.DateField(null=True, blank=True)
    repair_labor = models.DecimalField(**AMOUNT, null=True, blank=True)
    repair_materials = models.DecimalField(**AMOUNT, null=True, blank=True)
    repair_equipment = models.DecimalField(**AMOUNT, null=True, blank=True)
    billed_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-served_on", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(estimated_cost__gte=0), name="defect_cost_not_negative"),
            # § 303-4H(4): a finding is the Board's motion; the DPW's § 303-4H(2) notice has none
            models.CheckConstraint(
                condition=Q(kind="board_finding", finding__isnull=False) | Q(kind="faulty_work", finding__isnull=True),
                name="defect_finding_only_by_board_motion",
            ),
            models.CheckConstraint(
                condition=Q(deadline__gt=models.F("served_on")), name="defect_deadline_after_served"
            ),
            models.CheckConstraint(
                condition=(Q(repair_labor__isnull=True) | Q(repair_labor__gte=0))
                & (Q(repair_materials__isnull=True) | Q(repair_materials__gte=0))
                & (Q(repair_equipment__isnull=True) | Q(repair_equipment__gte=0)),
                name="defect_repair_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Defect notice on {self.permit.number} served {self.served_on}"

    @property
    def repair_bill(self):
        """§ 303-4H(2): labor, materials and equipment plus 20% administration, or None before the repair."""
        from permits.street_opening.field.rules import village_repair_bill

        if self.village_repaired_on is None:
            return None
        return village_repair_bill(
            labor=self.repair_labor or Decimal("0"),
            materials=self.repair_materials or Decimal("0"),
            equipment=self.repair_equipment or Decimal("0"),
        )

    @property
    def repair_total(self) -> Decimal | None:
        bill = self.repair_bill
        return bill.total if bill else None

    @property
    def is_open(self) -> bool:
        return self.corrected_on is None and self.village_repaired_on is None


class VillageExpense(models.Model):
    """§ 303-4F(2): "the fee for a street opening permit shall be as prescribed in Chapter 167, Fees, plus actual
    Village expenses": what the Village spent on the opening (labor, equipment, materials), with the receipt or
    invoice behind it, added to the permit's fee and paid to the Clerk-Treasurer, who issues his receipt."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="village_expenses")
    incurred_on = models.DateField()
    description = models.CharField(max_length=300, help_text="What the Village did")
    labor = models.DecimalField(**AMOUNT)
    equipment = models.DecimalField(**AMOUNT)
    materials = models.DecimalField(**AMOUNT)
    receipt = models.ForeignKey(
        Document,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The vendor's receipt or invoice for the equipment or materials",
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-incurred_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(labor__gte=0) & Q(equipment__gte=0) & Q(materials__gte=0),
                name="village_expense_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(labor__gt=0) | Q(equipment__gt=0) | Q(materials__gt=0), name="village_expense_some_amount"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number}: Village expenses ${self.total} ({self.incurred_on})"

    @property
    def total(self) -> Decimal:
        return self.labor + self.equipment + self.materials
