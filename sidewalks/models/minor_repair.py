"""Minor sidewalk repairs (§ 303-3B(3): the Board proceeds "according to § 66.0907, Wis. Stats."; that statute lets
the Village, where the Board so requires, repair a sidewalk at once and without the order procedure when the repair
costs no more than a small sum, and charge the cost to the owner). The Board's authority and its cost limit are data
(MinorRepairAuthority); each repair done under it is a MinorSidewalkRepair billed through the ledger."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from permits.ledger.models import SpecialCharge
from permits.models import Parcel
from permits.models.shared_fields import NumberedRecord, board_motion


class MinorRepairAuthority(models.Model):
    """The Board's resolution that minor repairs be made at once (Wis. Stat. § 66.0907, named by § 303-3B(3)), with
    the most a repair in front of one parcel may cost, in force from `effective_from` until a later one replaces it.
    The limit is the Board's (the statute's sum was $100 in older text: verify the current text)."""

    motion = board_motion(help_text="The Board's carried motion (§ 303-3B(3))", editable=False)
    limit = models.DecimalField(
        "most a minor repair may cost ($)",
        max_digits=10,
        decimal_places=2,
        help_text="Wis. Stat. § 66.0907: $100 in older text (verify the current text)",
    )
    effective_from = models.DateField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-effective_from", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(limit__gt=0), name="minor_repair_limit_positive")]

    def __str__(self) -> str:
        return f"Minor sidewalk repairs up to ${self.limit} from {self.effective_from:%Y-%m-%d}"


class MinorSidewalkRepair(NumberedRecord):
    """A minor repair the Village made at once under the Board's authority, without the order procedure, and its
    cost charged to the owner as a special tax (Wis. Stat. § 66.0907; § 303-3B(3))."""

    detail_url_name = "sidewalks:minor_repair"

    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="minor_sidewalk_repairs")
    authority = models.ForeignKey(MinorRepairAuthority, on_delete=models.PROTECT, related_name="repairs")
    description = models.CharField(max_length=200, help_text="What was repaired, as the owner's notice says it")
    done_on = models.DateField()
    cost = models.DecimalField(max_digits=10, decimal_places=2)
    charge = models.OneToOneField(
        SpecialCharge, on_delete=models.PROTECT, editable=False, related_name="minor_sidewalk_repair"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-done_on", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(cost__gt=0), name="minor_repair_cost_positive")]

    def __str__(self) -> str:
        return f"{self.number}: minor repair at {self.parcel.site_address}"
