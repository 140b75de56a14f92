"""Street use permits (§ 303-15): the application's seven items, the petition's area, roster and signatures, the
applicant's appearance before the Board, the Board's conditions and a termination (§ 303-15H).

The Village keeps no register of adult residents: the petition itself declares, address by address along the portion
(from the parcel roll), the residents over 18, and each consent is verified (a code sent to the household's email,
or a paper page with its circulator's sworn verification that the Clerk-Treasurer accepts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property
from simple_history.models import HistoricalRecords

from permits.board.models import AgendaItem
from permits.models.core import Parcel, Permit
from permits.models.shared_fields import board_motion
from permits.streetmap.models import StreetSegment


class StreetUse(models.Model):
    """The application of a street use permit (§ 303-15B), one per Permit of kind street_use. The street, the portion
    (Permit.location_description) and the proposed use (Permit.work_description) are on the Permit."""

    permit = models.OneToOneField(Permit, on_delete=models.PROTECT, related_name="street_use")
    # § 303-15B(1)
    applicant_name = models.CharField(max_length=200)
    applicant_address = models.CharField(max_length=300)
    applicant_phone = models.CharField(max_length=40)
    # § 303-15B(2), for a use by or for an organization
    organization_name = models.CharField(max_length=200, blank=True)
    organization_address = models.CharField(max_length=300, blank=True)
    organization_phone = models.CharField(max_length=40, blank=True)
    organization_heads = models.TextField(blank=True, help_text="Names, addresses and telephones of its heads")
    # § 303-15B(3)
    responsible_name = models.CharField(max_length=200)
    responsible_address = models.CharField(max_length=300)
    responsible_phone = models.CharField(max_length=40)
    # § 303-15B(4), (6)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    expected_attendance = models.PositiveIntegerField()
    # § 303-15F: the area the petition designates (the clerk's form names it): its roster comes from these segments
    segments = models.ManyToManyField(StreetSegment, blank=True, related_name="street_uses")
    petition_verified_at = models.DateTimeField(null=True, blank=True, editable=False)
    petition_verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    petition_counted = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # the adults declared along the portion when the petition was verified (§ 303-15F)
    petition_roster_size = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # § 303-15C, § 303-15G: what the Board decided
    decision_motion = board_motion(editable=False)
    conditions = models.TextField(blank=True, editable=False)
    requires_indemnity = models.BooleanField(default=False, editable=False)
    requires_insurance = models.BooleanField(default=False, editable=False)
    requires_bond = models.BooleanField(default=False, editable=False)
    # § 303-15H
    terminated_at = models.DateTimeField(null=True, blank=True, editable=False)
    terminated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    terminated_by_label = models.CharField(max_length=200, blank=True, editable=False)
    termination_reason = models.TextField(blank=True, editable=False)
    history = HistoricalRecords(excluded_fields=["segments"])

    class Meta:
        # The events in progress list reads the few events not over yet, not every street use
        indexes = [models.Index(fields=["ends_at"], name="street_use_ends_at_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="street_use_ends_after_start"),
        ]

    def __str__(self) -> str:
        return f"Street use {self.permit.number}"

    def get_absolute_url(self) -> str:
        return self.permit.get_absolute_url()

    @cached_property
    def petition(self):
        """§ 303-15F: the petition's count today (permits.street_use.services.petition_count)."""
        from permits.street_use.services import petition_count

        return petition_count(self)

    @property
    def is_terminated(self) -> bool:
        return self.terminated_at is not None

    @property
    def required_guarantees(self) -> set[str]:
        return {
            kind
            for kind, wanted in (
                ("indemnity", self.requires_indemnity),
                ("insurance", self.requires_insurance),
                ("bond", self.requires_bond),
            )
            if wanted
        }


class PetitionAddress(models.Model):
    """§ 303-15F: an address along the petition's portion, from the parcel roll: the parcel, and its unit when the
    parcel holds more than one dwelling. The petition declares how many residents over 18 live there (as on the
    paper form); until it does, the address blocks the count. The Village keeps no register of residents, so the
    declarations are the denominator."""

    street_use = models.ForeignKey(StreetUse, on_delete=models.PROTECT, related_name="addresses")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+")
    unit = models.CharField(max_length=20, blank=True, help_text="Apartment or unit; empty for a single dwelling")
    adults_declared = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    declared_by_label = models.CharField(max_length=300, blank=True, editable=False)
    declared_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["parcel__site_address", "unit"]
        verbose_name = "petition address (§ 303-15F)"
        verbose_name_plural = "petition addresses (§ 303-15F)"
        constraints = [
            models.UniqueConstraint(fields=["street_use", "parcel", "unit"], name="petition_address_once"),
        ]

    def __str__(self) -> str:
        return f"{self.parcel.site_address}, {self.unit}" if self.unit else self.parcel.site_address


class HouseholdContact(models.Model):
    """§ 303-15F: an email address the Clerk-Treasurer bound to a household on the petition (from the household's
    own declaration, at the counter or on the paper form). An online consent is verified by a code sent to it."""

    address = models.ForeignKey(PetitionAddress, on_delete=models.PROTECT, related_name="contacts")
    email = models.EmailField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["address", "email"], name="household_contact_once")]

    def __str__(self) -> str:
        return f"{self.email} ({self.address})"


class PetitionPage(models.Model):
    """§ 303-15F: a page of the paper petition, uploaded (a Document of the permit) with its circulator's sworn
    verification. Its consents count once the Clerk-Treasurer accepts the page."""

    street_use = models.ForeignKey(StreetUse, on_delete=models.PROTECT, related_name="pages")
    document = models.OneToOneField("permits.Document", on_delete=models.PROTECT, related_name="petition_page")
    circulator_name = models.CharField(max_length=200)
    sworn_on = models.DateField(help_text="The date of the circulator's sworn verification on the page")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    accepted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["uploaded_at", "pk"]

    def __str__(self) -> str:
        return f"Petition page {self.pk} (circulator {self.circulator_name})"


class PetitionSignature(models.Model):
    """A consent on a street use petition (§ 303-15F), at an address along the portion: online, verified by a code
    sent to an email bound to that household, or on an uploaded paper page, verified once the clerk accepts the
    page and its circulator's sworn verification."""

    class Method(models.TextChoices):
        ONLINE = "online", "Online, code sent to the household's email"
        PAPER = "paper", "Paper page with the circulator's sworn verification"

    street_use = models.ForeignKey(StreetUse, on_delete=models.PROTECT, related_name="signatures")
    address = models.ForeignKey(PetitionAddress, on_delete=models.PROTECT, related_name="signatures")
    page = models.ForeignKey(PetitionPage, on_delete=models.PROTECT, null=True, blank=True, related_name="signatures")
    signer_name = models.CharField(max_length=200)
    signer_key = models.CharField(max_length=200, editable=False, help_text="The name, case and spaces folded")
    signer_email = models.EmailField(blank=True)
    method = models.CharField(max_length=10, choices=Method.choices)
    signed_at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["signed_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["address", "signer_key"], name="petition_signer_once_per_address"),
            models.UniqueConstraint(
                fields=["street_use", "signer_email"], condition=~Q(signer_email=""), name="petition_email_once"
            ),
            models.CheckConstraint(
                condition=Q(method="online", page__isnull=True) | Q(method="paper", page__isnull=False),
                name="petition_signature_proof",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.signer_name} ({self.get_method_display().lower()})"

    @property
    def is_verified(self) -> bool:
        return self.method == self.Method.ONLINE or (self.page is not None and self.page.accepted_at is not None)


class ConsentCode(models.Model):
    """A one-time code sent to a household's email to verify an online consent (§ 303-15F). Only its hash is kept;
    it expires, and a code takes a few wrong tries at most (permits.street_use.services)."""

    address = models.ForeignKey(PetitionAddress, on_delete=models.CASCADE, related_name="codes")
    email = models.EmailField()
    signer_name = models.CharField(max_length=200)
    adults_declared = models.PositiveSmallIntegerField(null=True, blank=True)
    code_hash = models.CharField(max_length=128)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["email", "created_at"], name="consent_code_sent_idx")]

    def __str__(self) -> str:
        return f"Code for {self.email} ({self.address})"


class BoardAppearance(models.Model):
    """§ 303-15C: the applicant or the group's representative recorded present when the Board considered the
    application (one per agenda item)."""

    class Capacity(models.TextChoices):
        APPLICANT = "applicant", "The applicant"
        REPRESENTATIVE = "representative", "A representative of the group"

    street_use = models.ForeignKey(StreetUse, on_delete=models.PROTECT, related_name="appearances")
    item = models.OneToOneField(AgendaItem, on_delete=models.PROTECT, related_name="street_use_appearance")
    name = models.CharField(max_length=200)
    capacity = models.CharField(max_length=20, choices=Capacity.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} ({self.get_capacity_display().lower()}) at {self.item}"
