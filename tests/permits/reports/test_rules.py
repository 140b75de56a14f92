"""The reports' rules at their boundaries: age bands, the year filter, the wait to issue, who reads which report."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from permits.reports import rules
from permits.roles import Role

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("days", "band"),
    [
        (0, "0–30 days"),
        (30, "0–30 days"),
        (31, "31–60 days"),
        (60, "31–60 days"),
        (61, "61–90 days"),
        (90, "61–90 days"),
        (91, "91+ days"),
        (4000, "91+ days"),
        (-1, "0–30 days"),  # dated after today (a typo): shown with the youngest, never lost
    ],
)
def test_age_bands_hold_their_last_day(days, band):
    assert rules.band_of(days, rules.AGE_BANDS) == band


def test_age_is_0_on_the_day_opened_and_30_thirty_days_later():
    assert rules.age_in_days(TODAY, TODAY) == 0
    assert rules.age_in_days(date(2026, 11, 1), TODAY) == 30
    assert rules.age_in_days(date(2026, 10, 31), TODAY) == 31


def test_band_cutoffs_agree_with_band_of_on_each_side_of_every_cutoff():
    cutoffs = rules.band_cutoffs(TODAY)
    assert cutoffs[0] == ("0–30 days", date(2026, 11, 1))
    assert cutoffs[-1] == ("91+ days", None)
    for label, cutoff in cutoffs[:-1]:
        assert rules.band_of(rules.age_in_days(cutoff, TODAY), rules.AGE_BANDS) == label
        day_before = cutoff - timedelta(days=1)
        assert rules.band_of(rules.age_in_days(day_before, TODAY), rules.AGE_BANDS) != label


@pytest.mark.parametrize(
    ("days", "band"),
    [(0, "0–7 days"), (7, "0–7 days"), (8, "8–14 days"), (14, "8–14 days"), (15, "15–30 days"), (61, "61+ days")],
)
def test_wait_bands_hold_their_last_day(days, band):
    assert rules.band_of(days, rules.WAIT_BANDS) == band


def test_submitted_and_issued_the_same_day_is_0_days():
    assert rules.days_to_issue(date(2026, 3, 2), date(2026, 3, 2)) == 0
    assert rules.days_to_issue(date(2026, 3, 2), date(2026, 3, 3)) == 1


def test_median_of_an_odd_count_is_the_middle_wait():
    assert rules.median_of_counts({1: 1, 5: 1, 40: 1}) == 5


def test_median_of_an_even_count_is_the_mean_of_the_two_middle_waits():
    assert rules.median_of_counts({2: 1, 3: 1, 10: 2}) == 6.5
    assert rules.median_of_counts({4: 2}) == 4


def test_median_of_nothing_is_none():
    assert rules.median_of_counts({}) is None


@pytest.mark.parametrize(
    ("year", "ok"),
    [(rules.FIRST_YEAR - 1, False), (rules.FIRST_YEAR, True), (2026, True), (2027, False)],
)
def test_the_year_filter_runs_from_the_first_year_through_this_year(year, ok):
    violations = rules.year_violations(year, TODAY)
    assert (not violations) is ok
    if not ok:
        assert violations[0].field == "year"
        assert violations[0].message.startswith("Year:")


def test_the_year_choices_are_newest_first_and_end_at_the_first_year():
    years = rules.report_years(TODAY)
    assert years[0] == 2026
    assert years[-1] == rules.FIRST_YEAR


@pytest.mark.parametrize("role", [Role.CLERK, Role.BOARD, Role.PRESIDENT])
def test_the_clerk_the_board_and_the_president_read_every_report(role):
    assert rules.readable_reports({role}) == list(rules.REPORT_SLUGS)


@pytest.mark.parametrize("role", [Role.DPW_DIRECTOR, Role.DPW_INSPECTOR])
def test_the_dpw_reads_the_inspections_report_only(role):
    assert rules.readable_reports({role}) == ["inspections"]


@pytest.mark.parametrize("roles", [set(), {Role.BUILDING_INSPECTOR}, {Role.POLICE_CHIEF}])
def test_applicants_and_other_staff_read_no_report(roles):
    assert rules.readable_reports(roles) == []


def test_an_unknown_report_is_read_by_nobody():
    assert not rules.may_read_report({Role.CLERK}, "salaries")


@pytest.mark.parametrize(
    ("largest", "unit", "top"),
    [
        (0, "count", 4),
        (3, "count", 4),
        (4, "count", 4),
        (5, "count", 8),
        (40, "count", 40),
        (41, "count", 80),
        (Decimal("500"), "money", 500),
        (Decimal("501"), "money", 800),
        (Decimal("0.40"), "money", Decimal("0.40")),
    ],
)
def test_the_chart_axis_reaches_the_largest_bar_in_four_round_steps(largest, unit, top):
    from permits.reports.charts import nice_step

    assert nice_step(largest, unit) * 4 == top


def test_the_chart_says_in_words_what_it_shows():
    from permits.reports.charts import bar_chart

    chart = bar_chart("Inspections", ["Jan", "Feb"], [("Passed", [3, 1]), ("Failed", [0, 2])])
    assert chart.summary == "Inspections. Passed: 4 in all, most in Jan (3); Failed: 2 in all, most in Feb (2)."
    assert [b.height for b in chart.bars][:2] == [pytest.approx(216 * 3 / 4), 0.0]
    assert bar_chart("Nothing", ["Jan"], [("Passed", [0])]).summary == "Nothing: nothing to show for this selection."


def test_the_chart_says_none_for_a_series_with_nothing():
    from permits.reports.charts import bar_chart

    chart = bar_chart("Inspections", ["Jan", "Feb"], [("Passed", [0, 0]), ("Failed", [0, 1])])
    assert chart.summary == "Inspections. Passed: none; Failed: 1 in all, most in Feb (1)."
