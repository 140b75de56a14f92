"""What the ledger brings to the office reports (permits.reports.queries): the special charges not paid."""

from __future__ import annotations

from datetime import date

from django.db.models import DateField, QuerySet
from django.db.models.functions import Coalesce

from permits.ledger.models import SpecialCharge
from permits.reports.queries import grouped_by_age


def open_special_charges(today: date) -> QuerySet:
    """Wis. Stat. § 66.0627: special charges not paid (billed, delinquent, certified or on the roll, or awaiting their
    hearing), by days since billed (since incurred when not billed yet), with their amounts."""
    paid = [SpecialCharge.Status.PAID, SpecialCharge.Status.PAID_ON_ROLL]
    qs = SpecialCharge.objects.exclude(status__in=paid).annotate(
        opened_on=Coalesce("billed_on", "incurred_on", output_field=DateField())
    )
    return grouped_by_age(
        qs, "Special charges unpaid (Wis. Stat. § 66.0627)", "opened_on", today, instant=False, amount="amount"
    )


OPEN_CASES = (open_special_charges,)
