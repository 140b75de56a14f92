"""Chapter 167 fees as data: look up the amount in force on a day."""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from permits.models import FeeItem


class FeeNotConfigured(Exception):
    pass


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
