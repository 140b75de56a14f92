"""Street opening and excavation permits (§ 303-4, § 303-5, § 303-1C): the application's details and the records
its rules read (annual bonds, Diggers Hotline tickets, Board determinations, revocations, renewals)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from simple_history.models import HistoricalRecords

from permits.models.core import Organization, Payment, Permit, Street
from permits.models.shared_fields import board_motion
from permits.street_opening.field import models as field_models  # noqa: F401  (the field half's models)

AMOUNT = {"max_digits": 12, "decimal_places": 2}


class Surface(models.TextChoices):
    BITUMINOUS = "bituminous", "Bituminous (asphalt) pavement"
    CONCRETE = "concrete", "Concrete pavement"
    GRAVEL = "gravel", "Gravel"
    SIDEWALK = "sidewalk", "Sidewalk"
    TERRACE = "terrace", "Terrace or grass"


class TrafficControl(models.TextChoices):
    """§ 303-5B(3): how traffic is controlled when fewer than one lane each way is open."""

    NONE = "none", "None"
    FLAGMAN = "flagman", "Flagman"
    TEMPORARY_SIGNAL = "temporary_signal", "Temporary traffic signal"


class StreetOpening(models.Model):
    """The application of a street opening permit (§ 303-4B), one per Permit of kind street_opening."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="street_opening")
    method = models.TextField(help_text="How the work will be done (§ 303-4B)")
    surface = models.CharField(max_length=20, choices=Surface.choices)
    existing_pavement_inches = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    utility_interruption = models.BooleanField(
        default=False, help_text="Utility service to private properties will be interrupted (§ 303-5B(5))"
    )
    near_existing_patch = models.BooleanField(default=False, help_text="§ 303-5C(2)")
    nearby_openings = models.TextField(blank=True, help_text="Existing patches or other openings nearby (§ 303-5C(2))")
    map_latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    map_longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    # § 303-5H: an emergency already under way
    emergency = models.BooleanField(default=False)
    emergency_began_on = models.DateField(null=True, blank=True)
    late_filing_flagged_at = models.DateTimeField(null=True, blank=True, editable=False)
    # § 303-4G
    insurance_per_person = models.DecimalField(**AMOUNT)
    insurance_per_accident = models.DecimalField(**AMOUNT)
    insurance_property_damage = models.DecimalField(**AMOUNT)
    insurance_expires = models.DateField()
    # § 303-4H(3)/(5): the annual bond on file, or a bond for this permit uploaded as a document
    annual_bond = models.BooleanField(default=False)
    guarantee_bond_amount = models.DecimalField(
        **AMOUNT,
        null=True,
        blank=True,
        help_text="The amount of the bond filed for this permit, as the Clerk-Treasurer recorded it (§ 303-4H(3))",
    )
    # § 303-4H(1)
    statement_signed_by = models.CharField(max_length=200)
    statement_signed_at = models.DateTimeField()
    statement_undertakings = models.JSONField(default=list)
    # § 303-1C
    underground_utility = models.BooleanField(default=False)
    underground_depth_feet = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    plans_approved_at = models.DateTimeField(null=True, blank=True, editable=False)
    plans_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    # § 303-1C(7): emergency underground construction, approved by the DPW after the fact
    emergency_work_approved_at = models.DateTimeField(null=True, blank=True, editable=False)
    emergency_work_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    # § 303-5B(3): lanes kept open each way; a closure needs the DPW's approval and a flagman or temporary signal
    lanes_open_each_way = models.PositiveSmallIntegerField(
        default=1, help_text="Lanes of traffic kept open in each direction (§ 303-5B(3))"
    )
    traffic_control = models.CharField(
        max_length=20,
        choices=TrafficControl.choices,
        default=TrafficControl.NONE,
        help_text="Flagman or temporary traffic signal when no lane is open each way (§ 303-5B(3))",
    )
    lane_closure_approved_at = models.DateTimeField(null=True, blank=True, editable=False)
    lane_closure_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    # § 303-1C(2), § 303-5C(4): set by the DPW on approval
    dpw_conditions = models.TextField(blank=True)
    work_begun_on = models.DateField(null=True, blank=True, help_text="§ 303-4E: renewal only once work has begun")
    expiry_reminder_for = models.DateField(
        null=True, blank=True, editable=False, help_text="The expiry date the 5-day reminder was sent for"
    )
    # § 303-4D: the approval held until its 30 days cover the planned work (permits.street_opening.lifecycle)
    approval_held_until = models.DateField(
        null=True, blank=True, editable=False, help_text="The day the approval can come (§ 303-4D)"
    )
    approval_held_at = models.DateTimeField(null=True, blank=True, editable=False)
    approval_held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    # § 303-4D with § 303-5G: the right to open the street ended; the restoration duties run on
    opening_lapsed_on = models.DateField(
        null=True, blank=True, editable=False, help_text="The first day the street may no longer be opened (§ 303-4D)"
    )
    # § 303-4H(3): the permittee requests completion; the DPW confirms it (permits.street_opening.lifecycle)
    completion_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    completion_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    history = HistoricalRecords()

    class Meta:
        # The inspector's list reads the few permits whose completion is requested first
        indexes = [
            models.Index(
                fields=["completion_requested_at"],
                condition=Q(completion_requested_at__isnull=False),
                name="so_completion_requested_idx",
            ),
            # The held approvals queue reads the few held ones, soonest first
            models.Index(
                fields=["approval_held_until"],
                condition=Q(approval_held_until__isnull=False),
                name="so_approval_held_until_idx",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(insurance_per_person__gte=0)
                & Q(insurance_per_accident__gte=0)
                & Q(insurance_property_damage__gte=0),
                name="street_opening_insurance_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(existing_pavement_inches__isnull=True) | Q(existing_pavement_inches__gte=0),
                name="street_opening_pavement_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Street opening {self.permit.number}"

    @property
    def approval_can_come_on(self):
        """§ 303-4D: the first day an approval's 30 days cover the planned work (None without planned dates)."""
        from permits.street_opening import validity

        permit = self.permit
        if permit.start_date is None or permit.end_date is None:
            return None
        return validity.approval_can_come_on(start_date=permit.start_date, end_date=permit.end_date)

    @property
    def approval_can_come_later(self):
        """The day the approval can come when it is after today (§ 303-4D), for the applicant's page; else None."""
        from django.utils import timezone

        can_come = self.approval_can_come_on
        return can_come if can_come and can_come > timezone.localdate() else None


class AnnualBond(models.Model):
    """§ 303-4H(5): an annual bond covering all excavation work of its principal from January 1 to December 31."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, null=True, blank=True, related_name="annual_bonds"
    )
    principal_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="annual_bonds",
        help_text="An individual applicant, when the bond is not an organization's",
    )
    year = models.PositiveIntegerField()
    surety = models.CharField(max_length=200)
    bond_number = models.CharField(max_length=60, blank=True)
    amount = models.DecimalField(**AMOUNT)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-year"]
        constraints = [
            models.CheckConstraint(
                condition=Q(organization__isnull=False) | Q(principal_user__isnull=False),
                name="annual_bond_has_principal",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="annual_bond_amount_positive"),
            models.UniqueConstraint(fields=["organization", "year"], name="annual_bond_one_per_org_year"),
        ]

    def __str__(self) -> str:
        return f"{self.year} annual bond of {self.organization or self.principal_user} ({self.surety})"


class BondAmount(models.Model):
    """The amount of a bond "determined by the Village Board" (§ 303-4H(3) guarantee bond, § 303-4H(5) annual
    bond), set by a recorded Board motion, in force from `effective_from` through `effective_until` (inclusive; open
    while blank). A bond below the amount in force does not count."""

    class Kind(models.TextChoices):
        GUARANTEE = "guarantee", "Guarantee or surety bond for one permit (§ 303-4H(3))"
        ANNUAL = "annual", "Annual bond (§ 303-4H(5))"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.DecimalField(**AMOUNT)
    effective_from = models.DateField()
    effective_until = models.DateField(null=True, blank=True, help_text="The last day in force (inclusive)")
    motion = models.ForeignKey("permits.Motion", on_delete=models.PROTECT, related_name="bond_amounts")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["kind", "-effective_from"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="bond_amount_positive"),
            models.CheckConstraint(
                condition=Q(effective_until__isnull=True) | Q(effective_until__gte=models.F("effective_from")),
                name="bond_amount_until_after_from",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: ${self.amount:,.2f} from {self.effective_from:%Y-%m-%d}"


class DiggersTicket(models.Model):
    """Wis. Stat. § 182.0175: one Diggers Hotline locate ticket per contractor; entered by the applicant until an
    inspector verifies it."""

    street_opening = models.ForeignKey(StreetOpening, on_delete=models.PROTECT, related_name="tickets")
    contractor = models.CharField(max_length=200, help_text="The excavator the ticket was requested for")
    number = models.CharField(max_length=40)
    requested_at = models.DateTimeField()
    legal_start = models.DateField()
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entered_at"]
        constraints = [
            models.UniqueConstraint(fields=["street_opening", "number"], name="diggers_ticket_unique_per_permit"),
            models.UniqueConstraint(fields=["street_opening", "contractor"], name="diggers_ticket_one_per_contractor"),
        ]

    def __str__(self) -> str:
        return f"Diggers Hotline ticket {self.number}"

    @property
    def verification_label(self) -> str:
        return "verified by an inspector" if self.verified_at else "entered by applicant"


class EmergencyDetermination(models.Model):
    """§ 303-5A: the Board or its designee determined a winter opening to be an emergency excavation."""

    street_opening = models.OneToOneField(
        StreetOpening, on_delete=models.PROTECT, related_name="emergency_determination"
    )
    determined_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    determined_at = models.DateTimeField()
    reason = models.TextField()
    motion = board_motion(help_text="The Board's motion, when the Board determined it (blank: its designee did)")

    def __str__(self) -> str:
        return f"Emergency determination for {self.street_opening.permit.number}"


class StreetImprovement(models.Model):
    """§ 303-5I: the Board's decision to permanently improve or repave a street, and when the repaving was done."""

    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="improvements")
    description = models.CharField(max_length=300)
    decided_on = models.DateField(help_text="Date of the Board's determination")
    work_begins_on = models.DateField(help_text="At least 30 days after the decision (§ 303-5I)")
    repaved_on = models.DateField(null=True, blank=True, help_text="Starts the five-year moratorium")
    notices_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-decided_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(work_begins_on__gt=models.F("decided_on")), name="street_improvement_work_after_decision"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.street}: {self.description} (decided {self.decided_on})"


class MoratoriumException(models.Model):
    """§ 303-5I: the Board or its designee records why opening a repaved street is absolutely essential."""

    street_opening = models.OneToOneField(StreetOpening, on_delete=models.PROTECT, related_name="moratorium_exception")
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    granted_at = models.DateTimeField()
    reason = models.TextField()
    motion = board_motion(help_text="The Board's motion, when the Board found it essential (blank: its designee did)")

    def __str__(self) -> str:
        return f"Moratorium exception for {self.street_opening.permit.number}"


class ApplicantRevocation(models.Model):
    """§ 303-4H(2): the right to obtain street opening permits revoked for one year (deficiencies not corrected)."""

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, null=True, blank=True, related_name="revocations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="revocations"
    )
    permit = models.ForeignKey(
        Permit,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The permit whose deficiencies were not corrected",
    )
    revoked_on = models.DateField()
    until = models.DateField(help_text="The day the right returns (§ 303-4H(2))")
    reason = models.TextField()
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True, editable=False)
    bound_users = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="+",
        help_text="§ 303-4H(2): the people the revocation also binds (the organization's staff when it was revoked, "
        "and who applied for the permit): they cannot apply in their own names or for another organization",
    )

    class Meta:
        ordering = ["-revoked_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(organization__isnull=False) | Q(user__isnull=False), name="revocation_has_subject"
            ),
            models.CheckConstraint(condition=Q(until__gt=models.F("revoked_on")), name="revocation_until_after_start"),
        ]

    def __str__(self) -> str:
        return f"Revocation of {self.organization or self.user} until {self.until}"


class RenewalRequest(models.Model):
    """§ 303-4E: the permittee's written request for a thirty-day renewal, granted or refused by the Clerk-Treasurer
    or the Director of Public Works."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        GRANTED = "granted", "Granted"
        REFUSED = "refused", "Refused"

    street_opening = models.ForeignKey(StreetOpening, on_delete=models.PROTECT, related_name="renewal_requests")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    work_begun_on = models.DateField(help_text="§ 303-4E: operations have begun under the permit")
    reason = models.TextField(help_text="Why the operations will continue beyond the validity (§ 303-4E)")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-requested_at"]
        indexes = [models.Index(fields=["state", "requested_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["street_opening"], condition=Q(state="pending"), name="renewal_request_one_pending"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "granted", "refused"]), name="renewal_request_state_known"
            ),
        ]

    def __str__(self) -> str:
        return f"Renewal request for {self.street_opening.permit.number} ({self.get_state_display().lower()})"


class Renewal(models.Model):
    """§ 303-4E: a 30-day renewal granted by the Clerk-Treasurer or the DPW, with its renewal fee. It takes effect
    (the permit's validity moves to new_expires_on) once the renewal fee is paid."""

    street_opening = models.ForeignKey(StreetOpening, on_delete=models.PROTECT, related_name="renewals")
    previous_expires_on = models.DateField()
    new_expires_on = models.DateField()
    work_begun_on = models.DateField()
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    granted_at = models.DateTimeField()
    note = models.TextField(blank=True)
    request = models.OneToOneField(
        RenewalRequest, on_delete=models.PROTECT, null=True, blank=True, related_name="renewal", editable=False
    )
    took_effect_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When the renewal fee was paid and the validity moved"
    )

    class Meta:
        ordering = ["granted_at"]
        constraints = [
            models.UniqueConstraint(fields=["street_opening", "previous_expires_on"], name="renewal_once_per_period"),
        ]

    def __str__(self) -> str:
        return f"Renewal of {self.street_opening.permit.number} to {self.new_expires_on}"


class EmergencyReport(models.Model):
    """§ 303-5H: the Village office told at once of emergency work begun without a permit; the application is due
    by the next business day and is flagged to the Clerk-Treasurer when it is not filed."""

    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reported_by_name = models.CharField(max_length=200)
    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="+")
    location_description = models.CharField(max_length=300)
    began_on = models.DateField()
    reported_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    flagged_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-reported_at"]

    def __str__(self) -> str:
        return f"Emergency on {self.street} reported {self.reported_at:%Y-%m-%d}"


@receiver(post_save, sender=Payment, dispatch_uid="street_opening_paid_renewals")
def _renewal_takes_effect_when_paid(sender, instance, created, **kwargs):
    """§ 303-4E: a granted renewal takes effect once the renewal fee is paid (whatever path recorded the payment)."""
    if created and instance.permit.kind == "street_opening":
        from permits.street_opening import lifecycle

        lifecycle.apply_paid_renewals(instance.permit)
