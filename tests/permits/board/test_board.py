"""The Village Board as data: the roster, attendance, votes counted by rule, and designations read by the
authority checks (permits.board)."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied

from permits.board import rules, services
from permits.board.clauses import Clause
from permits.board.models import Motion, Seat, Term, Vote
from permits.errors import RulesBroken
from permits.roles import Role
from tests.board_world import board_clerk, designate, ensure_seats, seat_members, vote

pytestmark = pytest.mark.django_db

MEETING = date(2026, 6, 2)


def codes(error):
    return {v.code for v in error.value.violations}


# --- Rules --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats, needed", [(4, 3), (5, 4), (6, 5), (7, 6), (8, 6), (9, 7)])
def test_303_3d_8_c_three_fourths_is_the_ceiling(seats, needed):
    assert rules.votes_needed_for_three_fourths(seats) == needed
    assert rules.is_three_fourths_of_entire_board(ayes=needed, seats=seats)
    assert not rules.is_three_fourths_of_entire_board(ayes=needed - 1, seats=seats)


@pytest.mark.parametrize("present, needed", [(4, 3), (5, 3), (6, 4), (7, 4)])
def test_majority_of_those_present(present, needed):
    assert rules.votes_needed_for_majority_of_present(present) == needed
    assert rules.is_majority_of_present(ayes=needed, present=present)
    assert not rules.is_majority_of_present(ayes=needed - 1, present=present)


def test_61_32_quorum_is_a_majority_of_the_seats():
    assert rules.quorum(7) == 4 and rules.has_quorum(present=4, seats=7) and not rules.has_quorum(present=3, seats=7)


# --- The roster ---------------------------------------------------------------------------------------------------


def test_the_seat_count_is_the_roster_on_the_meeting_date():
    ensure_seats()
    assert services.seats_on(MEETING) == 7
    Seat.objects.create(number=8, office=Seat.Office.TRUSTEE, established_on=MEETING)
    assert services.seats_on(MEETING - timedelta(days=1)) == 7 and services.seats_on(MEETING) == 8
    Seat.objects.filter(number=8).update(abolished_on=MEETING + timedelta(days=1))
    assert services.seats_on(MEETING + timedelta(days=1)) == 7


def test_members_seated_on_a_date_follow_their_terms(clerk):
    seat = ensure_seats()[1]
    term = services.seat_member(seat=seat, name="A", starts_on=date(2026, 4, 21), ends_on=date(2028, 4, 17), by=clerk)
    assert not term.seated_on(date(2026, 4, 20)) and term.seated_on(date(2026, 4, 21))
    assert term.seated_on(date(2028, 4, 17)) and not term.seated_on(date(2028, 4, 18))
    assert list(services.members_on(date(2027, 1, 1))) == [term]
    with pytest.raises(RulesBroken):  # one member holds a seat at a time
        services.seat_member(seat=seat, name="B", starts_on=date(2028, 4, 1), by=clerk)
    services.seat_member(seat=seat, name="B", starts_on=date(2028, 4, 18), by=clerk)


# --- Votes ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ayes, carried", [(5, False), (6, True)])
def test_303_3d_8_c_five_and_six_ayes_of_seven_seats_with_a_vacancy(ayes, carried):
    motion = vote(clause=Clause.SIDEWALK_WAIVER, ayes=ayes, vacant=(4,), rule=Motion.Rule.THREE_FOURTHS_ENTIRE)
    assert (motion.seats, motion.present, motion.needed, motion.ayes) == (7, 6, 6, ayes)
    assert motion.carried is carried


def test_three_fourths_counts_absent_members_too():
    motion = vote(clause=Clause.SIDEWALK_WAIVER, ayes=5, absent=2, rule=Motion.Rule.THREE_FOURTHS_ENTIRE)
    assert motion.present == 5 and not motion.carried


@pytest.mark.parametrize("ayes, carried", [(2, False), (3, True)])
def test_a_majority_of_the_five_present(ayes, carried):
    motion = vote(clause=Clause.OTHER, ayes=ayes, nays=5 - ayes, absent=2)
    assert motion.needed == 3 and motion.carried is carried


def test_61_32_no_vote_without_a_quorum():
    with pytest.raises(RulesBroken) as error:
        vote(clause=Clause.OTHER, ayes=3, absent=4)
    assert codes(error) == {"no_quorum"}
    assert not Motion.objects.exists()


def test_only_members_present_vote(clerk):
    terms = seat_members()
    meeting = services.schedule_meeting(held_on=MEETING, by=clerk)
    services.record_attendance(meeting=meeting, present=terms[:6], by=clerk)
    item = services.add_agenda_item(meeting=meeting, title="X", by=clerk)
    with pytest.raises(RulesBroken) as error:
        services.record_motion(item=item, text="M", votes={terms[6]: Vote.Choice.AYE}, by=clerk)
    assert codes(error) == {"voter_not_present"}


def test_attendance_only_of_members_seated_that_day(clerk):
    seat_members()
    later = Term.objects.create(seat=Seat.objects.get(number=2), name="Newcomer", starts_on=MEETING + timedelta(days=1))
    meeting = services.schedule_meeting(held_on=MEETING, by=clerk)
    with pytest.raises(RulesBroken) as error:
        services.record_attendance(meeting=meeting, present=[later], by=clerk)
    assert codes(error) == {"not_seated"}


def test_a_locked_meeting_is_the_record(clerk):
    motion = vote(clause=Clause.OTHER, ayes=5, clerk=clerk)
    meeting = services.lock_meeting(meeting=motion.item.meeting, by=clerk)
    with pytest.raises(RulesBroken) as error:
        services.add_agenda_item(meeting=meeting, title="Late item", by=clerk)
    assert codes(error) == {"meeting_locked"}
    with pytest.raises(RulesBroken):
        services.record_attendance(meeting=meeting, present=[], by=clerk)


@pytest.mark.parametrize(
    "persona", ["dpw_director", "inspector", "building_inspector", "police_chief", "board_member", "president"]
)
def test_only_the_clerk_keeps_the_minutes(persona, request):
    with pytest.raises(PermissionDenied):
        services.schedule_meeting(held_on=MEETING, by=request.getfixturevalue(persona))


# --- Designations -------------------------------------------------------------------------------------------------

START, END = date(2026, 3, 2), date(2026, 9, 30)


@pytest.mark.parametrize(
    "day, in_force",
    [
        (START - timedelta(days=1), False),
        (START, True),
        (START + timedelta(days=1), True),
        (END - timedelta(days=1), True),
        (END, True),
        (END + timedelta(days=1), False),
    ],
)
def test_designation_in_force_from_its_start_through_its_end(dpw_director, day, in_force):
    designate(Clause.WINTER_EMERGENCY, user=dpw_director, starts_on=START, ends_on=END)
    assert services.may_act_for(dpw_director, Clause.WINTER_EMERGENCY, on=day) is in_force


def test_a_designation_is_for_its_clause_only(dpw_director):
    designate(Clause.WINTER_EMERGENCY, user=dpw_director, starts_on=START)
    assert services.may_act_for(dpw_director, Clause.WINTER_EMERGENCY, on=START)
    assert not services.may_act_for(dpw_director, Clause.MORATORIUM_EXCEPTION, on=START)


def test_an_office_designated_covers_whoever_holds_it(dpw_director, inspector, clerk):
    designate(Clause.RUBBISH, role=Role.DPW_INSPECTOR, starts_on=START)
    assert services.may_act_for(inspector, Clause.RUBBISH, on=START)
    assert not services.may_act_for(dpw_director, Clause.RUBBISH, on=START)
    assert not services.may_act_for(clerk, Clause.RUBBISH, on=START)


def test_no_role_is_a_designee_by_itself(dpw_director, board_member, president, clerk, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    for user in (dpw_director, board_member, president, clerk, root):
        assert not services.may_act_for(user, Clause.WINTER_EMERGENCY, on=START)


def test_a_failed_motion_designates_nobody(clerk, dpw_director):
    failed = vote(clause=Clause.WINTER_EMERGENCY, ayes=2, nays=5, held_on=START, clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        services.designate(clause=Clause.WINTER_EMERGENCY, user=dpw_director, starts_on=START, motion=failed, by=clerk)
    assert codes(error) == {"motion_failed"}


def test_a_motion_under_another_clause_designates_nobody(clerk, dpw_director):
    other = vote(clause=Clause.RUBBISH, ayes=6, held_on=START, clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        services.designate(clause=Clause.WINTER_EMERGENCY, user=dpw_director, starts_on=START, motion=other, by=clerk)
    assert codes(error) == {"wrong_clause"}


def test_a_designation_starts_no_earlier_than_its_meeting(clerk, dpw_director):
    motion = vote(clause=Clause.WINTER_EMERGENCY, ayes=6, held_on=START, clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        services.designate(
            clause=Clause.WINTER_EMERGENCY,
            user=dpw_director,
            starts_on=START - timedelta(days=1),
            motion=motion,
            by=clerk,
        )
    assert codes(error) == {"before_motion"}


def test_require_board_or_designee_accepts_the_boards_own_motion_recorded_by_the_clerk(clerk, board_member):
    motion = vote(clause=Clause.WINTER_EMERGENCY, ayes=6, held_on=START, clerk=clerk)
    assert services.require_board_or_designee(clerk, Clause.WINTER_EMERGENCY, on=START, action="x", motion=motion)
    with pytest.raises(PermissionDenied):  # a member does not record the Board's act alone
        services.require_board_or_designee(board_member, Clause.WINTER_EMERGENCY, on=START, action="x", motion=motion)
    with pytest.raises(RulesBroken) as error:  # the meeting came after the act
        services.require_board_or_designee(
            clerk, Clause.WINTER_EMERGENCY, on=START - timedelta(days=1), action="x", motion=motion
        )
    assert codes(error) == {"future_motion"}


@pytest.mark.slow
def test_the_demo_board_has_seven_seats_a_past_meeting_and_designations_in_force(db):
    from django.core.management import call_command

    call_command("load_demo", stdout=__import__("io").StringIO())
    call_command("load_demo", stdout=__import__("io").StringIO())
    from django.utils import timezone

    today = timezone.localdate()
    assert services.seats_on(today) == 7 and services.members_on(today).count() == 7
    assert Motion.objects.filter(outcome="carried").exists() and Motion.objects.filter(outcome="failed").exists()
    failed = Motion.objects.get(outcome="failed")
    assert (failed.ayes, failed.seats, failed.needed) == (5, 7, 6)
    assert {d.clause for d in services.designations_in_force(today)} == {"303-2", "303-5A", "303-5I"}
    assert board_clerk  # the helper stays importable for the other Board tests
