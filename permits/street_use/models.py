"""Street use permits (§ 303-15): the application's seven items, the petition's area, roster and signatures, the
applicant's appearance before the Board, the Board's conditions and a termination (§ 303-15H).

The register of adult residents (`RegisteredResident`) is the Village's record the petition's roster comes from; the
Clerk-Treasurer keeps it and nobody else sees it (it holds birth dates)."""

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


class RegisteredResident(models.Model):
    """A resident of a parcel, on the register the Clerk-Treasurer keeps for § 303-15F petitions: a birth date, or the
    clerk's attestation that the resident is 18 or over. Not public."""

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="registered_residents")
    name = models.CharField(max_length=200)
    birth_date = models.DateField(null=True, blank=True)
    attested_adult = models.BooleanField("18 or over (attested)", default=False)
    email = models.EmailField(blank=True, help_text="Optional: an online signature from it matches this resident")
    resides_until = models.DateField(null=True, blank=True, help_text="Moved out: the last day of residence")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["parcel__site_address", "name"]
        verbose_name = "registered resident (§ 303-15F)"
        constraints = [
            models.CheckConstraint(
                condition=Q(birth_date__isnull=False) | Q(attested_adult=True),
                name="registered_resident_age_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}, {self.parcel.site_address}"


class PetitionSignature(models.Model):
    """A signature on a street use petition (§ 303-15F): online, from an email address verified by a signed one-time
    link, or from a printed sheet the clerk enters. It counts only when matched to an adult on the roster."""

    class Method(models.TextChoices):
        ONLINE = "online", "Online, email verified"
        PAPER = "paper", "Printed sheet, entered by the clerk"

    street_use = models.ForeignKey(StreetUse, on_delete=models.PROTECT, related_name="signatures")
    resident = models.ForeignKey(
        RegisteredResident, on_delete=models.PROTECT, null=True, blank=True, related_name="signatures"
    )
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    signer_name = models.CharField(max_length=200)
    signer_email = models.EmailField(blank=True)
    method = models.CharField(max_length=10, choices=Method.choices)
    signed_at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["signed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["street_use", "resident"], condition=Q(resident__isnull=False), name="petition_resident_once"
            ),
            models.UniqueConstraint(
                fields=["street_use", "signer_email"], condition=~Q(signer_email=""), name="petition_email_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.signer_name} ({self.get_method_display().lower()})"


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
