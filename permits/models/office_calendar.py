"""The Village office's closure calendar (§ 303-5F, § 303-5H business days), kept by the Clerk-Treasurer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords


class OfficeClosure(models.Model):
    """A weekday the Village office is closed, so not a business day under Chapter 303.

    Rows come from Wis. Stat. § 995.20 (seeded for the coming years by a migration and a yearly job) or are added
    by the Clerk-Treasurer (e.g. the day after Thanksgiving). A day the office opens after all keeps its row with
    `closed` unticked: the calendar is a public record and its changes stay in its history."""

    class Source(models.TextChoices):
        STATUTE = "statute", "Legal holiday (Wis. Stat. § 995.20)"
        CLERK = "clerk", "Added by the Clerk-Treasurer"

    day = models.DateField(unique=True)
    name = models.CharField(max_length=120)
    closed = models.BooleanField(
        default=True, help_text="Untick when the office is open that day after all (it is then a business day)."
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.CLERK, editable=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    recorded_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["day"]
        verbose_name = "office closure"

    def __str__(self) -> str:
        return f"{self.day:%A, %B %-d, %Y}: {self.name}" + ("" if self.closed else " (office open)")


class VillageOffice(models.Model):
    """Where and when to reach the Village office (address, phone, email, opening hours): one record the
    Clerk-Treasurer keeps, shown on every page that sends a person to the office
    (templates/permits/_village_office.html). One row only (the constraint), read with
    `permits.village_office.office_facts()`."""

    address = models.CharField(max_length=200)
    phone = models.CharField(max_length=30, blank=True)
    email = models.EmailField(blank=True)
    hours = models.TextField(
        "opening hours", blank=True, help_text="One line a day or a range of days, e.g. Monday to Friday, 8 am to 4 pm"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = "Village office"
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="village_office_one_row")]

    def __str__(self) -> str:
        return self.address

    @property
    def phone_link(self) -> str:
        """The phone as a tel: address (digits and a leading +1), for the link a phone dials."""
        digits = "".join(c for c in self.phone if c.isdigit())
        return f"tel:+1{digits[-10:]}" if digits else ""

    @property
    def hour_lines(self) -> list[str]:
        return [line.strip() for line in self.hours.splitlines() if line.strip()]
