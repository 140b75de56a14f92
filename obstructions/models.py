"""Enforcement cases of Chapter 303 (one shape for all of them) and the official street numbers (§ 303-14A).

A case is against a parcel: what was seen, where, when, its photos and its section; then the written notice to the
person the section names, served how and when, with its deadline; a re-inspection; then compliance, the Village's
abatement with its cost (a special charge through permits.ledger), or a forfeiture referral (Chapter 1, § 1-5).
Its status changes only through obstructions.services (permits.state.change_state: who, when, from, to, why); its other
steps are CaseStep rows. This app imports the core from permits/, never the other way round.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from obstructions.registers.models import (  # noqa: F401  (the Clerk-Treasurer's registers, one app)
    Grade,
    GradeApplication,
    HigherStandard,
    ImprovementRequest,
)
from permits.models import Parcel, Street
from permits.models.shared_fields import NumberedRecord


class Case(NumberedRecord):
    class Kind(models.TextChoices):
        OBSTRUCTION_SIDEWALK = "obstruction_sidewalk", "Sidewalk obstruction or encroachment (§ 303-6D)"
        OBSTRUCTION_STREET = "obstruction_street", "Street, alley or public-ground obstruction (§ 303-6E)"
        TERRACE = "terrace", "Terrace (§ 303-9)"
        DUMPING = "dumping", "Unlawful dumping (§ 303-12)"
        DRAINAGE = "drainage", "Obstruction of drainage (§ 303-13)"
        STREET_NUMBER = "street_number", "Street number not displayed (§ 303-14)"

    class Status(models.TextChoices):
        OPEN = "open", "Open: notice not yet served"
        NOTICED = "noticed", "Notice served"
        COMPLIED = "complied", "Complied"
        ABATED = "abated", "Removed by the Village"
        REFERRED = "referred", "Referred for a forfeiture"
        EXCEPTED = "excepted", "Closed: excepted or no violation"

    class Via(models.TextChoices):
        STAFF = "staff", "Village staff"
        PUBLIC = "public", "Public complaint form"

    class ServedHow(models.TextChoices):
        PERSONAL = "personal", "Handed to the person"
        POSTED = "posted", "Posted on the premises"
        MAIL = "mail", "Mailed"
        EMAIL = "email", "Emailed"

    class Attention(models.TextChoices):
        NONE = "", "Nothing due"
        PAST_DEADLINE = "past_deadline", "Deadline passed: re-inspect"
        NOTICE_DUE = "notice_due", "20 days of neglect have run: serve the notice (§ 303-14C)"
        REFERRAL_DUE = "referral_due", "10 days after service have run: refer or close (§ 303-14C)"

    detail_url_name = "obstructions:case"

    kind = models.CharField(max_length=30, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN, editable=False)
    attention = models.CharField(max_length=20, choices=Attention.choices, blank=True, default="", editable=False)
    parcel = models.ForeignKey(
        Parcel, on_delete=models.PROTECT, related_name="enforcement_cases", null=True, blank=True
    )
    reported_address = models.CharField(max_length=200)
    what = models.CharField("what was seen", max_length=500)
    where = models.CharField("where exactly", max_length=200, blank=True)
    seen_at = models.DateTimeField("when seen")
    via = models.CharField(max_length=10, choices=Via.choices, default=Via.STAFF, editable=False)
    reporter_contact = models.CharField(max_length=200, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    opened_at = models.DateTimeField(editable=False)
    # The findings the section's rule reads (obstructions.rules), kept as measured in the field.
    excepting_permit = models.CharField("permit number that excepts it", max_length=30, blank=True)
    clear_width_feet = models.DecimalField(
        "unobstructed sidewalk left (ft)", max_digits=5, decimal_places=1, null=True, blank=True
    )
    detail = models.CharField(max_length=40, blank=True, help_text="The condition, place or drainage way found")
    permission_from = models.CharField(max_length=10, blank=True, help_text="§ 303-12: owner or occupant, recorded")
    permission_note = models.CharField(max_length=300, blank=True)
    neglect_recorded_on = models.DateField("neglect first recorded on", null=True, blank=True)
    # The notice (§ 303-6D/E, § 303-9C, § 303-14C): to whom, how, when, and its deadline.
    served_to = models.CharField(max_length=10, blank=True, editable=False)
    served_name = models.CharField(max_length=200, blank=True, editable=False)
    served_how = models.CharField(max_length=10, choices=ServedHow.choices, blank=True, editable=False)
    served_at = models.DateTimeField(null=True, blank=True, editable=False)
    deadline_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The days the official gave (§§ 303-9, 303-12, 303-13): kept so a mailed notice's deadline is counted from its
    # mailing, when the clerk records it.
    notice_days = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    abatement_cost = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-opened_at"]
        indexes = [
            models.Index(fields=["status", "-opened_at"]),
            models.Index(fields=["status", "deadline_at"]),
            models.Index(fields=["kind", "status"]),
            models.Index(fields=["-opened_at", "-id"], name="case_opened_at_idx"),  # the staff search's order
            models.Index(  # the queue of open cases, most urgent first (obstructions.views.cases)
                fields=["-attention", "deadline_at", "id"],
                name="case_queue_idx",
                condition=Q(status__in=["open", "noticed"]),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(deadline_at__isnull=True) | Q(deadline_at__gt=F("served_at")),
                name="case_deadline_after_service",
            ),
            models.CheckConstraint(
                condition=Q(abatement_cost__isnull=True) | Q(abatement_cost__gte=0), name="case_cost_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(clear_width_feet__isnull=True) | Q(clear_width_feet__gte=0), name="case_width_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.reported_address}"

    @property
    def section(self) -> str:
        return SECTIONS[self.kind]

    @property
    def is_closed(self) -> bool:
        return self.status in CLOSED


SECTIONS = {
    Case.Kind.OBSTRUCTION_SIDEWALK: "§ 303-6D",
    Case.Kind.OBSTRUCTION_STREET: "§ 303-6E",
    Case.Kind.TERRACE: "§ 303-9",
    Case.Kind.DUMPING: "§ 303-12",
    Case.Kind.DRAINAGE: "§ 303-13",
    Case.Kind.STREET_NUMBER: "§ 303-14C",
}
CLOSED = frozenset({Case.Status.COMPLIED, Case.Status.ABATED, Case.Status.REFERRED, Case.Status.EXCEPTED})


class CaseStep(models.Model):
    """One step on a case's timeline that is not a change of status (a photo, a re-inspection, a note)."""

    class Kind(models.TextChoices):
        PHOTO = "photo", "Photo"
        REINSPECTION = "reinspection", "Re-inspection"
        NOTE = "note", "Note"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="steps")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    by_label = models.CharField(max_length=200)
    note = models.CharField(max_length=500, blank=True)
    photo = models.FileField(upload_to="case-photos/%Y/", blank=True)
    photo_type = models.CharField(max_length=50, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["case", "at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.case.number}"


class StreetNumber(models.Model):
    """§ 303-14A: the official street number the Clerk-Treasurer assigned to a principal building, from the numbering
    map on file in the clerk's office."""

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="street_numbers")
    building = models.CharField(max_length=100, default="Principal building")
    street = models.ForeignKey(Street, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField()
    suffix = models.CharField(max_length=4, blank=True, help_text="A, B, 1/2 ... where the map gives one")
    map_reference = models.CharField("numbering map sheet or grid", max_length=100)
    assigned_on = models.DateField(editable=False)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", editable=False
    )

    class Meta:
        ordering = ["street__name", "number", "suffix"]
        constraints = [
            models.UniqueConstraint(fields=["street", "number", "suffix"], name="street_number_unique_on_street"),
            models.UniqueConstraint(fields=["parcel", "building"], name="street_number_one_per_building"),
        ]

    def __str__(self) -> str:
        return f"{self.number}{self.suffix} {self.street.name}"


class MaterialsAuthorization(NumberedRecord):
    """§ 303-6B(2): the Building Inspector's authorization to keep building materials on a street or sidewalk for a
    period, without a § 303-7 street privilege permit. Excepted from § 303-6A only on the dates it names, on at most
    1/2 of the sidewalk and 1/3 of the traveled street (the street register's widths, copied here as checked), with
    the gutters flowing. Written by obstructions.materials only; never changed afterwards (a new period is a new
    authorization)."""

    detail_url_name = "obstructions:materials"

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+", help_text="Where the building is")
    location_description = models.CharField(max_length=300)
    building_permit_number = models.CharField(max_length=40, blank=True, help_text="The Chapter 132 building permit")
    starts_on = models.DateField()
    ends_on = models.DateField()
    occupied_street_feet = models.DecimalField(max_digits=5, decimal_places=1)
    occupied_sidewalk_feet = models.DecimalField(max_digits=4, decimal_places=1)
    gutter_kept_flowing = models.BooleanField()
    # The street register's widths the limits were checked against (§ 303-6B(2)), as they were that day.
    traveled_width_feet = models.DecimalField(max_digits=5, decimal_places=1)
    sidewalk_width_feet = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    authorized_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    authorized_at = models.DateTimeField()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        indexes = [models.Index(fields=["parcel", "starts_on", "ends_on"])]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="materials_period_in_order"),
            # § 303-6B(2): "not ... more than 1/3 of the traveled portion of the street"
            models.CheckConstraint(
                condition=Q(occupied_street_feet__gte=0, traveled_width_feet__gte=F("occupied_street_feet") * 3),
                name="materials_third_of_traveled_street",
            ),
            # § 303-6B(2): "not ... more than 1/2 of the sidewalk"
            models.CheckConstraint(
                condition=Q(occupied_sidewalk_feet=0)
                | Q(occupied_sidewalk_feet__gt=0, sidewalk_width_feet__gte=F("occupied_sidewalk_feet") * 2),
                name="materials_half_of_sidewalk",
            ),
            models.CheckConstraint(condition=Q(gutter_kept_flowing=True), name="materials_gutter_flowing"),
        ]

    def __str__(self) -> str:
        return f"{self.number}: building materials at {self.location_description}"

    def get_absolute_url(self) -> str:
        return f"{reverse(self.detail_url_name)}#{self.number}"  # one row of the register page
