"""Wis. Stat. § 66.0627(4): the time for paying a special charge is the Board's, recorded by a carried motion; a bill
falls due under the period in force on the day it is given."""

from datetime import date

import pytest

from permits.errors import RulesBroken
from permits.ledger import services as ledger
from permits.ledger.models import PaymentPeriod
from permits.roles import Role
from tests.board_world import board_clerk, vote
from tests.conftest import staff_user
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import make_charge

CLAUSE = "66.0627(4)"
MEETING = date(2026, 6, 1)
FROM = date(2026, 7, 1)


def _sixty_days_from_july(clerk):
    motion = vote(clause=CLAUSE, ayes=4, held_on=MEETING, clerk=clerk)
    return ledger.set_payment_period(days=60, effective_from=FROM, motion=motion, by=clerk)


def test_66_0627_4_the_starting_period_stands_until_the_board_records_one(db):
    start = PaymentPeriod.objects.get()
    assert (start.days, start.motion) == (30, None)
    assert ledger.payment_days_in_force(date(2026, 6, 30)) == 30


@pytest.mark.parametrize(
    ("billed_on", "due_on"),
    [
        (date(2026, 6, 30), date(2026, 7, 30)),  # the day before: the 30 days in force then
        (date(2026, 7, 1), date(2026, 8, 31)),  # the day it takes effect: 60 days (Sunday Aug 30 -> Monday)
        (date(2026, 7, 2), date(2026, 8, 31)),  # the day after: 60 days
    ],
)
def test_66_0627_4_a_bill_falls_due_under_the_period_in_force_the_day_it_is_given(db, billed_on, due_on):
    clerk = board_clerk()
    _sixty_days_from_july(clerk)
    charge = make_charge(ParcelFactory(owner_email="owner@example.com"), by=clerk, today=billed_on)
    assert charge.due_on == due_on


def test_66_0627_4_a_bill_already_given_keeps_its_due_date(db):
    clerk = board_clerk()
    charge = make_charge(ParcelFactory(owner_email="owner@example.com"), by=clerk, today=date(2026, 6, 2))
    _sixty_days_from_july(clerk)
    charge.refresh_from_db()
    assert charge.due_on == date(2026, 7, 2)


@pytest.mark.parametrize(("days", "ok"), [(0, False), (1, True), (366, True), (367, False)])
def test_66_0627_4_the_period_is_one_day_to_a_year(db, days, ok):
    clerk = board_clerk()
    motion = vote(clause=CLAUSE, ayes=4, held_on=MEETING, clerk=clerk)
    if ok:
        assert ledger.set_payment_period(days=days, effective_from=FROM, motion=motion, by=clerk).days == days
    else:
        with pytest.raises(RulesBroken, match=r"1 to 366 days \(Wis. Stat. § 66.0627\(4\)\)"):
            ledger.set_payment_period(days=days, effective_from=FROM, motion=motion, by=clerk)


def test_66_0627_4_only_a_carried_motion_under_the_section_sets_it(db):
    clerk = board_clerk()
    failed = vote(clause=CLAUSE, ayes=2, nays=3, held_on=MEETING, clerk=clerk)
    other = vote(clause="66.0627", ayes=4, held_on=MEETING, clerk=clerk)
    for motion, why in ((failed, "The motion failed"), (other, "not § 66.0627\\(4\\)"), (None, "Name the Board")):
        with pytest.raises(RulesBroken, match=why):
            ledger.set_payment_period(days=45, effective_from=FROM, motion=motion, by=clerk)
    early = vote(clause=CLAUSE, ayes=4, held_on=MEETING, clerk=clerk)
    with pytest.raises(RulesBroken, match="is after"):
        ledger.set_payment_period(days=45, effective_from=date(2026, 5, 31), motion=early, by=clerk)
    assert PaymentPeriod.objects.count() == 1


@pytest.mark.parametrize("role", [Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT, Role.POLICE_CHIEF])
def test_66_0627_4_only_the_clerk_records_the_boards_period(db, role):
    motion = vote(clause=CLAUSE, ayes=4, held_on=MEETING)
    with pytest.raises(Exception, match="Clerk-Treasurer"):
        ledger.set_payment_period(days=45, effective_from=FROM, motion=motion, by=staff_user(f"u_{role}", role))
    assert PaymentPeriod.objects.count() == 1


def test_66_0627_4_the_rules_page_states_the_period_in_force(client, db):
    page = client.get("/rules/").content.decode()
    assert "Wis. Stat. § 66.0627(4)" in page
    assert "30 days (the starting period" in page


def test_66_0627_4_the_rules_page_names_the_boards_motion_in_one_query(client, db, django_assert_max_num_queries):
    clerk = board_clerk()
    motion = vote(clause=CLAUSE, ayes=4, held_on=MEETING, clerk=clerk)
    ledger.set_payment_period(days=45, effective_from=MEETING, motion=motion, by=clerk)
    with django_assert_max_num_queries(3):
        page = client.get("/rules/").content.decode()
    assert "45 days, from June 1, 2026 (Board motion of June 1, 2026)" in page
