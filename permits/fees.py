"""Chapter 167 fees as data: look up the amount in force on a day."""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from permits.errors import Violation
from permits.models import FeeItem
from permits.readings import Reading

READINGS = [
    Reading(
        "Chapter 167, Fees; § 303-4F(2)",
        "Fees",
        "A withdrawn or denied application owes nothing: no payment is taken on it, at the counter or online. Of "
        'what was paid, the Village keeps only a fee the fee schedule marks "kept when withdrawn or denied" (as '
        "the item read when the application was submitted, as its amount is), and never more than was paid; the "
        "rest is refunded by the Clerk-Treasurer, one receipt at a time. Costs the Village adds to a permit later "
        "(Village expenses, a renewal fee) are not kept by this reading.",
        otherwise="The Board sets which fees are kept in Chapter 167; the Clerk-Treasurer enters it on the fee item.",
    ),
]


class FeeNotConfigured(Exception):
    """A fee of the Chapter 167 schedule that a rule needs is not in force on the day."""

    def violation(self, citation: str, *, field: str | None = None, note: str = "") -> Violation:
        """The refusal of the application or act that needed the fee, citing the rule that charges it; `note` is
        added to the message in parentheses (the section, or what it says)."""
        message = f"{self} ({note})" if note else str(self)
        return Violation(field, "fee_not_configured", citation, message)


def fee_in_force(code: str, on: date) -> FeeItem:
    """The FeeItem with `code` whose period contains `on` (the latest start wins if periods overlap)."""
    item = (
        FeeItem.objects.filter(code=code, effective_from__lte=on)
        .filter(Q(effective_to__isnull=True) | Q(effective_to__gte=on))
        .order_by("-effective_from")
        .first()
    )
    if item is None:
        raise FeeNotConfigured(
            f"No fee '{code}' is in force on {on:%B %-d, %Y}. The Clerk-Treasurer must enter it in the fee schedule "
            "(Chapter 167, Fees) before this application can be submitted."
        )
    return item
