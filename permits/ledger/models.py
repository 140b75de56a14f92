"""The Village's special-charge ledger, which every enforcement path bills through (snow and ice, rubbish, sidewalk
orders, obstructions), its hearings and the special-charges tax roll (Wis. Stat. § 66.0627, §§ 70.65, 74.03).

The tables keep the names they had when the ledger lived in the sidewalks app (db_table below): the move into the
core changed no data.

What the database can guarantee is a constraint here: amounts are never negative, a charge is on a tax roll at most
once, one roll per year.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from permits.models.core import Parcel
from permits.models.shared_fields import NumberedRecord, board_motion


class PaymentPeriod(models.Model):
    """Wis. Stat. § 66.0627(4): a special charge not paid "within the time determined by the governing body" is
    delinquent. The Village Board determines that time by a recorded motion, in force from `effective_from`; the
    period in force on the day a bill is given counts its due date (permits.ledger.services.payment_days_in_force).

    The one row without a motion is the installation's starting period (30 days, the Village's practice before the
    system), shown as such on the rules page until the Board records its own; the service never creates another."""

    days = models.PositiveSmallIntegerField(help_text="Days after the bill is given, counted as § 990.001(4) counts")
    effective_from = models.DateField()
    motion = models.ForeignKey(
        "permits.Motion", on_delete=models.PROTECT, null=True, blank=True, related_name="payment_periods"
    )
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-effective_from", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(days__gte=1) & Q(days__lte=366), name="payment_period_days_range"),
        ]

    def __str__(self) -> str:
        return f"{self.days} days from {self.effective_from:%Y-%m-%d}"


class SpecialCharge(NumberedRecord):
    """One charge against a parcel for work the Village did for its owner. Not payable in installments
    (Wis. Stat. § 66.0627(2)); unpaid when due it is delinquent and goes on the tax roll (§ 66.0627(4))."""

    class Source(models.TextChoices):
        SNOW_ICE = "snow_ice", "Snow and ice removal (§ 303-8B)"
        RUBBISH = "rubbish", "Rubbish or dirt removal (§ 303-2)"
        SIDEWALK_REPAIR = "sidewalk_repair", "Sidewalk repair or replacement (§ 303-3)"
        OBSTRUCTION_REMOVAL = "obstruction_removal", "Obstruction removal (§ 303-6F)"
        PERMIT_DEFICIENCY = "permit_deficiency", "Repair of a permittee's deficient work (§ 303-4H(2))"
        SIDEWALK_MINOR_REPAIR = "sidewalk_minor_repair", "Minor sidewalk repair (§ 303-3B(3); Wis. Stat. § 66.0907)"

    class Route(models.TextChoices):
        # Named as the law names them: their notices and hearings differ (wisconsin.md).
        SPECIAL_CHARGE_66_0627 = "special_charge_66_0627", "Special charge (Wis. Stat. § 66.0627)"
        SPECIAL_TAX_66_0907 = "special_tax_66_0907", "Special tax (Wis. Stat. § 66.0907; § 303-3B(3))"
        SPECIAL_ASSESSMENT_66_0703 = (
            "special_assessment_66_0703",
            "Special assessment (§ 303-3B(2); Wis. Stat. § 66.0703)",
        )

    class Status(models.TextChoices):
        PENDING = "pending", "Recorded, not billed yet"
        BILLED = "billed", "Billed"
        PAID = "paid", "Paid"
        DELINQUENT = "delinquent", "Delinquent"
        CERTIFIED = "certified", "Certified to the tax roll"
        ON_ROLL = "on_roll", "On the tax roll"
        PAID_ON_ROLL = "paid_on_roll", "Paid on the tax roll"

    detail_url_name = "ledger:charge_detail"

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="special_charges")
    source = models.CharField(max_length=30, choices=Source.choices)
    route = models.CharField(max_length=40, choices=Route.choices)
    # The work record the charge came from (a snow case, a rubbish case, a Board order ...), whatever its model.
    work_content_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    work_object_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    work_record = GenericForeignKey("work_content_type", "work_object_id")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    description = models.CharField(max_length=300)
    citation = models.CharField(max_length=80, help_text="Section that authorises the charge, e.g. § 303-8B")
    incurred_on = models.DateField()
    billed_on = models.DateField(null=True, blank=True, editable=False)
    due_on = models.DateField(null=True, blank=True, editable=False)
    delinquent_on = models.DateField(null=True, blank=True, editable=False)
    paid_on = models.DateField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.BILLED, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "sidewalks_specialcharge"  # kept from the sidewalks app (no data moved)
        ordering = ["-incurred_on", "-pk"]
        indexes = [
            models.Index(fields=["status", "due_on"]),
            models.Index(fields=["parcel", "-incurred_on"]),
            models.Index(fields=["work_content_type", "work_object_id"]),
            models.Index(fields=["-incurred_on", "-id"], name="charge_incurred_on_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="special_charge_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(
                    status__in=["pending", "billed", "paid", "delinquent", "certified", "on_roll", "paid_on_roll"]
                ),
                name="special_charge_status_known",
            ),
            models.CheckConstraint(
                condition=Q(due_on__isnull=True) | Q(billed_on__isnull=False) & Q(due_on__gte=models.F("billed_on")),
                name="special_charge_due_after_billed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: ${self.amount} against {self.parcel.tax_key}"

    @property
    def amount_paid(self) -> Decimal:
        annotated = getattr(self, "paid_total", None)
        if annotated is not None:
            return annotated
        # A refunded or voided payment (a Refund of the whole payment) is not paid: the balance is owed again.
        live = self.payments.filter(refunds__isnull=True)
        return live.aggregate(total=models.Sum("amount"))["total"] or Decimal("0.00")

    @property
    def balance_due(self) -> Decimal:
        return max(self.amount - self.amount_paid, Decimal("0.00"))

    @property
    def awaiting_hearing(self) -> bool:
        """Wis. Stat. § 66.0627(3)(b): recorded, but not billed until the Board's hearing is held."""
        from permits.ledger.rules import needs_assessment_proceeding, needs_hearing

        return (
            self.status == self.Status.PENDING
            and needs_hearing(self.source)
            and not needs_assessment_proceeding(self.route)
        )

    @property
    def awaiting_levy(self) -> bool:
        """Wis. Stat. § 66.0703(8), § 303-3B(2): recorded, but not levied until the Board's final resolution."""
        from permits.ledger.rules import needs_assessment_proceeding

        return self.status == self.Status.PENDING and needs_assessment_proceeding(self.route)

    @property
    def is_open(self) -> bool:
        return self.status not in {self.Status.PAID, self.Status.PAID_ON_ROLL}


class ChargePayment(models.Model):
    """A payment of a special charge to the Clerk-Treasurer, with its numbered receipt (RC-YYYY-NNNN)."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHECK = "check", "Check"
        CARD = "card", "Card"
        TAX_BILL = "tax_bill", "Collected on the tax bill"

    charge = models.ForeignKey(SpecialCharge, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    method = models.CharField(max_length=10, choices=Method.choices)
    reference = models.CharField(max_length=60, blank=True)
    receipt_number = models.CharField(max_length=20, unique=True, editable=False)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    received_at = models.DateTimeField()
    # Set with its Refund (permits.online_payments), in the same transaction: a refunded or voided payment no longer
    # pays the charge, which is owed again and may be paid once more.
    refunded = models.BooleanField(default=False, editable=False)

    class Meta:
        db_table = "sidewalks_chargepayment"  # kept from the sidewalks app (no data moved)
        ordering = ["-received_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="charge_payment_amount_positive"),
            # Wis. Stat. § 66.0627(2): no installments, so a charge is paid once (a second receipt is money twice),
            # unless that payment was refunded or voided.
            models.UniqueConstraint(fields=["charge"], condition=Q(refunded=False), name="charge_paid_once"),
        ]

    def __str__(self) -> str:
        return f"Receipt {self.receipt_number}: ${self.amount}"


class ChargeHearing(models.Model):
    """Wis. Stat. § 66.0627(3)(b): the Board's public hearing before a sidewalk-repair (or street-tarring) charge,
    with the class 1 notice published and the copy mailed to each interested person."""

    hearing_on = models.DateField("Board hearing date")
    published_on = models.DateField("class 1 notice published on")
    mailed_on = models.DateField("notice mailed on")
    place = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    charges = models.ManyToManyField(SpecialCharge, related_name="hearings", blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    motion = board_motion(
        help_text="The Board's motion at the meeting that held the hearing (blank on hearings recorded before)",
        editable=False,
    )

    class Meta:
        db_table = "sidewalks_chargehearing"  # kept from the sidewalks app (no data moved)
        ordering = ["-hearing_on"]

    def __str__(self) -> str:
        return f"Board hearing of {self.hearing_on:%Y-%m-%d}"


class AssessmentProceeding(models.Model):
    """Wis. Stat. § 66.0703, named by § 303-3B(2): the steps before the owners' 100% share of curb, gutter and
    sidewalk work is levied as a special assessment. The Board's preliminary resolution (§ 66.0703(4)), the
    engineer's report filed with the Clerk-Treasurer for public inspection (§ 66.0703(5)), the class 1 notice and
    the copy mailed to each owner (§ 66.0703(7)), the public hearing, and the Board's final resolution
    (§ 66.0703(8)). Its charges (the schedule of assessments) are billed only after the final resolution."""

    title = models.CharField(max_length=200, help_text="The project, as the notice names it")
    charges = models.ManyToManyField(SpecialCharge, related_name="assessment_proceedings", blank=True)
    preliminary_motion = board_motion(
        help_text="The Board's preliminary resolution (Wis. Stat. § 66.0703(4))", editable=False
    )
    report_filed_on = models.DateField("engineer's report filed on", null=True, blank=True, editable=False)
    report = models.TextField(
        "engineer's report", blank=True, editable=False, help_text="Plans, estimate and schedule of assessments"
    )
    published_on = models.DateField("class 1 notice published on", null=True, blank=True, editable=False)
    mailed_on = models.DateField("notice mailed on", null=True, blank=True, editable=False)
    hearing_on = models.DateField("public hearing on", null=True, blank=True, editable=False)
    place = models.CharField(max_length=200, blank=True, editable=False)
    final_motion = board_motion(
        help_text="The Board's final resolution, after the hearing (Wis. Stat. § 66.0703(8))", editable=False
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at", "-pk"]

    def __str__(self) -> str:
        return f"Special assessment: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("ledger:assessment", args=[self.pk])

    @property
    def step(self) -> str:
        """Where the proceeding stands, as the clerk's page says it."""
        if self.final_motion_id:
            return "Levied by the final resolution"
        if self.published_on:
            return "Noticed for hearing"
        if self.report_filed_on:
            return "Engineer's report filed"
        if self.preliminary_motion_id:
            return "Preliminary resolution adopted"
        return "Awaiting the Board's preliminary resolution"


def tax_roll_upload_to(instance: TaxRollBatch, filename: str) -> str:
    return f"tax_roll/{instance.year}/{filename}"


class TaxRollBatch(models.Model):
    """The year's special-charges roll (Wis. Stat. §§ 70.65, 74.03). A certified batch is frozen."""

    class State(models.TextChoices):
        DRAFT = "draft", "Draft"
        CERTIFIED = "certified", "Certified"

    year = models.PositiveIntegerField(unique=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT, editable=False)
    built_at = models.DateTimeField(null=True, blank=True, editable=False)
    certified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    certified_at = models.DateTimeField(null=True, blank=True, editable=False)
    transferred_on = models.DateField(null=True, blank=True, editable=False)
    csv_file = models.FileField(upload_to=tax_roll_upload_to, blank=True, editable=False)
    pdf_file = models.FileField(upload_to=tax_roll_upload_to, blank=True, editable=False)
    # A digest of everything the last build read (the charges, their parcels and hearings, the day, the lines): a
    # rebuild that finds the same digest has nothing to change and stops there.
    inputs_fingerprint = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        db_table = "sidewalks_taxrollbatch"  # kept from the sidewalks app (no data moved)
        ordering = ["-year"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=["draft", "certified"]), name="tax_roll_batch_state_known"),
            models.CheckConstraint(
                condition=Q(state="draft") | Q(certified_at__isnull=False, certified_by__isnull=False),
                name="tax_roll_batch_certified_has_who_and_when",
            ),
        ]

    def __str__(self) -> str:
        return f"Special-charges tax roll {self.year} ({self.get_state_display().lower()})"

    def get_absolute_url(self) -> str:
        return reverse("ledger:tax_roll", args=[self.year])

    @property
    def is_frozen(self) -> bool:
        return self.state == self.State.CERTIFIED


class TaxRollLine(models.Model):
    """One charge on one roll, with what the county's tax software needs, copied when the line was written."""

    batch = models.ForeignKey(TaxRollBatch, on_delete=models.PROTECT, related_name="lines")
    charge = models.ForeignKey(SpecialCharge, on_delete=models.PROTECT, related_name="roll_lines")
    tax_key = models.CharField(max_length=40)
    owner = models.CharField(max_length=200)
    source = models.CharField(max_length=30)
    description = models.CharField(max_length=300)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    citation = models.CharField(max_length=80)

    class Meta:
        db_table = "sidewalks_taxrollline"  # kept from the sidewalks app (no data moved)
        ordering = ["tax_key", "charge_id"]
        # The roll's page reads a batch's lines in tax-key order, a page at a time (without it, every line is sorted).
        indexes = [models.Index(fields=["batch", "tax_key"], name="tax_roll_line_batch_key_idx")]
        constraints = [
            # A charge appears on a roll at most once, and so can never be certified twice: the database says so.
            models.UniqueConstraint(fields=["charge"], name="tax_roll_line_charge_once"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="tax_roll_line_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.tax_key}: ${self.amount} ({self.batch.year})"
