"""The pure rules are total: at date.min (year 1) and date.max (December 31, 9999) they answer, never raise
OverflowError or ValueError. The forms refuse such dates first (test_input_limits); these guard every other caller
(the shell, a job, an import). Each test names the section of the rule it drives to the edge."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from permits.business_days import add_business_days, add_working_days, business_days_between, next_business_day, shift
from permits.ledger import rules as charge_rules
from permits.street_opening import rules as ordinance
from permits.street_opening.field import rules as field_rules

CHICAGO = ZoneInfo("America/Chicago")
END, START = date.max, date.min


def test_shift_holds_at_the_ends_of_the_calendar():
    assert shift(END, 1) == END and shift(END - timedelta(days=1), 1) == END
    assert shift(START, -1) == START and shift(START, 1) == date(1, 1, 2)
    assert shift(date(2026, 5, 4), 30) == date(2026, 6, 3)  # ordinary days are ordinary


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5h_next_business_day_at_the_end_of_the_calendar():
    assert next_business_day(END) == END
    assert next_business_day(date(9999, 12, 30)) == date(9999, 12, 31)  # a Friday
    assert next_business_day(date(2026, 12, 31)) == date(2027, 1, 4)  # New Year's Day, then a weekend


@pytest.mark.django_db  # business days read the office-closure calendar
def test_182_0175_working_days_and_legal_start_at_the_end_of_the_calendar():
    assert add_working_days(date(9999, 12, 29), 3) == END
    assert add_business_days(date(9999, 12, 29), 3) == END
    assert ordinance.diggers_legal_start(END) == END
    assert business_days_between(date(9999, 12, 27), END) == 4
    assert business_days_between(START, START) == 0


@pytest.mark.parametrize("start", [END, date(9999, 12, 1), START])
def test_303_5a_winter_rule_at_the_ends_of_the_calendar(start):
    found = ordinance.winter_violations(
        start_date=start, end_date=END, emergency=False, determination_recorded=False, at_approval=False
    )
    assert [v.citation for v in found] == ["§ 303-5A"]


def test_303_5a_winter_rule_still_open_on_november_14_in_the_year_9999():
    found = ordinance.winter_violations(
        start_date=date(9999, 11, 14),
        end_date=date(9999, 11, 14),
        emergency=False,
        determination_recorded=False,
        at_approval=False,
    )
    assert found == []


def test_303_4h2_revocation_and_303_5i_moratorium_end_at_the_end_of_the_calendar():
    assert ordinance.revocation_ends(date(9999, 3, 1)) == END
    assert ordinance.moratorium_ends(date(9996, 2, 29)) == END
    assert ordinance.revocation_ends(date(2024, 2, 29)) == date(2025, 2, 28)  # the ordinary rule is unchanged


def test_182_0175_stale_ticket_warning_with_a_legal_start_at_the_end_of_the_calendar():
    found = ordinance.diggers_ticket_violations(
        ticket_number="20261234567",
        requested_at=datetime(9999, 12, 29, 9, tzinfo=CHICAGO),
        legal_start=END,
        start_date=END,
        emergency=False,
        at_approval=False,
    )
    assert all(v.code != "stale_ticket" for v in found)


def test_303_5g4_pavement_due_dates_at_the_end_of_the_calendar():
    assert field_rules.following_june_1(date(9999, 6, 2)) == END
    assert field_rules.following_june_1(date(9999, 5, 31)) == date(9999, 6, 1)
    assert field_rules.permanent_pavement_due(permit_date=date(9999, 11, 30)) == END
    assert field_rules.permanent_pavement_due(permit_date=date(2026, 6, 1)) == date(2026, 7, 31)


def test_303_5g3_concrete_traffic_protection_at_the_end_of_the_calendar():
    assert field_rules.concrete_open_to_traffic_on(END) == END


def test_303_4h3_guarantee_year_at_the_end_of_the_calendar():
    assert field_rules.one_year_after(date(9999, 1, 1)) == END
    assert field_rules.one_year_after(date(2024, 2, 29)) == date(2025, 2, 28)


@pytest.mark.django_db  # business days read the office-closure calendar
def test_303_5f_business_day_notice_at_the_start_of_the_calendar():
    assert field_rules.previous_business_day(START) == START
    assert field_rules.previous_business_day(date(2026, 5, 4)) == date(2026, 5, 1)  # Monday -> Friday


@pytest.mark.parametrize(
    ("year", "expected"), [(0, date(1, 12, 8)), (99999, date(9999, 12, 8)), (2026, date(2026, 12, 8))]
)
def test_74_03_transfer_deadline_for_a_year_past_the_calendar(year, expected):
    assert charge_rules.transfer_deadline(year) == expected
