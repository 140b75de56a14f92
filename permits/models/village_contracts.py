"""The Village's contracts for street and sidewalk work, kept by the Clerk-Treasurer (§ 303-3C)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from permits.models.core import Organization, Parcel
from permits.models.shared_fields import board_motion


class VillageContract(models.Model):
    """§ 303-3C: "unless he is under contract with the Village to do such work": a contract the Village let, as the
    Clerk-Treasurer's register records it (its number, the contractor, the work, the parcels it covers and its term).
    A sidewalk permit filed as the Village's contractor is accepted only on a contract here that covers the parcel on
    the day (permits.village_contracts.contract_errors); no applicant's statement stands for one."""

    number = models.CharField(max_length=40, unique=True, help_text="The contract's number in the Village's files")
    contractor = models.CharField(max_length=200, help_text="The contractor, as named in the contract")
    organization = models.ForeignKey(
        Organization,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The contractor's company account, when it has one (its filings are then matched to it)",
    )
    work = models.CharField(max_length=300, help_text="The work contracted, as the contract describes it")
    parcels = models.ManyToManyField(Parcel, related_name="+", help_text="The parcels whose walks it covers")
    starts_on = models.DateField()
    ends_on = models.DateField(help_text="The last day of its term (inclusive)")
    motion = board_motion(help_text="The Board's motion awarding it, where the Board let it")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts_on", "number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="village_contract_ends_after_it_starts"
            ),
            models.CheckConstraint(condition=~Q(number=""), name="village_contract_has_a_number"),
        ]

    def __str__(self) -> str:
        return f"Contract {self.number}: {self.contractor}, {self.work}"
