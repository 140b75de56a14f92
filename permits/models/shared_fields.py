"""What several records of the core, the permit types and the sibling apps declare alike: one declaration here, so
that each record means the same by it. Nothing here names a part (sibling apps and types import it, not the other
way round)."""

from __future__ import annotations

from django.db import models
from django.urls import reverse


class NumberedRecord(models.Model):
    """A record the office numbers (permits.services.next_number: PREFIX-YEAR-NNNN, never reused) and whose page is
    addressed by that number."""

    number = models.CharField(max_length=20, unique=True, editable=False)
    # The URL name of the record's page; the page takes the number.
    detail_url_name: str

    class Meta:
        abstract = True

    def get_absolute_url(self) -> str:
        return reverse(self.detail_url_name, args=[self.number])


def board_motion(*, help_text: str = "", editable: bool = True) -> models.ForeignKey:
    """The Village Board's motion a record or one of its steps rests on: blank until the Board decides, or where it
    did not (its designee acted, or the record is older than the Board's roster). A motion cited by a record is never
    deleted; it keeps no list of the records that cite it."""
    return models.ForeignKey(
        "permits.Motion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        editable=editable,
        help_text=help_text,
    )
