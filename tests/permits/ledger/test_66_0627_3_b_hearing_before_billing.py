"""Wis. Stat. § 66.0627(3)(b): a sidewalk-repair charge is not billed, does not fall due and never goes delinquent
before the Board has held its hearing, with the class 1 notice published at least 20 days and the copy mailed at
least 10 days before it (19/20 and 9/10 days). Each charge names its statutory route as the law does, on the charge,
its bill and the tax roll."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.ledger import tasks
from permits.ledger.models import SpecialCharge
from permits.ledger.services import (
    bill_charge,
    bill_charges_after_hearings,
    mark_delinquent_charges,
    record_charge_payment,
    record_hearing,
)
from permits.ledger.tax_roll import render_csv
from permits.models import JobRun, Notice, StateChange
from tests.permits.ledger.conftest import make_charge

S = SpecialCharge.Status
RECORDED = date(2026, 3, 2)
HEARING = date(2026, 4, 22)


def sidewalk_charge(parcel, clerk, **extra):
    return make_charge(
        parcel,
        by=clerk,
        source=SpecialCharge.Source.SIDEWALK_REPAIR,
        route=extra.pop("route", SpecialCharge.Route.SPECIAL_TAX_66_0907),
        description="Sidewalk repair by the Village, order SWO-2026-0001",
        citation="§ 303-3B(1); § 303-3B(3); Wis. Stat. § 66.0907",
        today=RECORDED,
        **extra,
    )


def hear(charge, clerk, *, published_days=20, mailed_days=10, today=HEARING, hearing_on=HEARING):
    return record_hearing(
        hearing_on=hearing_on,
        published_on=hearing_on - timedelta(days=published_days),
        mailed_on=hearing_on - timedelta(days=mailed_days),
        charges=[charge],
        by=clerk,
        today=today,
    )


def status(charge):
    charge.refresh_from_db()
    return charge.status


def test_66_0627_3_b_sidewalk_repair_charge_is_not_billed_before_its_hearing(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    assert charge.status == S.PENDING and charge.billed_on is None and charge.due_on is None
    assert charge.awaiting_hearing
    with pytest.raises(ValidationError) as caught:
        bill_charge(charge, by=clerk, today=RECORDED)
    assert "66.0627(3)(b)" in str(caught.value)
    assert status(charge) == S.PENDING


def test_66_0627_3_b_no_bill_no_due_date_no_delinquency_before_the_hearing(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    mark_delinquent_charges(today=RECORDED + timedelta(days=400))
    assert status(charge) == S.PENDING and charge.delinquent_on is None
    with pytest.raises(ValidationError, match="nothing is due"):
        record_charge_payment(charge=charge, amount=charge.amount, method="cash", by=clerk, today=RECORDED)


def test_66_0627_3_b_a_hearing_not_yet_held_does_not_let_it_be_billed(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk, today=HEARING - timedelta(days=1))  # scheduled for tomorrow
    assert status(charge) == S.PENDING
    bill_charges_after_hearings(today=HEARING - timedelta(days=1))
    assert status(charge) == S.PENDING
    bill_charges_after_hearings(today=HEARING)  # the night of the hearing
    assert status(charge) == S.BILLED and charge.billed_on == HEARING


def test_66_0627_3_b_published_19_days_before_is_not_enough(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk, published_days=19)
    assert status(charge) == S.PENDING
    with pytest.raises(ValidationError, match="20"):
        bill_charge(charge, by=clerk, today=HEARING)


def test_66_0627_3_b_mailed_9_days_before_is_not_enough(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk, mailed_days=9)
    assert status(charge) == S.PENDING


def test_66_0627_3_b_published_20_and_mailed_10_days_before_bills_it_on_the_hearing_day(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk, published_days=20, mailed_days=10)
    assert status(charge) == S.BILLED
    assert charge.billed_on == HEARING and charge.due_on == HEARING + timedelta(days=30)
    mark_delinquent_charges(today=charge.due_on)
    assert status(charge) == S.BILLED
    mark_delinquent_charges(today=charge.due_on + timedelta(days=1))
    assert status(charge) == S.DELINQUENT


def test_66_0627_3_b_older_billed_record_without_a_hearing_never_goes_delinquent(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    SpecialCharge.objects.filter(pk=charge.pk).update(
        status=S.BILLED, billed_on=RECORDED, due_on=RECORDED + timedelta(days=30)
    )
    mark_delinquent_charges(today=RECORDED + timedelta(days=60))
    assert status(charge) == S.BILLED


def test_66_0627_snow_charges_need_no_hearing_and_are_billed_at_once(parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    assert charge.status == S.BILLED


def test_66_0627_3_b_the_nightly_job_bills_after_the_hearing_and_records_its_run(parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk, today=HEARING - timedelta(days=3))
    assert tasks.bill_charges_after_hearings(today_iso=HEARING.isoformat()) == 1
    assert status(charge) == S.BILLED
    assert tasks.bill_charges_after_hearings(today_iso=HEARING.isoformat()) == 0  # idempotent
    assert JobRun.objects.filter(name="ledger.bill_charges_after_hearings").count() == 2


@pytest.mark.parametrize("role", ["inspector", "dpw_director", "board_member", "resident"])
def test_66_0627_3_b_only_the_clerk_treasurer_records_the_hearing(request, parcel, clerk, role):
    charge = sidewalk_charge(parcel, clerk)
    with pytest.raises(PermissionDenied):
        hear(charge, request.getfixturevalue(role))
    assert status(charge) == S.PENDING


def test_66_0627_3_b_charge_page_says_it_awaits_the_hearing_and_offers_no_bill(client, parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    client.force_login(clerk)
    html = client.get(charge.get_absolute_url()).content.decode()
    assert "awaiting the Board&#x27;s hearing" in html or "awaiting the Board's hearing" in html
    assert "Nothing is due yet" in html
    assert client.get(reverse("ledger:charge_bill_pdf", args=[charge.number])).status_code == 404


# --- The statutory route, named as the law names it -------------------------------------------------------------------


def test_66_0907_route_names_the_special_tax_on_the_charge_bill_and_roll(client, parcel, clerk):
    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk)
    client.force_login(clerk)
    assert "Special tax (Wis. Stat. § 66.0907; § 303-3B(3))" in client.get(charge.get_absolute_url()).content.decode()
    from permits.models import Notice

    bill = Notice.objects.filter(template="special_charge_bill").latest("pk")
    assert "Special tax (Wis. Stat. § 66.0907" in bill.body


def test_303_3b_2_and_66_0627_routes_are_named_special_assessment_and_special_charge():
    assert SpecialCharge.Route.SPECIAL_ASSESSMENT_66_0703.label.startswith("Special assessment (§ 303-3B(2)")
    assert SpecialCharge.Route.SPECIAL_CHARGE_66_0627.label == "Special charge (Wis. Stat. § 66.0627)"


def test_66_0907_tax_roll_csv_names_the_route(parcel, clerk):
    from permits.ledger.tax_roll import build_tax_roll

    charge = sidewalk_charge(parcel, clerk)
    hear(charge, clerk)
    after_due = HEARING + timedelta(days=40)
    mark_delinquent_charges(today=after_due)
    batch = build_tax_roll(year=2026, today=after_due)
    text = render_csv(batch).decode()
    assert text.splitlines()[0].endswith(",route_name")
    assert "Special tax (Wis. Stat. § 66.0907; § 303-3B(3))" in text
    assert Decimal(charge.amount) > 0


def test_66_0627_3_b_the_nightly_job_statements_do_not_grow_with_the_charges(parcel, clerk):
    """Set-based, a few statements per chunk of charges, not per charge; a second run bills nothing."""

    def heard(count):
        charges = [sidewalk_charge(parcel, clerk) for _ in range(count)]
        record_hearing(
            hearing_on=HEARING,
            published_on=HEARING - timedelta(days=20),
            mailed_on=HEARING - timedelta(days=10),
            charges=charges,
            by=clerk,
            today=HEARING - timedelta(days=3),
        )
        return charges

    from permits import office_calendar

    small_charges = heard(2)
    # Both runs read the office calendar afresh (due dates skip the days it is closed; a process keeps a reading
    # for a second), so what is compared is the statements per charge.
    office_calendar.forget()
    with CaptureQueriesContext(connection) as small:
        assert bill_charges_after_hearings(today=HEARING) == (2, 2)
    large_charges = heard(6)
    office_calendar.forget()
    with CaptureQueriesContext(connection) as large:
        assert bill_charges_after_hearings(today=HEARING) == (6, 6)
    assert len(large) == len(small)
    for charge in small_charges + large_charges:
        assert status(charge) == S.BILLED and charge.billed_on == HEARING
    bills = Notice.objects.filter(template="special_charge_bill").count()
    changes = StateChange.objects.filter(to_state=S.BILLED).count()
    assert bills == 8 and changes == 8
    assert bill_charges_after_hearings(today=HEARING) == (0, 0)
    assert Notice.objects.filter(template="special_charge_bill").count() == bills
