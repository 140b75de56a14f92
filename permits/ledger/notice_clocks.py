"""The bill's due date runs from the bill given to the owner (permits.notices.start_clocks starts it)."""

from __future__ import annotations

from django.db.models import Q

from permits.ledger import services as ledger
from permits.ledger.models import SpecialCharge
from permits.notices import Given, NoticeClock


def bill_given(charge_id: int, given: Given) -> None:
    """§ 66.0627(4), § 303-6F(1): a bill falls due counted from the day it was given (emailed, or its letter mailed,
    then presumed received for § 303-6F(1)'s "10 calendar days from receipt"). While the charge is unpaid and not yet
    delinquent, a due date set at billing (an obstruction bill falls due whether or not mailed, § 303-6F(2)) only ever
    moves later: a bill mailed late is never delinquent on arrival."""
    if not given.by_mail:
        return  # an emailed bill was given at billing, and bill_charge counted its due date from that day
    charge = SpecialCharge.objects.filter(pk=charge_id, status=SpecialCharge.Status.BILLED).first()
    if charge is None:
        return
    due_on = ledger.due_on_when_given(charge, max(given.on, charge.billed_on or given.on))
    SpecialCharge.objects.filter(pk=charge.pk, status=SpecialCharge.Status.BILLED).filter(
        Q(due_on__isnull=True) | Q(due_on__lt=due_on)
    ).update(due_on=due_on)


CLOCKS = (NoticeClock("special_charge_bill", bill_given),)
