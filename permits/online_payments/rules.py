"""Rules of online payment. Each is a small function citing its section; the services call them under row locks."""

from __future__ import annotations

from decimal import Decimal

from permits.errors import Violation
from permits.models.core import ENDED_WITHOUT_PERMIT, Status

# § 303-4B / § 303-4F(2): the fee is paid once the Clerk-Treasurer has found the application complete (under review)
# and for as long as the permit is open and owes something (a renewal fee under § 303-4E, Village costs added).
PERMIT_PAYABLE_STATUSES = frozenset(
    {Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED, Status.ACTIVE, Status.COMPLETED}
)
# Wis. Stat. § 66.0627(2), (4): a billed special charge is paid in full until it is certified to the tax roll; once
# certified it is collected with the tax bill (or at the Village Hall).
CHARGE_PAYABLE_STATUSES = frozenset({"billed", "delinquent"})


def permit_payable_violations(*, status: str, balance_due: Decimal, number: str) -> list[Violation]:
    """§ 303-4B, § 303-4F(2): a permit's fee is paid online only once the Clerk-Treasurer has found the application
    complete, and only while something is due on an open permit."""
    if status in {Status.DRAFT, Status.SUBMITTED}:
        return [
            Violation(
                None,
                "not_found_complete",
                "§ 303-4B",
                f"{number} cannot be paid yet: the Clerk-Treasurer has not found the application complete (§ 303-4B). "
                "You will be told when the fee is due.",
            )
        ]
    if status in ENDED_WITHOUT_PERMIT:
        return [
            Violation(
                None,
                "ended_without_permit",
                "§ 303-4F(2)",
                f"{number} is {Status(status).label.lower()}: nothing is owed on it, so it cannot be paid "
                "(§ 303-4F(2), Chapter 167 Fees). A fee paid and not kept is refunded by the Clerk-Treasurer.",
            )
        ]
    if status not in PERMIT_PAYABLE_STATUSES:
        return [
            Violation(
                None,
                "permit_not_payable",
                "§ 303-4F(2)",
                f"{number} is {Status(status).label.lower()}: it cannot be paid online (§ 303-4F(2)). "
                "Ask the Clerk-Treasurer.",
            )
        ]
    if balance_due <= 0:
        return [Violation(None, "nothing_due", "§ 303-4F(2)", f"Nothing is due on {number} (§ 303-4F(2)).")]
    return []


def charge_payable_violations(*, status: str, status_label: str, balance_due: Decimal, number: str) -> list[Violation]:
    """Wis. Stat. § 66.0627(2), (4): a special charge is paid online in full while billed or delinquent; never in
    installments, never once it is on the tax roll (it is then paid with the tax bill)."""
    if status not in CHARGE_PAYABLE_STATUSES or balance_due <= 0:
        return [
            Violation(
                None,
                "charge_not_payable",
                "Wis. Stat. § 66.0627(4)",
                f"Charge {number} is {status_label.lower()}: it cannot be paid online (Wis. Stat. § 66.0627(4)).",
            )
        ]
    return []


def convenience_fee_amount(fee_item_amount: Decimal | None) -> Decimal:
    """A card convenience fee applies only if the Village sets one in the fee schedule (fee code
    `online_card_convenience_fee`); it is shown before paying, as its own line, and is not part of the permit fee."""
    return (fee_item_amount or Decimal("0.00")).quantize(Decimal("0.01"))


REFUND_REASON_MIN = 10


def refund_reason_violations(reason: str) -> list[Violation]:
    """§ 303-4F(2): the Clerk-Treasurer accounts for the money received; a refund or void states why, on the record."""
    if len(reason.strip()) < REFUND_REASON_MIN:
        return [
            Violation(
                "reason",
                "reason_required",
                "§ 303-4F(2)",
                f"Give the reason for the refund (at least {REFUND_REASON_MIN} characters): it is kept on the record "
                "(§ 303-4F(2)).",
            )
        ]
    return []


def void_violations(*, received_on, today) -> list[Violation]:
    """§ 303-4F(2): a void undoes a receipt issued in error, on the day it was issued (before the day is settled);
    later it is a refund."""
    if received_on != today:
        return [
            Violation(
                "kind",
                "void_same_day_only",
                "§ 303-4F(2)",
                f"A receipt is voided only on the day it was issued ({received_on:%B %-d, %Y}); record a refund "
                "instead (§ 303-4F(2)).",
            )
        ]
    return []


def payout_difference_violations(*, expected: Decimal, payout: Decimal, note: str) -> list[Violation]:
    """Settlement: the gateway's payout for the day matches the card payments taken online less their refunds; a
    difference is reconciled only with the clerk's explanation."""
    if payout != expected and not note.strip():
        return [
            Violation(
                "note",
                "explain_difference",
                "§ 303-4F(2)",
                f"The payout ${payout:.2f} differs from the card payments of the day, ${expected:.2f}: explain the "
                "difference in the note (§ 303-4F(2)).",
            )
        ]
    return []


def charge_status_after_refund(*, status: str, delinquent_on, status_before_payment: str = "") -> str | None:
    """Wis. Stat. § 66.0627(2), (4): a refunded or voided payment of a special charge leaves it owed again, in the
    state it was in before it was paid, its dates kept: billed until its due date (the nightly job then makes it
    delinquent as of the day after, § 66.0627(4)), delinquent from the day it became so (a lien: it goes on the
    draft tax roll again), on the tax roll if it was paid there. None: the charge is not paid (nothing to move)."""
    if status == "paid":
        return "delinquent" if delinquent_on else "billed"
    if status == "paid_on_roll":
        return status_before_payment if status_before_payment in {"certified", "on_roll"} else "on_roll"
    return None
