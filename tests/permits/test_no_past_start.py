"""A permit is obtained before the work or the use it allows: an application whose start date has passed is refused on
every type (§ 303-3C, § 303-4A, § 303-7A, § 303-15B), today itself allowed; § 303-5H's emergency is the exception."""

from datetime import date

from permits.services import past_start_violations

TODAY = date(2026, 12, 5)


def test_yesterday_is_refused_citing_the_types_clause():
    [violation] = past_start_violations(date(2026, 12, 4), TODAY, required_by="§ 303-15B")
    assert (violation.field, violation.code, violation.citation) == ("start_date", "start_in_past", "§ 303-15B")
    assert "December 4, 2026" in violation.message and "§ 303-15B" in violation.message


def test_today_and_tomorrow_are_allowed():
    assert past_start_violations(TODAY, TODAY, required_by="§ 303-4A") == []
    assert past_start_violations(date(2026, 12, 6), TODAY, required_by="§ 303-4A") == []


def test_303_5h_an_emergency_begun_before_the_application_is_allowed():
    assert past_start_violations(date(2026, 12, 3), TODAY, required_by="§ 303-4A", began_in_emergency=True) == []
