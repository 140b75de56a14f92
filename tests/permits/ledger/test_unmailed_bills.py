"""§ 303-6F(2): neither the clerk's failure to mail a bill nor the owner's failure to receive it stops the charge."""

from datetime import timedelta

from django.core import mail

from permits.ledger.models import SpecialCharge
from permits.ledger.services import mark_delinquent_charges
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import BILLED, make_charge


def test_303_6f_2_a_bill_no_one_could_email_still_falls_due_and_becomes_delinquent(db):
    parcel = ParcelFactory(owner_email="")  # no address on file: nothing is emailed
    charge = make_charge(
        parcel,
        source=SpecialCharge.Source.OBSTRUCTION_REMOVAL,
        description="Obstruction removed by the Village",
        citation="§ 303-6F(1)",
    )
    assert mail.outbox == []
    assert charge.status == SpecialCharge.Status.BILLED
    mark_delinquent_charges(today=charge.due_on)
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.BILLED  # the due date itself is still on time
    mark_delinquent_charges(today=charge.due_on + timedelta(days=1))
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.DELINQUENT
    assert charge.billed_on == BILLED
