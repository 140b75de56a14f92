"""§ 303-5I: excavation must be completed within 30 days of the Clerk-Treasurer's written notice: counted from the
notice as given (permits.notices), not from the Board's decision; past it, an approval is refused."""

from datetime import date

from permits.street_opening import rules

BEGINS = date(2026, 8, 3)


def _codes(end_date, notified_on, *, at_approval=True):
    found = rules.moratorium_violations(
        repaved_on=None,
        planned_repaving=(notified_on, BEGINS),
        start_date=date(2026, 6, 1),
        end_date=end_date,
        exception_recorded=False,
        at_approval=at_approval,
    )
    return [(v.code, v.warning) for v in found]


def test_303_5i_the_30_days_run_from_the_notice():
    # Notices all given June 1: the 30th day is July 1.
    assert rules.excavation_deadline_after_notice(date(2026, 6, 1)) == date(2026, 7, 1)


def test_303_5i_a_last_day_on_a_sunday_moves_to_monday():
    # Given June 7: the 30th day is Tuesday July 7; given June 5, the 30th day is Sunday July 5 -> Monday July 6.
    assert rules.excavation_deadline_after_notice(date(2026, 6, 5)) == date(2026, 7, 6)


def test_303_5i_approval_with_work_ending_on_the_last_day_passes():
    assert _codes(date(2026, 7, 1), date(2026, 6, 1)) == []


def test_303_5i_approval_with_work_ending_the_day_after_is_refused():
    assert _codes(date(2026, 7, 2), date(2026, 6, 1)) == [("repaving_planned", False)]


def test_303_5i_at_application_the_day_after_is_only_warned():
    assert _codes(date(2026, 7, 2), date(2026, 6, 1), at_approval=False) == [("repaving_planned", True)]


def test_303_5i_no_deadline_runs_while_a_notice_is_unmailed():
    # The Board decided, but a letter waits in Letters to mail: the applicant is told, nothing is refused.
    assert _codes(date(2026, 12, 31), None) == [("repaving_planned", True)]
