"""§ 66.0627(4) at scale: the nightly delinquency job is set-based, a few statements per chunk of
charges, not a few per charge; each charge still gets its audited change and its owner's notice (email or letter)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from permits.ledger.models import SpecialCharge
from permits.ledger.services import mark_delinquent_charges
from permits.models import Notice, StateChange
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, mail_letters, make_charge

S = SpecialCharge.Status
pytestmark = pytest.mark.django_db


def _charges(n, clerk, *, email=True):
    charges = []
    for i in range(n):
        parcel = ParcelFactory(owner_email=f"owner{i}@example.com" if email else "", owner_name=f"Owner {i}")
        charge = make_charge(parcel, by=clerk)
        if not email:
            mail_letters(charge, charge.billed_on)
        charges.append(charge)
    return charges


def _statements_to_mark(today):
    with CaptureQueriesContext(connection) as ctx:
        result = mark_delinquent_charges(today=today)
    return result, len(ctx)


def test_66_0627_4_delinquency_statements_do_not_grow_with_the_charges(clerk):
    _charges(2, clerk)
    small, small_statements = _statements_to_mark(LATE)
    _charges(12, clerk)
    large, large_statements = _statements_to_mark(LATE)
    assert small == (2, 2) and large == (12, 12)
    assert large_statements == small_statements <= 10


def test_66_0627_4_each_charge_marked_gets_its_change_and_its_owners_notice(clerk):
    emailed = _charges(2, clerk)
    mailed = _charges(1, clerk, email=False)
    assert mark_delinquent_charges(today=LATE) == (3, 3)
    for charge in emailed + mailed:
        charge.refresh_from_db()
        assert charge.status == S.DELINQUENT
        assert charge.delinquent_on == charge.due_on.fromordinal(charge.due_on.toordinal() + 1)
        [change] = StateChange.objects.filter(record_id=charge.pk, to_state=S.DELINQUENT)
        assert (change.from_state, change.actor) == (S.BILLED, None)
        assert "§ 66.0627(4)" in change.reason
    notices = Notice.objects.filter(template="special_charge_delinquent")
    assert sorted(notices.values_list("channel", flat=True)) == ["email", "email", "mail"]
    assert all(n.record_id in {c.pk for c in emailed + mailed} for n in notices)
    assert mark_delinquent_charges(today=LATE) == (0, 0)  # idempotent


def test_66_0627_4_a_charge_paid_after_the_job_read_it_is_left_alone(clerk):
    from permits.ledger import services

    [paid, unpaid] = _charges(2, clerk)
    real = services.change_state_many

    def pay_first(model, reasons, **kwargs):
        SpecialCharge.objects.filter(pk=paid.pk).update(status=S.PAID)  # the clerk's payment wins the race
        return real(model, reasons, **kwargs)

    services.change_state_many = pay_first
    try:
        assert mark_delinquent_charges(today=LATE) == (2, 1)
    finally:
        services.change_state_many = real
    assert not StateChange.objects.filter(record_id=paid.pk, to_state=S.DELINQUENT).exists()
    assert Notice.objects.filter(template="special_charge_delinquent", record_id=paid.pk).count() == 0
    assert Notice.objects.filter(template="special_charge_delinquent", record_id=unpaid.pk).count() == 1
