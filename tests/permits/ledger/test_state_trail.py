"""Every change of a special charge's status and of a tax-roll batch's state is one audited change
(permits.state.change_state): who, when, from, to and why citing the section, shown as the record's History."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from permits.errors import IllegalTransition
from permits.ledger.models import ChargeHearing, SpecialCharge, TaxRollBatch
from permits.ledger.services import bill_charge, mark_delinquent_charges, record_charge_payment
from permits.ledger.tax_roll import build_tax_roll, certify_tax_roll, transfer_tax_roll
from permits.models import StateChange
from permits.state import actor_label, change_state, history_of
from tests.permits.ledger.conftest import BILLED, LATE, make_charge, make_delinquent

S = SpecialCharge.Status
pytestmark = pytest.mark.django_db


def changes(record):
    return [(c.from_state, c.to_state, c.actor, c.reason) for c in history_of(record)]


def test_66_0627_billed_then_paid_is_on_the_charges_trail(parcel, clerk, client):
    charge = make_charge(parcel, by=clerk, bill_now=False)
    bill_charge(charge, by=clerk, today=BILLED)
    payment = record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=BILLED)
    [billed, paid] = history_of(charge)
    assert (billed.from_state, billed.to_state, billed.actor) == (S.PENDING, S.BILLED, clerk)
    assert "due April 1, 2026" in billed.reason and "§ 66.0627(4)" in billed.reason
    assert (paid.from_state, paid.to_state, paid.actor) == (S.BILLED, S.PAID, clerk)
    assert payment.receipt_number in paid.reason
    client.force_login(clerk)
    page = client.get(reverse("ledger:charge_detail", args=[charge.number])).content.decode()
    assert '<h2 id="history-heading">History</h2>' in page
    who = actor_label(clerk)
    assert f"Recorded, not billed yet → Billed by {who}. Billed to the owner of record, due April 1, 2026" in page
    assert f"Billed → Paid by {who}. Paid in full: $75.00, receipt {payment.receipt_number}" in page
    assert f'<time datetime="{timezone.localtime(billed.at).isoformat()}">' in page


def test_66_0627_4_the_job_marks_delinquent_as_the_system_with_the_reason(parcel, clerk, resident, client):
    charge = make_charge(parcel, by=clerk)
    assert mark_delinquent_charges(today=LATE) == (1, 1)
    assert mark_delinquent_charges(today=LATE) == (0, 0)  # idempotent: one change, one row
    [_, delinquent] = history_of(charge)
    assert (delinquent.from_state, delinquent.to_state, delinquent.actor) == (S.BILLED, S.DELINQUENT, None)
    assert delinquent.actor_label == "the permit system"
    assert delinquent.reason == "Delinquent: unpaid after April 1, 2026 (Wis. Stat. § 66.0627(4))"
    client.force_login(resident)  # the owner sees the trail of a charge on their parcel
    page = client.get(reverse("ledger:charge_detail", args=[charge.number])).content.decode()
    assert "Billed → Delinquent by the permit system. Delinquent: unpaid after April 1, 2026" in page


def test_66_0627_two_clerks_billing_at_once_bill_once(parcel, clerk):
    charge = make_charge(parcel, by=clerk, bill_now=False)
    first, second = SpecialCharge.objects.get(pk=charge.pk), SpecialCharge.objects.get(pk=charge.pk)
    bill_charge(first, by=clerk, today=BILLED)
    with pytest.raises(IllegalTransition):
        bill_charge(second, by=clerk, today=BILLED)  # it read "pending" before the first clerk billed it
    assert [c.to_state for c in history_of(charge)] == [S.BILLED]


def test_66_0627_a_payment_racing_the_job_leaves_one_change(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    stale = SpecialCharge.objects.get(pk=charge.pk)
    record_charge_payment(charge=charge, amount="75.00", method="cash", by=clerk, today=LATE)
    # The job read the charge as billed before the payment: it finds it paid and leaves it alone.
    with pytest.raises(IllegalTransition):
        change_state(stale, to=S.DELINQUENT, from_states={S.BILLED}, by=None, reason="job")
    assert [c.to_state for c in history_of(charge)] == [S.BILLED, S.PAID]
    assert mark_delinquent_charges(today=LATE) == (0, 0)


def test_charge_page_queries_do_not_grow_with_its_history(parcel, clerk, client):
    client.force_login(clerk)
    short = make_charge(parcel, by=clerk)
    long = make_charge(parcel, by=clerk, bill_now=False)
    bill_charge(long, by=clerk, today=BILLED)
    mark_delinquent_charges(today=LATE)
    record_charge_payment(charge=long, amount="75.00", method="cash", by=clerk, today=LATE)
    SpecialCharge.objects.filter(pk=short.pk).update(status=S.BILLED)  # one change only on the short one
    StateChange.objects.filter(record_id=short.pk, to_state=S.DELINQUENT).delete()
    counts = []
    for charge in (short, long):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("ledger:charge_detail", args=[charge.number])).status_code == 200
        counts.append(len(ctx))
    assert len(history_of(long)) == 3 and len(history_of(short)) == 1
    assert counts[0] == counts[1]


def _hearing_for(charge, clerk):
    hearing = ChargeHearing.objects.create(
        hearing_on=date(2026, 4, 20), published_on=date(2026, 3, 20), mailed_on=date(2026, 4, 1), recorded_by=clerk
    )
    hearing.charges.add(charge)


def test_70_65_certifying_the_roll_is_on_the_batchs_and_each_charges_trail(parcel, clerk, client):
    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    assert history_of(batch).count() == 0  # building a draft changes no state
    certify_tax_roll(batch=batch, by=clerk, today=LATE)
    [certified] = history_of(batch)
    assert (certified.field, certified.from_state, certified.to_state, certified.actor) == (
        "state",
        TaxRollBatch.State.DRAFT,
        TaxRollBatch.State.CERTIFIED,
        clerk,
    )
    assert "§ 70.65" in certified.reason
    assert changes(charge)[-1] == (
        S.DELINQUENT,
        S.CERTIFIED,
        clerk,
        "Certified to the 2026 tax roll (Wis. Stat. §§ 66.0627(4), 70.65)",
    )
    transfer_tax_roll(batch=batch, by=clerk, today=date(2026, 12, 1))
    assert "Delivered to the treasurer on December 1, 2026 (Wis. Stat. § 74.03)" == history_of(batch).last().reason
    assert changes(charge)[-1][:3] == (S.CERTIFIED, S.ON_ROLL, clerk) and "§ 74.03" in changes(charge)[-1][3]
    client.force_login(clerk)
    page = client.get(reverse("ledger:tax_roll", args=[2026])).content.decode()
    assert '<h2 id="history-heading">History</h2>' in page and f"Draft → Certified by {actor_label(clerk)}." in page
    assert "Delivered to the treasurer on December 1, 2026" in page


def test_70_65_a_second_certification_is_refused_and_writes_no_second_row(parcel, clerk):
    make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    stale = TaxRollBatch.objects.get(pk=batch.pk)
    certify_tax_roll(batch=batch, by=clerk, today=LATE)
    with pytest.raises(ValidationError, match="already certified"):  # the batch row is locked and re-read
        certify_tax_roll(batch=stale, by=clerk, today=LATE)
    with pytest.raises(IllegalTransition):  # and the state change itself refuses a batch no longer a draft
        change_state(stale, field="state", to="certified", from_states={"draft"}, by=clerk)
    assert history_of(batch).count() == 1


def test_70_65_a_charge_paid_while_certifying_rolls_the_certification_back(parcel, clerk, monkeypatch):
    charge = make_delinquent(parcel, by=clerk)
    batch = build_tax_roll(year=2026, today=LATE)
    from permits.ledger import tax_roll

    real = tax_roll.change_state

    def paid_meanwhile(record, **kwargs):
        if isinstance(record, SpecialCharge):
            SpecialCharge.objects.filter(pk=record.pk).update(status=S.PAID)
        return real(record, **kwargs)

    monkeypatch.setattr(tax_roll, "change_state", paid_meanwhile)
    with pytest.raises(ValidationError, match="changed while certifying"):
        certify_tax_roll(batch=batch, by=clerk, today=LATE + timedelta(days=1))
    batch.refresh_from_db()
    assert batch.state == TaxRollBatch.State.DRAFT and history_of(batch).count() == 0
    assert [c.to_state for c in history_of(charge)] == [S.BILLED, S.DELINQUENT]
