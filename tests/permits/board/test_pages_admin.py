"""The Village Board's staff page and back office: who may open and record what, the vote counted against the roster,
and page queries that do not grow with rows."""

from datetime import date

import pytest
from django.urls import reverse

from permits.board.models import Designation, Motion
from tests.board_world import designate, seat_members, vote

pytestmark = pytest.mark.django_db

STAFF = ["clerk", "dpw_director", "inspector", "building_inspector", "police_chief", "board_member", "president"]


@pytest.mark.parametrize("persona", STAFF)
def test_staff_see_the_roster_and_the_designations_in_force(client, persona, request):
    from permits.board.models import Term

    designate("303-5A", role="Director of Public Works", starts_on=date(2020, 1, 1))
    Term.objects.filter(seat__number=5).update(ends_on=date(2020, 1, 1))  # seat 5 vacant since
    client.force_login(request.getfixturevalue(persona))
    page = client.get(reverse("board:board")).content.decode()
    assert "Vacant" in page and "Member 4" in page and "Director of Public Works" in page
    assert "is 6 ayes" in page


@pytest.mark.parametrize("persona", ["resident", "contractor"])
def test_the_public_does_not_open_the_board_staff_page(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("board:board")).status_code == 403


@pytest.mark.slow
def test_board_page_queries_do_not_grow_with_meetings(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    for day in (1, 2):
        vote(clause="other", ayes=5, held_on=date(2026, 1, day))
    with django_assert_max_num_queries(14):
        assert client.get(reverse("board:board")).status_code == 200
    for day in range(3, 15):
        vote(clause="other", ayes=5, held_on=date(2026, 1, day))
    with django_assert_max_num_queries(14):
        assert client.get(reverse("board:board")).status_code == 200


def _meeting_with_attendance(clerk, vacant=(7,)):
    from permits.board import services

    terms = seat_members(vacant=vacant)
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    services.record_attendance(meeting=meeting, present=terms, by=clerk)
    item = services.add_agenda_item(meeting=meeting, title="Width waiver", clause="303-3D(8)(c)", by=clerk)
    return terms, item


@pytest.mark.parametrize("ayes, outcome", [(5, "failed"), (6, "carried")])
def test_303_3d_8_c_clerk_records_a_vote_in_the_admin_counted_against_the_roster(client, clerk, ayes, outcome):
    terms, item = _meeting_with_attendance(clerk)
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_motion_add"),
        {
            "item": item.pk,
            "text": "To waive the width",
            "rule": "three_fourths_entire",
            "resolution_number": f"2026-{ayes}",
            "voted_aye": [t.pk for t in terms[:ayes]],
            "voted_nay": [t.pk for t in terms[ayes:]],
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    motion = Motion.objects.get()
    assert (motion.outcome, motion.seats, motion.present, motion.needed) == (outcome, 7, 6, 6)
    assert motion.votes.count() == 6


def test_admin_refuses_a_vote_by_a_member_not_present_and_stores_nothing(client, clerk):
    from permits.board.models import Seat, Term

    terms, item = _meeting_with_attendance(clerk)
    stranger = Term.objects.create(seat=Seat.objects.get(number=7), name="Later", starts_on=date(2027, 1, 1))
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_motion_add"),
        {"item": item.pk, "text": "M", "rule": "majority_present", "voted_aye": [terms[0].pk, stranger.pk]},
    )
    assert response.status_code == 200 and "Only members present vote" in response.content.decode()
    assert not Motion.objects.exists()


@pytest.mark.parametrize("persona", ["board_member", "president", "dpw_director"])
def test_only_the_clerk_records_motions_and_designations_in_the_admin(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("admin:permits_motion_add")).status_code == 403
    assert client.get(reverse("admin:permits_designation_add")).status_code == 403
    assert client.get(reverse("admin:permits_meeting_add")).status_code == 403


def test_clerk_records_a_designation_in_the_admin_and_it_is_read_only(client, clerk, dpw_director):
    motion = vote(clause="303-5I", ayes=5, held_on=date(2026, 3, 3))
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_designation_add"),
        {"clause": "303-5I", "user": dpw_director.pk, "role": "", "starts_on": "2026-03-03", "motion": motion.pk},
    )
    assert response.status_code == 302
    designation = Designation.objects.get()
    assert designation.recorded_by == clerk
    change = client.post(
        reverse("admin:permits_designation_change", args=[designation.pk]),
        {"clause": "303-5I", "user": dpw_director.pk, "starts_on": "2020-01-01", "motion": motion.pk},
    )
    assert change.status_code == 403
    designation.refresh_from_db()
    assert designation.starts_on == date(2026, 3, 3)


def test_clerk_schedules_a_meeting_records_attendance_and_locks_it_in_the_admin(client, clerk):
    from permits.board.models import Attendance, Meeting

    terms = seat_members()
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_meeting_add"), {"kind": "regular", "held_on": "2026-06-02", "title": "June"}
    )
    assert response.status_code == 302
    meeting = Meeting.objects.get()
    assert meeting.created_by == clerk
    change = reverse("admin:permits_meeting_change", args=[meeting.pk])
    data = {
        "kind": "regular",
        "held_on": "2026-06-02",
        "title": "June",
        "present": [t.pk for t in terms[:5]],
        "items-TOTAL_FORMS": 0,
        "items-INITIAL_FORMS": 0,
        "attendance-TOTAL_FORMS": 0,
        "attendance-INITIAL_FORMS": 0,
    }
    assert client.post(change, data).status_code == 302
    assert Attendance.objects.filter(meeting=meeting, present=True).count() == 5
    assert Attendance.objects.filter(meeting=meeting, present=False).count() == 2
    client.post(
        reverse("admin:permits_meeting_changelist"), {"action": "lock_minutes", "_selected_action": [meeting.pk]}
    )
    meeting.refresh_from_db()
    assert meeting.is_locked
    assert client.post(change, {**data, "present": [terms[0].pk]}).status_code == 403
