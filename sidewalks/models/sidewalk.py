"""Sidewalk permits (§ 303-3C, § 303-3D), their inspections, Board waivers (§ 303-3D(8)(c), § 303-3D(9)),
block-by-block surveys of defective sidewalks (§ 303-3E) and the Board's orders to owners (§ 303-3B(3), Wis. Stat.
§ 66.0907). Rules live in sidewalks/ordinance.py; the verbs in sidewalks/services.py."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from permits.ledger.models import SpecialCharge
from permits.models import Parcel, Permit, Street
from permits.models.shared_fields import NumberedRecord, board_motion
from sidewalks import rules as ordinance


class Work(models.TextChoices):
    NEW = ordinance.NEW, "Lay a new walk"
    REPLACE = ordinance.REPLACE, "Remove and replace an existing walk"
    REPAIR = ordinance.REPAIR, "Repair an existing walk"


class Material(models.TextChoices):
    CONCRETE = ordinance.CONCRETE, "Concrete"
    BITUMINOUS = ordinance.BITUMINOUS, "Bituminous (asphalt): prohibited, § 303-3D(4)"


class BoardWaiver(models.Model):
    """A waiver the Village Board adopted by a recorded motion (permits.board).

    § 303-3D(8)(c): the five-foot width and five-inch thickness in front of a commercial or industrial establishment,
    by three-fourths of the ENTIRE Board: the seats on the roster on the meeting date, vacant ones included (6 of 7).
    § 303-3D(9): the 35 °F and frozen-subgrade rule, for an emergency replacement, by a majority of those present.

    `ayes`, `nays` and `seats` are copied from the motion. Waivers recorded before the Board's roster existed have no
    motion: their typed numbers are kept as history, and they count only if the typed ayes are three-fourths of the
    seats on the roster on their adoption date (a typed seat count of 4 does not make 3 ayes a waiver).
    """

    class Kind(models.TextChoices):
        WIDTH_THICKNESS = "width_thickness", "Commercial width and thickness (§ 303-3D(8)(c))"
        COLD_WEATHER = "cold_weather", "Emergency pour in cold weather or on frozen subgrade (§ 303-3D(9))"
        DIAGONAL_JOINTS = "diagonal_joints", "Diagonal joints (§ 303-3D(6))"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="sidewalk_waivers")
    permit = models.ForeignKey(
        Permit,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sidewalk_waivers",
        help_text="§ 303-3D(9), § 303-3D(6): the one sidewalk permit a cold-weather waiver or a diagonal-joint "
        "approval is for (it excuses no other permit)",
    )
    emergency = models.TextField(
        blank=True, help_text="§ 303-3D(9): the emergency replacement the cold-weather waiver was granted for"
    )
    ends_on = models.DateField(
        null=True,
        blank=True,
        help_text="§ 303-3D(9): the last day the cold-weather waiver excuses a pour; after it, it excuses nothing",
    )
    motion = models.OneToOneField(
        "permits.Motion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sidewalk_waiver",
        help_text="The Board's motion that adopted the waiver (blank only for waivers recorded before the roster)",
    )
    resolution_number = models.CharField(max_length=40)
    adopted_on = models.DateField()
    ayes = models.PositiveSmallIntegerField()
    nays = models.PositiveSmallIntegerField(default=0)
    seats = models.PositiveSmallIntegerField(
        help_text="Seats on the entire Board on the adoption date, vacant ones included (from the roster; as typed "
        "on waivers recorded before it)."
    )
    reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-adopted_on", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(ayes__lte=models.F("seats")), name="board_waiver_ayes_within_seats"),
            models.CheckConstraint(condition=Q(seats__gt=0), name="board_waiver_seats_positive"),
        ]

    def __str__(self) -> str:
        return f"Resolution {self.resolution_number}: {self.get_kind_display()} ({self.ayes} of {self.seats})"

    @property
    def is_effective(self) -> bool:
        from permits.board import services as board

        if self.motion_id is not None:
            return self.motion.carried
        # Recorded before the roster: the typed ayes against the roster's seats on the adoption date.
        seats = max(self.seats, board.seats_on(self.adopted_on))
        if self.kind == self.Kind.WIDTH_THICKNESS:
            return ordinance.is_three_fourths_of_entire_board(ayes=self.ayes, seats=seats)
        return self.ayes > self.nays


class WaiverRequest(models.Model):
    """A waiver put to the Village Board (§ 303-3D(8)(c) width and thickness, § 303-3D(9) cold-weather pour): what
    waits on the Board's queue until a recorded motion decides it. A carried motion records the BoardWaiver
    (sidewalks.services.record_board_waiver); a failed one denies the request."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the Board"
        WAIVED = "waived", "Waived by the Board"
        DENIED = "denied", "Denied by the Board"

    kind = models.CharField(max_length=20, choices=BoardWaiver.Kind.choices)
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="sidewalk_waiver_requests")
    reason = models.TextField(help_text="Why the waiver is asked (the emergency, the establishment's frontage)")
    permit = models.ForeignKey(
        Permit,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sidewalk_waiver_requests",
        help_text="§ 303-3D(9): the one sidewalk permit a cold-weather waiver is asked for",
    )
    ends_on = models.DateField(
        null=True, blank=True, help_text="§ 303-3D(9): the last day the cold-weather waiver is asked to excuse a pour"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, editable=False)
    waiver = models.OneToOneField(
        BoardWaiver, on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="request"
    )
    decided_by_motion = board_motion(editable=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["requested_at", "pk"]
        indexes = [models.Index(fields=["status", "requested_at"], name="waiver_request_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.parcel.site_address}"


class Standing(models.TextChoices):
    """§ 303-3C: on what footing the filer asks for a permit to work the walk in front of a parcel."""

    OWNER = "owner", "The owner of record (an account linked to the parcel)"
    AGENT = "agent", "The owner's agent (with the owner's written authorization)"
    VILLAGE_CONTRACTOR = "village_contractor", "The Village's contractor (a contract in the Clerk-Treasurer's register)"


class SidewalkPermit(models.Model):
    """The sidewalk part of a § 303-3C permit: what is built where, to which standard."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="sidewalk")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="sidewalk_permits")
    work = models.CharField(max_length=10, choices=Work.choices)
    frontage_feet = models.DecimalField("length of frontage (feet)", max_digits=7, decimal_places=1)
    width_feet = models.DecimalField("width (feet)", max_digits=5, decimal_places=2)
    thickness_inches = models.DecimalField("thickness (inches)", max_digits=4, decimal_places=2)
    driveway_length_feet = models.DecimalField(
        "length across driveway approaches (feet)", max_digits=6, decimal_places=1, default=Decimal("0")
    )
    driveway_thickness_inches = models.DecimalField(
        "thickness across driveway approaches (inches)", max_digits=4, decimal_places=2, null=True, blank=True
    )
    existing_width_feet = models.DecimalField(
        "width of the existing walk (feet)", max_digits=5, decimal_places=2, null=True, blank=True
    )
    material = models.CharField(max_length=12, choices=Material.choices, default=Material.CONCRETE)
    concrete_psi = models.PositiveIntegerField("concrete strength at 28 days (psi)", null=True, blank=True)
    sacks_per_cubic_yard = models.DecimalField(
        "94-pound sacks of cement per cubic yard", max_digits=4, decimal_places=1, null=True, blank=True
    )
    pour_date = models.DateField("planned pour date", null=True, blank=True)
    village_contract = models.BooleanField("under contract with the Village", default=False)
    waiver = models.ForeignKey(
        BoardWaiver,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="permits",
        help_text="§ 303-3D(8)(c) waiver relied on, if any",
    )
    work_suspended = models.BooleanField(
        default=False,
        editable=False,
        help_text="§ 303-3D(10): suspended for failure to cure; lifted by a passed curing inspection",
    )
    standing = models.CharField(
        "filed as", max_length=20, choices=Standing.choices, default=Standing.OWNER, help_text="§ 303-3C"
    )
    standing_document = models.ForeignKey(
        "permits.Document",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        help_text="§ 303-3C: the owner's written authorization the clerk accepted (an agent's filing)",
    )
    standing_reference = models.CharField(
        max_length=80,
        blank=True,
        editable=False,
        help_text="§ 303-3C: the number of the Village contract in the Clerk-Treasurer's register",
    )
    standing_accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="+"
    )
    standing_accepted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        indexes = [models.Index(fields=["pour_date"], name="sidewalk_pour_date_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(width_feet__gt=0), name="sidewalk_width_positive"),
            models.CheckConstraint(condition=Q(thickness_inches__gt=0), name="sidewalk_thickness_positive"),
            models.CheckConstraint(condition=Q(frontage_feet__gt=0), name="sidewalk_frontage_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number}: {self.get_work_display().lower()} at {self.parcel.site_address}"

    def get_absolute_url(self) -> str:
        return reverse("sidewalks:permit", args=[self.permit.number])


class SidewalkInspection(models.Model):
    """One inspection of a sidewalk permit's work. A failed item holds the permit open until it is passed again."""

    class Stage(models.TextChoices):
        SUBGRADE = "subgrade", "Grading and subgrade (§ 303-3D(2), (3))"
        FORMS = "forms", "Forms (§ 303-3D(5))"
        POUR = "pour", "Pour: concrete, weather, joints, slope, driveway thickness (§ 303-3D(4), (6), (7), (8), (9))"
        CURING = "curing", "Curing (§ 303-3D(10))"

    class Result(models.TextChoices):
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="sidewalk_inspections")
    stage = models.CharField(max_length=10, choices=Stage.choices)
    result = models.CharField(max_length=10, choices=Result.choices)
    findings = models.TextField(blank=True, help_text="Each failed rule with its section")
    citations = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    inspected_at = models.DateTimeField()
    # What was measured (each stage fills its own).
    grading_inches = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    subgrade_inches = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    subgrade_material = models.CharField(max_length=20, blank=True)
    form_material = models.CharField(max_length=10, blank=True)
    form_thickness_inches = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    form_depth_inches = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    form_width_feet = models.DecimalField(
        "width between the forms (feet)", max_digits=5, decimal_places=2, null=True, blank=True
    )
    concrete_psi = models.PositiveIntegerField(null=True, blank=True)
    sacks_per_cubic_yard = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    forecast_low_f = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    air_temperature_f = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    subgrade_frozen = models.BooleanField(null=True, blank=True)
    expansion_spacing_feet = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    expansion_at_property_lines = models.BooleanField(null=True, blank=True)
    groove_spacing_feet = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    sawn_joints = models.BooleanField(
        "joints sawn", null=True, blank=True, help_text="§ 303-3D(6): sawing of joints is prohibited"
    )
    driveway_thickness_inches = models.DecimalField(
        "thickness across driveway approaches (inches)",
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="§ 303-3D(8): at least 6 inches residential, 7 inches commercial or industrial",
    )
    slope_inches_per_foot = models.DecimalField(max_digits=4, decimal_places=3, null=True, blank=True)
    traffic_free_until = models.DateTimeField(null=True, blank=True)
    curing_method = models.CharField(max_length=20, blank=True)
    # § 303-3D(3): compacted and moistened immediately before the concrete is placed (asked at the pour).
    subgrade_compacted = models.BooleanField("subgrade thoroughly and uniformly compacted", null=True, blank=True)
    subgrade_moistened = models.BooleanField("subgrade moistened", null=True, blank=True)
    # § 303-3D(6): expansion joints where the walk meets another walk, curbline, building or driveway approach.
    meeting_joints = models.CharField(
        "expansion joints where the walk meets another walk, curb, building or driveway",
        max_length=10,
        blank=True,
        choices=[
            ("placed", "Placed at each"),
            ("missing", "Missing at one or more"),
            ("none_met", "The walk meets none of these"),
        ],
    )
    diagonal_joints = models.BooleanField("diagonal joints used", null=True, blank=True)
    strip_inches = models.DecimalField(
        "strip of street property between the property line and the walk (inches)",
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        help_text="§ 303-3D(7): six inches",
    )

    class Meta:
        ordering = ["inspected_at", "pk"]
        indexes = [models.Index(fields=["permit", "stage", "inspected_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(result__in=["passed", "failed"]), name="sidewalk_inspection_result_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit.number} {self.get_stage_display()}: {self.get_result_display()}"


class SidewalkSurvey(models.Model):
    """A DPW inspector's block-by-block survey of the sidewalks along one street (§ 303-3E)."""

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="sidewalk_surveys")
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    surveyed_on = models.DateField()
    block_area_sqft = models.DecimalField(
        "area of one block (square feet)",
        max_digits=5,
        decimal_places=1,
        default=Decimal("20.0"),
        help_text="Used to turn blocks into square feet for a replacement (a 4 ft walk with joints every 5 ft: 20)",
    )
    notes = models.TextField(blank=True)
    orders_proposed_on = models.DateField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-surveyed_on", "-pk"]

    def __str__(self) -> str:
        return f"Survey of {self.street} on {self.surveyed_on:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("sidewalks:survey", args=[self.pk])


class SurveyBlock(models.Model):
    """One sidewalk block of one parcel, as measured; `defective` is decided by § 303-3E(1) when recorded."""

    survey = models.ForeignKey(SidewalkSurvey, on_delete=models.PROTECT, related_name="blocks")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="survey_blocks")
    block_number = models.PositiveSmallIntegerField()
    vertical_inches = models.DecimalField("vertical differential (inches)", max_digits=4, decimal_places=2, default=0)
    horizontal_inches = models.DecimalField("horizontal gap (inches)", max_digits=4, decimal_places=2, default=0)
    deterioration_inches = models.DecimalField(
        "surface deterioration (inches)", max_digits=4, decimal_places=2, default=0
    )
    defective = models.BooleanField(editable=False)
    defects = models.CharField(max_length=300, blank=True, editable=False)

    class Meta:
        ordering = ["parcel__site_address", "block_number"]
        constraints = [
            models.UniqueConstraint(fields=["survey", "parcel", "block_number"], name="survey_block_unique"),
            models.CheckConstraint(
                condition=Q(vertical_inches__gte=0) & Q(horizontal_inches__gte=0) & Q(deterioration_inches__gte=0),
                name="survey_block_measures_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.parcel.site_address} block {self.block_number}"


class SidewalkOrder(NumberedRecord):
    """A Board order to an owner to repair or replace the sidewalk (§ 303-3A, § 303-3E, § 303-3F), served and carried
    out under Wis. Stat. § 66.0907 (§ 303-3B(3)); when the owner does not, the Village does the work and the cost is
    charged to the parcel (§ 303-3B(1), (2))."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        ADOPTED = "adopted", "Adopted by the Board"
        SERVED = "served", "Served on the owner"
        OWNER_DONE = "owner_done", "Done by the owner"
        VILLAGE_DONE = "village_done", "Done by the Village"
        CHARGED = "charged", "Charged to the parcel"
        WITHDRAWN = "withdrawn", "Withdrawn"

    class Reason(models.TextChoices):
        DEFECTIVE = "defective", "Defective blocks (§ 303-3E)"
        ILLEGAL = "illegal", "Built contrary to § 303-3 (§ 303-3F)"
        BOARD = "board", "Board determination (§ 303-3A)"

    class Unit(models.TextChoices):
        SQFT = "sqft", "square feet"
        BLOCK = "block", "blocks"
        LINEAR_FEET = "lf", "linear feet"

    class Element(models.TextChoices):
        # § 303-3A: the Board may order "sidewalks or curb and gutter" constructed, laid, rebuilt or repaired.
        SIDEWALK = "sidewalk", "Sidewalk"
        CURB_GUTTER = "curb_gutter", "Curb and gutter"
        SIDEWALK_CURB_GUTTER = "all", "Sidewalk, curb and gutter"

    class ServiceMethod(models.TextChoices):
        PERSONAL = "personal", "Personal delivery"
        CERTIFIED_MAIL = "certified_mail", "Certified mail"
        REGISTERED_MAIL = "registered_mail", "Registered mail"
        PUBLICATION_AND_MAIL = "publication_and_mail", "Publication and first-class mail"

    detail_url_name = "sidewalks:order"

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="sidewalk_orders")
    survey = models.ForeignKey(SidewalkSurvey, on_delete=models.PROTECT, null=True, blank=True, related_name="orders")
    reason = models.CharField(max_length=12, choices=Reason.choices, default=Reason.DEFECTIVE)
    element = models.CharField(
        "what is ordered",
        max_length=12,
        choices=Element.choices,
        default=Element.SIDEWALK,
        help_text="§ 303-3A: sidewalks or curb and gutter",
    )
    work = models.CharField(
        max_length=10,
        choices=[
            (Work.NEW, "Construct"),
            (Work.REPAIR, "Repair"),
            (Work.REPLACE, "Replace the entire walk"),
        ],
    )
    blocks_total = models.PositiveIntegerField(default=0)
    blocks_defective = models.PositiveIntegerField(default=0)
    quantity = models.DecimalField(max_digits=8, decimal_places=1)
    unit = models.CharField(max_length=5, choices=Unit.choices)
    fee_code = models.SlugField(max_length=60, help_text="Fee schedule item the unit price came from")
    unit_price = models.DecimalField(max_digits=10, decimal_places=2)
    estimated_cost = models.DecimalField(max_digits=10, decimal_places=2)
    findings = models.TextField(blank=True, help_text="Why the walk is defective or illegal, each with its section")
    highland_theresa_project = models.BooleanField(
        "part of the Highland Avenue / Theresa Lane project",
        default=False,
        help_text="§ 303-3B(2): the Village pays 50% only on that named, budgeted project. Tick only when recorded "
        "as such; other work is 100% the owner's.",
    )
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.PROPOSED, editable=False)
    resolution_number = models.CharField(max_length=40, blank=True, editable=False)
    adopted_on = models.DateField(null=True, blank=True, editable=False)
    service_method = models.CharField(max_length=25, choices=ServiceMethod.choices, blank=True, editable=False)
    served_on = models.DateField(null=True, blank=True, editable=False)
    service_proof = models.CharField(max_length=300, blank=True, editable=False)
    owner_deadline = models.DateField(
        null=True,
        blank=True,
        editable=False,
        help_text="Last day the owner may do the work: 20 days after service, Wis. Stat. § 66.0907 (verify the current "
        "text; the period is the SIDEWALK_OWNER_PERIOD_DAYS setting)",
    )
    owner_permit = models.ForeignKey(
        Permit, on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="sidewalk_orders"
    )
    village_cost = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True, editable=False)
    village_done_on = models.DateField(null=True, blank=True, editable=False)
    charge = models.OneToOneField(
        SpecialCharge, on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="sidewalk_order"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "owner_deadline"]),
            # The Board's orders page lists them newest first (no sort of every order).
            models.Index(fields=["-created_at", "-id"], name="sidewalk_order_created_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(estimated_cost__gte=0), name="sidewalk_order_estimate_not_negative"),
            models.CheckConstraint(condition=Q(quantity__gte=0), name="sidewalk_order_quantity_not_negative"),
            models.CheckConstraint(
                condition=Q(village_cost__isnull=True) | Q(village_cost__gte=0), name="sidewalk_order_cost_not_negative"
            ),
            # One open order per parcel and survey: proposing twice never duplicates.
            models.UniqueConstraint(fields=["survey", "parcel"], name="sidewalk_order_one_per_survey_parcel"),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.get_work_display().lower()} at {self.parcel.site_address}"

    @property
    def work_label(self) -> str:
        """The work as the order names it: "replace the entire walk" is a sidewalk's (§ 303-3E(2)); curb and gutter
        are rebuilt (§ 303-3A)."""
        if self.element != self.Element.SIDEWALK and self.work == Work.REPLACE:
            return "Remove and rebuild"
        return self.get_work_display()
