"""The permit core every permit type shares, and the village's records (streets, parcels, organizations)."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from simple_history.models import HistoricalRecords

from permits.kinds import kind_label, validate_kind
from permits.models.shared_fields import NumberedRecord

# --- People and organizations ---------------------------------------------------------------------------------


class Organization(models.Model):
    """A contractor or utility company: all its staff users see its applications."""

    class Kind(models.TextChoices):
        CONTRACTOR = "contractor", "Contractor"
        UTILITY = "utility", "Utility company"

    class Facility(models.TextChoices):  # § 303-5H: what a utility owns or controls in or under Village streets
        SEWER = "sewer", "Sewer"
        GAS_MAIN = "gas_main", "Gas main"
        WATER_MAIN = "water_main", "Water main"
        CONDUIT = "conduit", "Conduit"
        OTHER = "other", "Other utility"

    name = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    phone = models.CharField(max_length=40, blank=True)
    address = models.TextField(blank=True)
    # § 303-5H: set by the Clerk-Treasurer (never by the organization itself); empty: it may not claim an emergency.
    utility_facilities = models.JSONField(
        default=list,
        blank=True,
        help_text="§ 303-5H: the utilities this organization owns or controls in or under Village streets, as the "
        "Clerk-Treasurer verified. Only such an organization (and its staff) may claim an emergency excavation.",
    )
    utility_facilities_note = models.CharField(
        max_length=300, blank=True, help_text="What it owns or controls, e.g. the gas mains on every Village street."
    )
    utility_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    utility_recorded_at = models.DateTimeField(null=True, blank=True, editable=False)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="organizations")
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="memberships")
    is_manager = models.BooleanField(default=False, help_text="May add and remove the organization's staff.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "organization"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} at {self.organization}"


# --- Village records ------------------------------------------------------------------------------------------


class Street(models.Model):
    """A Village street or alley, with the widths the Clerk-Treasurer or the Director of Public Works records on the
    street register page (obstructions.registers): the rules of § 303-7D(1) and § 303-6B(2) read these facts, never
    the width an applicant types. No width on record: those rules refuse (they fail closed)."""

    name = models.CharField(max_length=100, unique=True)
    notes = models.TextField(blank=True)
    width_feet = models.DecimalField(
        "width (feet)",
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        editable=False,
        help_text="The whole street or alley, curb to curb (§ 303-7D(1): at most 1/3 of it is occupied).",
    )
    traveled_width_feet = models.DecimalField(
        "traveled width (feet)",
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        editable=False,
        help_text="The traveled portion (§ 303-6B(2): building materials take at most 1/3 of it).",
    )
    sidewalk_width_feet = models.DecimalField(
        "sidewalk width (feet)",
        max_digits=4,
        decimal_places=1,
        null=True,
        blank=True,
        editable=False,
        help_text="The sidewalk along it (§ 303-6B(2): building materials take at most 1/2 of it); none: no sidewalk.",
    )
    widths_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    widths_recorded_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(width_feet__isnull=True) | Q(width_feet__gt=0), name="street_width_positive"
            ),
            models.CheckConstraint(
                condition=Q(traveled_width_feet__isnull=True)
                | Q(traveled_width_feet__gt=0, traveled_width_feet__lte=models.F("width_feet")),
                name="street_traveled_within_width",
            ),
            models.CheckConstraint(
                condition=Q(sidewalk_width_feet__isnull=True) | Q(sidewalk_width_feet__gt=0),
                name="street_sidewalk_width_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Parcel(models.Model):
    """A parcel on the assessment roll (imported by the clerk from the assessor's CSV)."""

    class LandUse(models.TextChoices):
        RESIDENTIAL = "residential", "Residential"
        COMMERCIAL = "commercial", "Commercial"
        INDUSTRIAL = "industrial", "Industrial"

    tax_key = models.CharField("tax key number", max_length=40, unique=True)
    site_address = models.CharField(max_length=200)
    owner_name = models.CharField(max_length=200)
    owner_mailing_address = models.TextField()
    owner_email = models.EmailField(blank=True)
    land_use = models.CharField(max_length=20, choices=LandUse.choices)
    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="parcels", help_text="Abutting street")
    corner_lot = models.BooleanField(default=False)
    crosswalk_adjacent = models.BooleanField(default=False, help_text="Next to a public crosswalk (§ 303-8A)")
    owners = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="parcels", help_text="Portal accounts of the owner of record"
    )
    history = HistoricalRecords(excluded_fields=["owners"])

    class Meta:
        ordering = ["street__name", "site_address"]
        indexes = [models.Index(fields=["site_address"]), models.Index(fields=["owner_name"])]

    def __str__(self) -> str:
        return f"{self.site_address} ({self.tax_key})"


# --- Fees (Chapter 167 amounts are data the clerk edits) -------------------------------------------------------


class FeeItem(models.Model):
    """One fee of Chapter 167, Fees, in force from `effective_from` until `effective_to` (inclusive) or forever."""

    code = models.SlugField(max_length=60, help_text="Stable code the application looks fees up by")
    name = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    effective_from = models.DateField()
    effective_to = models.DateField(null=True, blank=True)
    citation = models.CharField(max_length=60, help_text="Section that charges the fee, e.g. § 303-4F(2)")
    basis = models.TextField(
        help_text="Why this amount bears a reasonable relationship to the service (Wis. Stat. § 66.0628)"
    )
    is_placeholder = models.BooleanField(
        default=False, help_text="Seeded amount not yet adopted by the Board: replace it with the Chapter 167 amount"
    )
    kept_when_withdrawn_or_denied = models.BooleanField(
        "kept when withdrawn or denied",
        default=False,
        help_text="Chapter 167: the schedule says this fee is not refunded when the application is withdrawn or "
        "denied (the Village keeps what was paid of it). Unticked, the fee paid is refunded.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["code", "-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["code", "effective_from"], name="fee_item_unique_start"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="fee_item_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(effective_to__isnull=True) | Q(effective_to__gte=models.F("effective_from")),
                name="fee_item_period_in_order",
            ),
        ]

    def __str__(self) -> str:
        label = " (placeholder)" if self.is_placeholder else ""
        return f"{self.name}: ${self.amount}{label} from {self.effective_from}"


# --- Permits --------------------------------------------------------------------------------------------------


class PermitKind(models.TextChoices):
    """The `kind` values of the first four permit types, for their own packages' code and the migrations that name
    them. Permit.kind is checked against the registry (permits.kinds), not these choices: a new type adds no value
    here, and its label is its record's."""

    STREET_OPENING = "street_opening", "Street opening or excavation"
    SIDEWALK = "sidewalk", "Sidewalk construction or repair"
    STREET_PRIVILEGE = "street_privilege", "Street privilege (moving a building, construction materials)"
    STREET_USE = "street_use", "Street use (block party, event)"


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    UNDER_REVIEW = "under_review", "Under review"
    APPROVED = "approved", "Approved"
    ISSUED = "issued", "Issued"
    ACTIVE = "active", "Work under way"
    COMPLETED = "completed", "Completed"
    CLOSED = "closed", "Closed"
    DENIED = "denied", "Denied"
    WITHDRAWN = "withdrawn", "Withdrawn"
    EXPIRED = "expired", "Expired"
    REVOKED = "revoked", "Revoked"


class NumberSequence(models.Model):
    """Per prefix and year, the last number handed out. Numbers are never reused (see services.next_number)."""

    prefix = models.CharField(max_length=8)
    year = models.PositiveIntegerField()
    last_value = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["prefix", "year"], name="number_sequence_unique")]

    def __str__(self) -> str:
        return f"{self.prefix}-{self.year}: {self.last_value}"


class StatusGuardedModel(models.Model):
    """Refuses a status change by plain save(): only workflow.transition() may write the status."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        from permits.errors import IllegalTransition

        if not self._state.adding and self.status != getattr(self, "_loaded_status", self.status):
            raise IllegalTransition(
                f"The status of {self} cannot be changed by saving it; use the workflow (permits.workflow.transition)."
            )
        if self._state.adding and self.status != Status.DRAFT:
            raise IllegalTransition("A permit starts as a draft; submit it through the workflow.")
        if not self._state.adding and not kwargs.get("force_insert"):
            # Never write the status column on save(): a copy loaded before someone else's transition would
            # otherwise put the old status back (an approval silently undone by an unrelated edit).
            update_fields = kwargs.get("update_fields")
            if update_fields is None:
                deferred = self.get_deferred_fields()  # as Django does: save only what was loaded
                update_fields = [
                    f.name for f in self._meta.concrete_fields if not f.primary_key and f.attname not in deferred
                ]
            kwargs["update_fields"] = [name for name in update_fields if name != "status"]
            if not kwargs["update_fields"]:
                return
        super().save(*args, **kwargs)
        self._loaded_status = self.status

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)
        if fields is None or "status" in fields:
            self._loaded_status = self.__dict__.get("status")

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance._loaded_status = instance.__dict__.get("status")
        return instance


# A permit's last day, no last day meaning in effect for ever (the street map's "from today on").
IN_EFFECT_UNTIL = Coalesce("end_date", "expires_on", Value(date.max))


class Permit(NumberedRecord, StatusGuardedModel):
    detail_url_name = "permits:detail"

    kind = models.CharField(max_length=30, validators=[validate_kind])  # a type of the registry (permits.kinds)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT, editable=False)
    applicant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="permits")
    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, null=True, blank=True, related_name="permits"
    )
    street = models.ForeignKey(Street, on_delete=models.PROTECT, null=True, blank=True, related_name="permits")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, null=True, blank=True, related_name="permits")
    location_description = models.CharField(max_length=300, blank=True)
    work_description = models.TextField(blank=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    fee_code = models.SlugField(max_length=60, blank=True)
    fee_amount = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0.00"))
    fee_basis = models.CharField(max_length=300, blank=True, help_text="Fee item and effective date applied")
    # Chapter 167: what the Village keeps of the fee if the application is withdrawn or denied, fixed with the fee
    # when the application is submitted (the fee item's "kept when withdrawn or denied" then), as its amount is.
    fee_kept = models.DecimalField(
        "fee kept if withdrawn or denied",
        max_digits=10,
        decimal_places=2,
        default=Decimal("0.00"),
        editable=False,
    )
    public_token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True, editable=False)
    approved_on = models.DateField(null=True, blank=True, editable=False)
    issued_on = models.DateField(null=True, blank=True, editable=False)
    expires_on = models.DateField(null=True, blank=True)
    completed_on = models.DateField(null=True, blank=True, editable=False)
    closed_on = models.DateField(null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["kind", "status"]),
            models.Index(fields=["applicant", "-created_at"]),
            # Every permit list sorts by it (a sort of the whole table without it).
            models.Index(fields=["-created_at", "-id"], name="permit_created_at_idx"),
            models.Index(fields=["organization", "-created_at"], name="permit_org_created_idx"),
            # One permit type's list (the API's sidewalk permits, street openings), newest first.
            models.Index(fields=["kind", "-created_at", "-id"], name="permit_kind_created_idx"),
            # The time-to-issue report reads a year of issued permits, not a scan of every permit.
            models.Index(fields=["issued_on"], name="permit_issued_on_idx", condition=Q(issued_on__isnull=False)),
            # The street map's list and feeds: the approved, issued and active permits in effect from a day
            # on, read from one range of this index with the columns the list sorts by (an index-only scan), not
            # every such permit sorted: 13 -> 2 ms at 100,000 permits. The same statuses as streetmap's public ones.
            models.Index(
                IN_EFFECT_UNTIL,
                "start_date",
                "number",
                "id",
                "end_date",
                "expires_on",
                name="permit_in_effect_idx",
                condition=Q(status__in=["approved", "issued", "active"]),
            ),
            # The sidewalk inspectors' list counts the open sidewalk permits: a few thousand of 100,000.
            models.Index(
                fields=["id"],
                name="permit_open_sidewalk_idx",
                condition=Q(kind="sidewalk", status__in=["issued", "active"]),
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=Status.values), name="permit_status_known"),
            models.CheckConstraint(condition=Q(fee_amount__gte=0), name="permit_fee_not_negative"),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True)
                | Q(start_date__isnull=True)
                | Q(end_date__gte=models.F("start_date")),
                name="permit_end_not_before_start",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def get_public_url(self) -> str:
        return reverse("permits:public_status", args=[self.public_token])

    def get_kind_display(self) -> str:
        """What the permit's type is called: its registry record's label."""
        return kind_label(self.kind)

    @property
    def amount_paid(self) -> Decimal:
        # Uses the annotated value when the list query provided one, so lists stay at a fixed query count.
        annotated = getattr(self, "paid_total", None)
        if annotated is not None:
            return Decimal(annotated).quantize(Decimal("0.01"))  # SQLite hands sums back without their cents
        return self.paid_as_stored()

    @property
    def ended_without_permit(self) -> bool:
        """Withdrawn or denied: no permit was issued, so nothing more is owed (Chapter 167, § 303-4F(2))."""
        return self.status in ENDED_WITHOUT_PERMIT

    @property
    def balance_due(self) -> Decimal:
        return owed(self, self.amount_paid)[0]

    @property
    def refund_due(self) -> Decimal:
        return owed(self, self.amount_paid)[1]

    @property
    def amount_kept(self) -> Decimal:
        """What the Village keeps of the money paid on a withdrawn or denied application (Chapter 167)."""
        return min(self.fee_kept, self.amount_paid) if self.ended_without_permit else Decimal("0.00")

    def paid_as_stored(self) -> Decimal:
        """The payments as stored now, never a list's annotation (which may be stale): for the rules that refuse.
        A refunded or voided payment (permits.online_payments Refund, always of the whole payment) is not paid."""
        live = self.payments.filter(refunds__isnull=True)
        return live.aggregate(total=models.Sum("amount"))["total"] or Decimal("0.00")

    def balance_due_as_stored(self) -> Decimal:
        return owed(self, self.paid_as_stored())[0]

    def refund_due_as_stored(self) -> Decimal:
        return owed(self, self.paid_as_stored())[1]

    @property
    def status_badge_class(self) -> str:
        """The status badge's colour (templates/permits/_status.html says the same, for a status alone)."""
        return STATUS_BADGE_CLASS.get(self.status, "text-bg-primary")

    def next_deadline(self):
        """(label, date or None) the applicant should watch next; each permit type may say more on its own page."""
        if self.status in {Status.APPROVED, Status.ISSUED, Status.ACTIVE} and self.expires_on:
            return ("Permit expires", self.expires_on)
        if self.status == Status.APPROVED and self.balance_due:
            return ("Pay the fee to have the permit issued", None)
        if self.status in {Status.SUBMITTED, Status.UNDER_REVIEW}:
            return ("Awaiting the Village's review", None)
        if self.ended_without_permit and self.refund_due:
            return ("The Clerk-Treasurer refunds the fee paid", None)
        if self.status == Status.DRAFT:
            return ("Finish and submit the application", None)
        return ("", None)


# Chapter 167 / § 303-4F(2): an application withdrawn or denied ends without a permit; it owes nothing more, and
# what was paid and not kept under the fee schedule is refunded.
ENDED_WITHOUT_PERMIT = frozenset({Status.WITHDRAWN, Status.DENIED})


def owed(permit: Permit, paid: Decimal) -> tuple[Decimal, Decimal]:
    """(balance due, refund due) of `permit` with `paid` received and not refunded. Open, the balance is the fee not
    paid and nothing is refunded. Withdrawn or denied (Chapter 167), nothing is due and the refund is what was paid
    beyond what the Village keeps (the fee item's "kept when withdrawn or denied", fixed at submission). Every page,
    list, queue, the API and the refusals read the balance and the refund from here."""
    zero = Decimal("0.00")
    if permit.status in ENDED_WITHOUT_PERMIT:
        return zero, max(paid - permit.fee_kept, zero)
    return max(permit.fee_amount - paid, zero), zero


STATUS_BADGE_CLASS = {
    **dict.fromkeys([Status.DENIED, Status.REVOKED, Status.EXPIRED], "text-bg-danger"),
    **dict.fromkeys([Status.ISSUED, Status.ACTIVE, Status.APPROVED], "text-bg-success"),
    **dict.fromkeys([Status.DRAFT, Status.WITHDRAWN, Status.CLOSED], "text-bg-secondary"),
}


class PermitEvent(models.Model):
    """The permit's timeline: every status change (who, when, from, to, why) and every notable act."""

    class Kind(models.TextChoices):
        TRANSITION = "transition", "Status change"
        PAYMENT = "payment", "Payment"
        DOCUMENT = "document", "Document"
        NOTICE = "notice", "Notice"
        NOTE = "note", "Note"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.TRANSITION)
    from_status = models.CharField(max_length=20, choices=Status.choices, blank=True)
    to_status = models.CharField(max_length=20, choices=Status.choices, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)
    actor_label = models.CharField(max_length=200, help_text="Who acted, as shown on the timeline")
    at = models.DateTimeField()
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["permit", "at"])]

    def __str__(self) -> str:
        if self.kind == self.Kind.TRANSITION:
            return f"{self.permit}: {self.from_status or '-'} -> {self.to_status}"
        return f"{self.permit}: {self.get_kind_display()}"


class Payment(models.Model):
    """A payment recorded by the Clerk-Treasurer; each one gets a numbered receipt (§ 303-4F(2))."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHECK = "check", "Check"
        CARD = "card", "Card"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    method = models.CharField(max_length=10, choices=Method.choices)
    reference = models.CharField(max_length=60, blank=True, help_text="Check number or card reference")
    receipt_number = models.CharField(max_length=20, unique=True, editable=False)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    received_at = models.DateTimeField()
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-received_at"]
        indexes = [models.Index(fields=["-received_at"], name="payment_received_at_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(
                condition=Q(method="cash") | ~Q(reference=""), name="payment_check_or_card_has_reference"
            ),
            # § 303-4F(2): a check or card payment is recorded once on a permit (a form submitted twice gives one
            # receipt). Per permit, not Village-wide: every payer's checkbook has its own check 1042.
            models.UniqueConstraint(
                fields=["permit", "method", "reference"],
                condition=Q(method__in=["check", "card"]),
                name="payment_reference_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Receipt {self.receipt_number}: ${self.amount}"


def document_upload_to(instance: "Document", filename: str) -> str:
    # Stored under a generated name: the applicant's file name is kept only as data. A draft's file keeps its name
    # when the application is submitted and the document moves to the permit.
    folder = instance.permit_id if instance.permit_id else f"drafts/{instance.draft_id}"
    return f"documents/{folder}/{uuid.uuid4().hex}.{instance.extension}"


class DocumentQuerySet(models.QuerySet):
    def on_file(self):
        """The documents that count as filed: received or accepted; a rejected one must be replaced."""
        return self.exclude(review_status=Document.Review.REJECTED)


class Document(models.Model):
    class Kind(models.TextChoices):
        INSURANCE = "insurance", "Certificate of insurance"
        BOND = "bond", "Bond"
        INDEMNITY = "indemnity", "Indemnity agreement (§ 303-15G)"
        PLANS = "plans", "Plans"
        PHOTO = "photo", "Photo"
        OTHER = "other", "Other"

    class Review(models.TextChoices):
        RECEIVED = "received", "Received"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    # A document belongs to a permit, or, uploaded while applying, to the applicant's draft until it is submitted
    # (permits.applicant.applications moves it to the new permit in the submission's transaction).
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, null=True, blank=True, related_name="documents")
    draft = models.ForeignKey(
        "permits.ApplicationDraft", on_delete=models.CASCADE, null=True, blank=True, related_name="documents"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    file = models.FileField(upload_to=document_upload_to)
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=60)
    extension = models.CharField(max_length=5)
    size = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(auto_now_add=True)
    # The staff review of the document (permits.services.review_document, audited): written only there.
    review_status = models.CharField(
        max_length=10, choices=Review.choices, default=Review.RECEIVED, editable=False, db_index=True
    )
    review_reason = models.TextField(blank=True, editable=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    reviewed_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = DocumentQuerySet.as_manager()

    class Meta:
        ordering = ["uploaded_at"]
        constraints = [
            # A rejection always says why: the applicant reads the reason and uploads a new one.
            models.CheckConstraint(
                condition=~Q(review_status="rejected") | ~Q(review_reason=""), name="document_rejected_with_reason"
            ),
            # Exactly one owner: a permit's document, or a draft's (never both, never neither).
            models.CheckConstraint(
                condition=Q(permit__isnull=False, draft__isnull=True) | Q(permit__isnull=True, draft__isnull=False),
                name="document_on_permit_or_draft",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.original_name}"

    def get_absolute_url(self) -> str:
        if self.permit_id is None:
            return reverse("permits:draft_document", args=[self.draft_id, self.pk])
        return reverse("permits:document", args=[self.permit.number, self.pk])


class Notice(models.Model):
    """A notice the Village gives, kept on the record: emailed, or, to a recipient without an email address, a printed
    letter the Clerk-Treasurer mails. A notice is GIVEN only when it was emailed or mailed: a letter is "not yet
    given" until the clerk records the day it was mailed, and no deadline runs from it before then (§ 303-8B and
    every notice the Village must give; permits.letters)."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        MAIL = "mail", "Mailed letter"

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="notices", null=True, blank=True)
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    to = models.EmailField(blank=True)
    recipient_name = models.CharField(max_length=200, blank=True)
    mailing_address = models.TextField(blank=True)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    template = models.CharField(max_length=100)
    # The record the notice is about (a snow case, a special charge ...), whatever its model.
    record_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    record_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    record = GenericForeignKey("record_type", "record_id")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    mailed_on = models.DateField(null=True, blank=True, editable=False, help_text="The day the letter was mailed")
    mailed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["channel", "mailed_on", "created_at"]),
            models.Index(fields=["record_type", "record_id"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(channel="mail", mailed_on__isnull=False) | Q(mailed_on__isnull=True),
                name="notice_only_letters_are_mailed",
            ),
            models.CheckConstraint(
                condition=Q(channel="email") & ~Q(to="") | Q(channel="mail") & ~Q(mailing_address=""),
                name="notice_has_an_address",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} to {self.to or self.recipient_name}"

    @property
    def is_given(self) -> bool:
        """Emailed (handed to the mail server, or queued to it), or mailed on a recorded day. When it counts as given
        is permits.notices.given's one reading."""
        return self.channel == self.Channel.EMAIL or self.mailed_on is not None


class JobRun(models.Model):
    """One run of a scheduled job: the clerk sees when it ran, how far it got and what it did."""

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    name = models.CharField(max_length=100)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.RUNNING)
    items_total = models.PositiveIntegerField(default=0)
    items_done = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    # The process running it ("host:pid"): a later run of the same job tells a stopped worker's run from a live one.
    worker = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.name} at {self.started_at:%Y-%m-%d %H:%M}: {self.state}"


class StateChange(models.Model):
    """The audit row of a state change of a record other than a permit (a special charge, a sidewalk order, a snow or
    rubbish case, a tax-roll batch, an obstruction, a request the Board or the clerk decides): who, when, from, to
    and why. Written only by permits.state.change_state."""

    record_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    record_id = models.PositiveBigIntegerField()
    record = GenericForeignKey("record_type", "record_id")
    field = models.CharField(max_length=40, default="status")
    from_state = models.CharField(max_length=40)
    to_state = models.CharField(max_length=40)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)
    actor_label = models.CharField(max_length=200)
    at = models.DateTimeField()
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["record_type", "record_id", "at"])]

    def __str__(self) -> str:
        return f"{self.record_type.model} {self.record_id}: {self.from_state} -> {self.to_state}"


class Invitation(models.Model):
    """An organization manager's invitation to join its staff, accepted by the invitee while logged in with that
    verified email (permits/accounts/invitations.py). The form that sends it never says whether the email has an
    account."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(help_text="Stored lower-cased; matched against the accepting user's verified emails.")
    token = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "email"],
                condition=Q(accepted_at__isnull=True),
                name="invitation_one_pending_per_email",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.organization}"
