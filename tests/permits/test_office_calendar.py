"""Wis. Stat. § 995.20 legal holidays, § 182.0175 working days, and the Village's office-closure calendar behind
Chapter 303's business days (§ 303-5F, § 303-5H)."""

from datetime import date

import holidays
import pytest

from permits.business_days import add_working_days, is_business_day, is_working_day, next_business_day
from permits.jobs import run_job
from permits.legal_holidays import legal_holidays
from permits.models import OfficeClosure
from permits.office_calendar import record_closure, seed_coming_years
from permits.street_opening import rules as ordinance

# --- Wis. Stat. § 995.20, pinned against the statute's text ------------------------------------------------------


def test_995_20_the_legal_holidays_of_2026_exactly():
    assert list(legal_holidays(2026)) == [
        date(2026, 1, 1),  # January 1
        date(2026, 1, 19),  # 3rd Monday in January
        date(2026, 2, 16),  # 3rd Monday in February
        date(2026, 5, 25),  # last Monday in May
        date(2026, 6, 19),  # June 19
        date(2026, 7, 4),  # July 4, a Saturday: not moved to Friday
        date(2026, 8, 11),  # the partisan primary (2nd Tuesday in August, even years)
        date(2026, 9, 7),  # 1st Monday in September
        date(2026, 10, 12),  # 2nd Monday in October
        date(2026, 11, 3),  # the general election (even years)
        date(2026, 11, 11),  # November 11
        date(2026, 11, 26),  # 4th Thursday in November
        date(2026, 12, 25),  # December 25
    ]


def test_995_20_includes_the_second_monday_in_october_which_the_holidays_package_omits():
    assert date(2026, 10, 12) in legal_holidays(2026)
    assert date(2026, 10, 12) not in holidays.country_holidays("US", subdiv="WI", years=2026)


def test_995_20_a_saturday_holiday_is_not_moved_to_friday():
    assert date(2026, 7, 4) in legal_holidays(2026) and date(2026, 7, 3) not in legal_holidays(2026)
    assert is_working_day(date(2026, 7, 3))  # Friday before a Saturday July 4
    assert date(2026, 7, 3) in holidays.country_holidays("US", subdiv="WI", years=2026)  # the package moves it


def test_995_20_a_sunday_holiday_moves_to_the_monday_after():
    assert date(2022, 12, 26) in legal_holidays(2022) and date(2022, 12, 25) not in legal_holidays(2022)
    assert date(2023, 1, 2) in legal_holidays(2023) and date(2023, 1, 1) not in legal_holidays(2023)
    assert date(2027, 7, 5) in legal_holidays(2027)  # July 4, 2027 is a Sunday


def test_995_20_election_days_only_in_even_years_and_good_friday_is_a_working_day():
    assert not any(d.month == 8 for d in legal_holidays(2027))
    assert date(2027, 11, 2) not in legal_holidays(2027)
    assert date(2028, 11, 7) in legal_holidays(2028)
    assert is_working_day(date(2026, 4, 3))  # Good Friday: 11 a.m. to 3 p.m. observed, not a holiday


# --- Wis. Stat. § 182.0175: working days and the legal start --------------------------------------------------


def test_182_0175_locate_requested_friday_october_9_2026_starts_october_15():
    assert ordinance.diggers_legal_start(date(2026, 10, 9)) == date(2026, 10, 15)


def test_182_0175_legal_start_the_day_before_and_after_a_holiday_weekend():
    assert ordinance.diggers_legal_start(date(2026, 10, 8)) == date(2026, 10, 14)  # Thu: Fri, Tue, Wed
    assert ordinance.diggers_legal_start(date(2026, 10, 12)) == date(2026, 10, 15)  # Monday holiday itself
    assert ordinance.diggers_legal_start(date(2026, 10, 13)) == date(2026, 10, 16)


def test_182_0175_working_days_skip_the_election_day():
    assert add_working_days(date(2026, 11, 2), 1) == date(2026, 11, 4)


# --- The office-closure calendar: Chapter 303's business days -------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_calendar_is_seeded_from_the_statute_for_the_coming_years():
    seeded = set(OfficeClosure.objects.filter(day__year=2027).values_list("day", flat=True))
    assert seeded == set(legal_holidays(2027))
    assert OfficeClosure.objects.filter(day=date(2026, 10, 12), source="statute", closed=True).exists()


@pytestmark_db
def test_303_5h_a_closure_the_clerk_adds_is_not_a_business_day(clerk):
    friday = date(2026, 11, 27)  # the day after Thanksgiving
    assert next_business_day(date(2026, 11, 25)) == friday
    record_closure(by=clerk, day=friday, name="Office closed the day after Thanksgiving")
    assert not is_business_day(friday)
    assert next_business_day(date(2026, 11, 25)) == date(2026, 11, 30)


@pytestmark_db
def test_303_5h_a_statute_day_the_office_opens_is_a_business_day(clerk):
    columbus = date(2026, 10, 12)
    assert not is_business_day(columbus)
    record_closure(by=clerk, day=columbus, name="2nd Monday in October", closed=False)
    assert is_business_day(columbus)
    assert OfficeClosure.objects.get(day=columbus).history.latest().closed is False  # the change is kept


@pytestmark_db
def test_303_5h_a_year_without_rows_counts_the_statute_holidays():
    assert not OfficeClosure.objects.filter(day__year=2045).exists()
    assert not is_business_day(date(2045, 10, 9))  # 2nd Monday in October, 2045
    assert is_business_day(date(2045, 10, 10))


@pytestmark_db
def test_303_5h_the_first_clerk_row_of_an_unseeded_year_keeps_the_statute_holidays(clerk):
    record_closure(by=clerk, day=date(2045, 12, 26), name="Office closed")
    assert not is_business_day(date(2045, 12, 26)) and not is_business_day(date(2045, 12, 25))


@pytestmark_db
@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "board_member", "contractor", "resident"])
def test_303_5h_only_the_clerk_keeps_the_calendar(request, persona):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        record_closure(by=request.getfixturevalue(persona), day=date(2026, 12, 24), name="Christmas Eve")
    assert not OfficeClosure.objects.filter(day=date(2026, 12, 24)).exists()


@pytestmark_db
def test_calendar_yearly_job_is_idempotent_and_keeps_the_clerks_rows(clerk):
    record_closure(by=clerk, day=date(2036, 1, 1), name="New Year's Day", closed=False)
    first = run_job("permits.seed_office_closures", seed_coming_years, today=date(2032, 12, 1))
    second = run_job("permits.seed_office_closures", seed_coming_years, today=date(2032, 12, 1))
    assert first["items_done"] > 0 and second["items_done"] == 0
    assert OfficeClosure.objects.get(day=date(2036, 1, 1)).closed is False
    assert OfficeClosure.objects.filter(day=date(2037, 10, 12)).exists()  # 2nd Monday in October, 2037


@pytestmark_db
def test_clerk_adds_a_closure_in_the_admin_and_a_plain_message_refuses_a_blank_reason(client, clerk):
    client.force_login(clerk)
    refused = client.post("/admin/permits/officeclosure/add/", {"day": "2026-12-24", "name": "", "closed": "on"})
    assert refused.status_code == 200 and not OfficeClosure.objects.filter(day=date(2026, 12, 24)).exists()
    added = client.post(
        "/admin/permits/officeclosure/add/", {"day": "2026-12-24", "name": "Christmas Eve", "closed": "on"}
    )
    assert added.status_code == 302
    row = OfficeClosure.objects.get(day=date(2026, 12, 24))
    assert row.recorded_by == clerk and row.source == "clerk" and not is_business_day(row.day)


@pytestmark_db
@pytest.mark.parametrize("persona", ["dpw_director", "inspector"])
def test_other_staff_cannot_edit_the_calendar_in_the_admin(client, request, persona):
    client.force_login(request.getfixturevalue(persona))
    response = client.post(
        "/admin/permits/officeclosure/add/", {"day": "2026-12-24", "name": "Christmas Eve", "closed": "on"}
    )
    assert response.status_code == 403
    assert not OfficeClosure.objects.filter(day=date(2026, 12, 24)).exists()


# --- Each process reads the calendar at most once a second (permits.office_calendar) ----------------------------


def test_303_5h_a_closure_saved_counts_at_once_one_written_without_save_within_the_second(db, monkeypatch):
    from permits import office_calendar

    day = date(2026, 12, 28)  # a Monday
    assert is_business_day(day)
    OfficeClosure.objects.create(day=day, closed=True, name="Village office moves")  # the admin's and verbs' save()
    assert not is_business_day(day)
    OfficeClosure.objects.filter(day=day).update(closed=False)  # no signal: seen once the second is over
    later = office_calendar._clock() + office_calendar.MEMORY_SECONDS
    monkeypatch.setattr(office_calendar, "_clock", lambda: later)
    assert is_business_day(day)


def test_303_5h_within_one_second_a_job_reads_the_calendar_once(db, django_assert_num_queries):
    is_business_day(date(2026, 12, 28))
    with django_assert_num_queries(0):
        for _ in range(199):
            is_business_day(date(2026, 12, 28))
