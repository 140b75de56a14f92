"""Boundary tests of permits/ledger/rules.py, named after their sections."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from permits.ledger import rules

CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 10, 6, 0, tzinfo=CHICAGO)


# --- Wis. Stat. § 66.0627 ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_66_0627_due_30_days_after_billing_and_delinquent_the_day_after():
    due = rules.charge_due_on(date(2026, 3, 1), "snow_ice", 30)
    assert due == date(2026, 3, 31)
    assert not rules.is_delinquent(due, date(2026, 3, 31))
    assert rules.is_delinquent(due, date(2026, 4, 1))
    assert not rules.is_delinquent(None, date(2027, 1, 1))


@pytest.mark.django_db
def test_303_6f_1_obstruction_bill_due_10_days_after_presumed_receipt():
    assert rules.charge_due_on(date(2026, 5, 1), "obstruction_removal", None) == date(2026, 5, 14)
    # the 13th day is Saturday March 14: the office is closed, so the payment may be made Monday (§ 990.001(4))
    assert rules.charge_due_on(date(2026, 3, 1), "obstruction_removal", None) == date(2026, 3, 16)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("billed_on", "due_on"),
    [
        (date(2026, 4, 2), date(2026, 5, 4)),  # the 30th day is Saturday May 2: Monday May 4
        (date(2026, 4, 3), date(2026, 5, 4)),  # Sunday May 3: Monday
        (date(2026, 4, 4), date(2026, 5, 4)),  # Monday May 4 itself
        (date(2026, 4, 26), date(2026, 5, 26)),  # Memorial Day is May 25: not the 26th itself
        (date(2026, 4, 25), date(2026, 5, 26)),  # the 30th day is Memorial Day: the Tuesday
    ],
)
def test_66_0627_a_bill_due_when_the_office_is_closed_is_due_the_next_open_day(billed_on, due_on):
    assert rules.charge_due_on(billed_on, "snow_ice", 30) == due_on
    assert not rules.is_delinquent(due_on, due_on)


def test_66_0627_no_installments():
    assert rules.payment_errors(Decimal("75.00"), Decimal("75.00")) == []
    [violation] = rules.payment_errors(Decimal("74.99"), Decimal("75.00"))
    assert "installments" in violation.message and violation.citation == "Wis. Stat. § 66.0627(2)"
    assert rules.payment_errors(Decimal(0), Decimal("75.00"))


HEARING = date(2026, 6, 21)


def test_66_0627_published_19_days_refused():
    [message] = rules.hearing_notice_errors(HEARING, HEARING - timedelta(days=19), HEARING - timedelta(days=10))
    assert "published 19 days" in message and "§ 66.0627(3)(b)" in message


def test_66_0627_published_20_days_accepted():
    assert rules.hearing_notice_errors(HEARING, HEARING - timedelta(days=20), HEARING - timedelta(days=10)) == []


def test_66_0627_mailed_9_days_refused():
    [message] = rules.hearing_notice_errors(HEARING, HEARING - timedelta(days=20), HEARING - timedelta(days=9))
    assert "mailed 9 days" in message


def test_66_0627_sidewalk_repair_needs_a_held_hearing_to_be_certified():
    good = (HEARING, HEARING - timedelta(days=20), HEARING - timedelta(days=10))
    assert rules.certification_errors("snow_ice", [], HEARING) == []
    assert rules.certification_errors("sidewalk_repair", [], HEARING)
    assert rules.certification_errors("sidewalk_repair", [good], HEARING - timedelta(days=1))  # not held yet
    assert rules.certification_errors("sidewalk_repair", [good], HEARING) == []
    late = (HEARING, HEARING - timedelta(days=19), HEARING - timedelta(days=10))
    assert rules.certification_errors("sidewalk_repair", [late], HEARING)
    assert rules.certification_errors("sidewalk_repair", [late, good], HEARING) == []


# --- Tax roll (§§ 70.65, 74.03) ---------------------------------------------------------------------------------


def test_70_65_cutoff_from_setting():
    assert rules.tax_roll_cutoff(2026, "11-15") == date(2026, 11, 15)
    with pytest.raises(ValueError, match="MM-DD"):
        rules.tax_roll_cutoff(2026, "November 15")


def test_66_0627_delinquent_on_the_cutoff_goes_on_this_years_roll():
    assert rules.roll_year_for(date(2026, 11, 15), "11-15") == 2026
    assert rules.roll_year_for(date(2026, 11, 16), "11-15") == 2027


def test_74_03_transfer_by_december_8():
    assert rules.transfer_deadline(2026) == date(2026, 12, 8)


def test_70_65_roll_is_drafted_in_the_30_days_up_to_the_cutoff():
    assert not rules.is_roll_build_window(date(2026, 10, 15), "11-15")
    assert rules.is_roll_build_window(date(2026, 10, 16), "11-15")
    assert rules.is_roll_build_window(date(2026, 11, 15), "11-15")
    assert not rules.is_roll_build_window(date(2026, 11, 16), "11-15")
