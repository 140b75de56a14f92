"""Demo data of online payments (manage.py load_demo, after the permit types' loaders): one card payment held for
the Clerk-Treasurer to refund (the contractor paid an issued permit's fee at the counter, then online in a tab left
open), and today's settlement. The under-review and approved street openings of the demo are left owing, so the
contractor can pay one by card with the test provider. Idempotent."""

from __future__ import annotations

from django.utils import timezone
from payments import PaymentStatus

from permits.demo import special_charge
from permits.models import Payment, Permit, Status
from permits.online_payments import services, settlement
from permits.online_payments.models import OnlinePayment

DEMO_NOTE = "demo: paid at the counter, then online"


def load_demo() -> dict:
    if not services.online_payments_enabled():
        return {}
    held = None
    if not OnlinePayment.objects.filter(description__startswith=DEMO_NOTE).exists():
        candidates = Permit.objects.filter(
            status__in=[Status.ISSUED, Status.ACTIVE], payments__method=Payment.Method.CHECK
        ).select_related("applicant")
        paid = next((p for p in candidates.distinct() if p.balance_due_as_stored() == 0), None)
        if paid is not None:
            # As if started before the check was recorded: the balance was due then.
            held = OnlinePayment(
                variant=services.variant(),
                purpose=OnlinePayment.Purpose.PERMIT,
                permit=paid,
                payer=paid.applicant,
                balance_amount=paid.fee_amount,
                total=paid.fee_amount,
                currency="USD",
                description=DEMO_NOTE,
                paid_for=f"{paid.get_kind_display()} {paid.number}: {paid.fee_basis}",
                extra_data="{}",
            )
            held.save()
            OnlinePayment.objects.filter(pk=held.pk).update(transaction_id=f"dummy-{held.token}")
            held.refresh_from_db()
            held.change_status(PaymentStatus.CONFIRMED)  # settle() finds nothing due: held for the clerk
    charge = _snow_charge_to_pay_online()
    returned = _charge_paid_by_a_returned_check()
    settlement.build_settlement(timezone.localdate())
    return {
        "held_online_payment": held.pk if held else None,
        "snow_charge": charge.number if charge else None,
        "reopened_charge": returned.number if returned else None,
    }


RETURNED_DESCRIPTION = "Rubbish removed from the terrace by the Village (demo: paid by a check the bank returned)"


def _charge_paid_by_a_returned_check():
    """A § 303-2 charge the owner paid by check at the counter; the bank returned the check, so the clerk refunded
    (reversed) the receipt and the charge is billed again: its receipt shows the refund, its balance is due."""
    from django.contrib.auth import get_user_model

    from permits.ledger.models import SpecialCharge
    from permits.ledger.services import record_charge_payment
    from permits.models import Parcel

    existing = SpecialCharge.objects.filter(description=RETURNED_DESCRIPTION).first()
    if existing is not None:
        return existing
    users = get_user_model().objects
    resident, clerk = users.filter(username="resident").first(), users.filter(username="clerk").first()
    parcel = Parcel.objects.filter(owners=resident).first() if resident else None
    if parcel is None or clerk is None:
        return None
    charge = _charge_today(parcel, SpecialCharge.Source.RUBBISH, "40.00", RETURNED_DESCRIPTION, "§ 303-2", by=clerk)
    receipt = record_charge_payment(charge=charge, amount="40.00", method="check", reference="2231", by=clerk)
    services.refund_receipt(
        receipt.receipt_number, by=clerk, reason="The owner's check was returned by the bank (insufficient funds)"
    )
    charge.refresh_from_db()
    return charge


SNOW_DESCRIPTION = "Snow and ice removed from the public sidewalk by the Village (demo)"


def _snow_charge_to_pay_online():
    """A billed § 303-8B snow-removal charge on the demo resident's parcel, for the resident to pay online."""
    from django.contrib.auth import get_user_model

    from permits.ledger.models import SpecialCharge
    from permits.models import Parcel

    existing = SpecialCharge.objects.filter(description=SNOW_DESCRIPTION).first()
    if existing is not None:
        return existing
    resident = get_user_model().objects.filter(username="resident").first()
    parcel = Parcel.objects.filter(owners=resident).first() if resident else None
    if parcel is None:
        return None
    clerk = get_user_model().objects.filter(username="clerk").first()
    return _charge_today(parcel, SpecialCharge.Source.SNOW_ICE, "85.00", SNOW_DESCRIPTION, "§ 303-8B", by=clerk)


def _charge_today(parcel, source: str, amount: str, description: str, citation: str, *, by):
    """A Wis. Stat. § 66.0627 special charge on the parcel, incurred today."""
    return special_charge(parcel, source, amount, description, citation, by=by, incurred_on=timezone.localdate())


# manage.py load_demo, after the permit types' loaders (permits.kinds.demo_loaders): a held card payment for the clerk,
# today's settlement.
DEMO_LOADERS = (load_demo,)
