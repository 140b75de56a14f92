"""The clerk's Board pages: the queue read from the matter modules, the agenda built from it, the packet, the
attendance and a vote whose rule comes from the clause (§ 303-3D(8)(c): three-fourths of the entire Board, from the
roster), the result flowing back to the subject; designations ended by a motion; members seated and their terms
ended. Every page: the clerk writes, the Board and the President read, everyone else is refused."""

from datetime import date

import pytest
from django.urls import reverse

from permits.board import services
from permits.board.models import AgendaItem, Designation, Meeting, Motion, Term
from permits.paging import PAGE_SIZE
from permits.state import history_of
from sidewalks.models import BoardWaiver, WaiverRequest
from tests.board_world import designate, seat_members, vote
from tests.factories import ParcelFactory

pytestmark = pytest.mark.django_db

DAY = date(2026, 6, 2)


def _waiver_request(clerk, kind="width_thickness"):
    from sidewalks import services as sidewalk_services

    parcel = ParcelFactory(land_use="commercial")
    if kind == "cold_weather":  # § 303-3D(9): for one emergency on one permit, until its last day
        from tests.sidewalks.conftest import cold_weather_request

        return cold_weather_request(clerk, parcel)
    return sidewalk_services.request_board_waiver(kind=kind, parcel=parcel, reason="Narrow frontage", by=clerk)


def _meeting_on_waiver(clerk, *, present=6, vacant=(7,)):
    terms = seat_members(vacant=vacant)
    request = _waiver_request(clerk)
    meeting = services.schedule_meeting(held_on=DAY, title="June", by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=request, clause="303-3D(8)(c)", by=clerk)
    services.record_attendance(meeting=meeting, present=terms[:present], by=clerk)
    return terms[:present], item, request


def _vote_post(terms, ayes, number="2026-30"):
    data = {"text": "To waive the width", "resolution_number": number}
    for i, t in enumerate(terms):
        data[f"vote_{t.pk}"] = "aye" if i < ayes else "nay"
    return data


def test_queue_lists_a_waiver_request_with_its_facts(client, clerk):
    _waiver_request(clerk)
    client.force_login(clerk)
    page = client.get(reverse("board:queue")).content.decode()
    assert "Sidewalk width and thickness waivers" in page and "Narrow frontage" in page
    assert "Three-fourths of the entire Board" in page


def test_clerk_adds_a_queued_matter_to_a_meeting(client, clerk):
    request = _waiver_request(clerk)
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    client.force_login(clerk)
    key = f"303-3D(8)(c)|sidewalks.WaiverRequest|{request.pk}"
    response = client.post(reverse("board:add_to_agenda"), {"meeting": meeting.pk, "matter": key})
    assert response.status_code == 302
    item = AgendaItem.objects.get()
    assert (item.subject, item.clause, item.order) == (request, "303-3D(8)(c)", 1)
    # A second time is refused: it is on an agenda, undecided
    client.post(reverse("board:add_to_agenda"), {"meeting": meeting.pk, "matter": key})
    assert AgendaItem.objects.count() == 1
    assert "On the agenda of the" in client.get(reverse("board:queue")).content.decode()


def test_clerk_reorders_the_agenda(client, clerk):
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    first = services.add_agenda_item(meeting=meeting, title="First", by=clerk)
    second = services.add_agenda_item(meeting=meeting, title="Second", by=clerk)
    client.force_login(clerk)
    client.post(reverse("board:meeting_act", args=[meeting.pk, "up"]), {"item": second.pk})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (second.order, first.order) == (1, 2)


def test_19_84_agenda_published_on_the_meeting_day_passes_and_the_day_after_is_refused(client, clerk):
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    services.add_agenda_item(meeting=meeting, title="First", by=clerk)
    client.force_login(clerk)
    url = reverse("board:meeting_act", args=[meeting.pk, "publish"])
    response = client.post(url, {"agenda_published_on": "2026-06-03"})
    assert response.status_code == 400 and "before the meeting" in response.content.decode()
    meeting.refresh_from_db()
    assert meeting.agenda_published_on is None
    assert client.post(url, {"agenda_published_on": "2026-06-02"}).status_code == 302
    meeting.refresh_from_db()
    assert meeting.agenda_published_on == DAY


def test_19_84_an_empty_agenda_is_not_published(clerk):
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    with pytest.raises(Exception, match="no items"):
        services.publish_agenda(meeting=meeting, on=DAY, by=clerk)


@pytest.mark.slow
def test_packet_is_a_pdf_with_the_items_facts(client, clerk):
    _terms, item, _request = _meeting_on_waiver(clerk)
    client.force_login(clerk)
    response = client.get(reverse("board:packet", args=[item.meeting.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_clerk_records_attendance_from_the_roster(client, clerk):
    terms = seat_members()
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    client.force_login(clerk)
    response = client.post(
        reverse("board:meeting_act", args=[meeting.pk, "attendance"]), {"present": [t.pk for t in terms[:5]]}
    )
    assert response.status_code == 302
    assert meeting.attendance.filter(present=True).count() == 5
    assert meeting.attendance.filter(present=False).count() == 2


@pytest.mark.parametrize("ayes, outcome, status", [(5, "failed", "denied"), (6, "carried", "waived")])
def test_303_3d_8_c_waiver_vote_is_three_fourths_of_seven_seats_from_the_roster(client, clerk, ayes, outcome, status):
    terms, item, request = _meeting_on_waiver(clerk)  # 6 present, seat 7 vacant: still 7 seats, 6 ayes needed
    client.force_login(clerk)
    response = client.post(reverse("board:vote", args=[item.pk]), _vote_post(terms, ayes))
    assert response.status_code == 302
    motion = Motion.objects.get()
    assert (motion.rule, motion.outcome, motion.seats, motion.needed) == ("three_fourths_entire", outcome, 7, 6)
    request.refresh_from_db()
    assert request.status == status
    assert BoardWaiver.objects.filter(parcel=request.parcel).exists() == (outcome == "carried")


@pytest.mark.parametrize("ayes, status", [(5, "denied"), (6, "waived")])
def test_the_boards_decision_on_a_waiver_request_is_audited(client, clerk, ayes, status):
    terms, item, request = _meeting_on_waiver(clerk)
    client.force_login(clerk)
    assert client.post(reverse("board:vote", args=[item.pk]), _vote_post(terms, ayes)).status_code == 302
    (change,) = history_of(request)
    assert (change.from_state, change.to_state, change.actor) == ("pending", status, clerk)
    assert "§ 303-3D(8)(c)" in change.reason


def test_303_3d_8_c_carried_waiver_without_a_resolution_number_stores_nothing(client, clerk):
    terms, item, request = _meeting_on_waiver(clerk)
    client.force_login(clerk)
    response = client.post(reverse("board:vote", args=[item.pk]), _vote_post(terms, 6, number=""))
    assert response.status_code == 400 and "resolution number" in response.content.decode()
    assert not Motion.objects.exists()
    request.refresh_from_db()
    assert request.status == WaiverRequest.Status.PENDING


def test_303_3d_9_cold_pour_waiver_is_a_majority_of_those_present(client, clerk):
    terms = seat_members()
    request = _waiver_request(clerk, kind="cold_weather")
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=request, clause="303-3D(9)", by=clerk)
    services.record_attendance(meeting=meeting, present=terms[:4], by=clerk)
    client.force_login(clerk)
    client.post(reverse("board:vote", args=[item.pk]), _vote_post(terms[:4], 3))
    motion = Motion.objects.get()
    assert (motion.rule, motion.outcome, motion.needed) == ("majority_present", "carried", 3)


def test_vote_form_needs_every_present_members_vote(client, clerk):
    terms, item, _request = _meeting_on_waiver(clerk)
    data = _vote_post(terms, 6)
    del data[f"vote_{terms[0].pk}"]
    client.force_login(clerk)
    response = client.post(reverse("board:vote", args=[item.pk]), data)
    assert response.status_code == 400
    assert not Motion.objects.exists()


def test_locked_minutes_refuse_attendance(client, clerk):
    _terms, item, _request = _meeting_on_waiver(clerk)
    client.force_login(clerk)
    client.post(reverse("board:meeting_act", args=[item.meeting.pk, "lock"]))
    response = client.post(reverse("board:meeting_act", args=[item.meeting.pk, "attendance"]), {"present": []})
    assert response.status_code == 400 and "locked" in response.content.decode()
    assert item.meeting.attendance.filter(present=True).count() == 6


def test_clerk_ends_a_designation_by_a_motion(client, clerk):
    designation = designate("303-5A", role="Director of Public Works", starts_on=date(2020, 1, 1))
    ending = vote(clause="303-5A", ayes=5, held_on=date(2026, 3, 3), number="2026-D9")
    client.force_login(clerk)
    url = reverse("board:end_designation", args=[designation.pk])
    client.post(url, {"ends_on": "2026-03-02", "motion": ending.pk})  # the day before the meeting: refused
    designation.refresh_from_db()
    assert designation.ends_on is None
    client.post(url, {"ends_on": "2026-03-03", "motion": ending.pk})
    designation.refresh_from_db()
    assert (designation.ends_on, designation.ended_by) == (date(2026, 3, 3), ending)
    assert not services.may_act_for(_dpw(), "303-5A", on=date(2026, 3, 4))


def _dpw():
    from django.contrib.auth.models import Group

    from tests.factories import UserFactory

    user = UserFactory()
    user.groups.add(Group.objects.get(name="Director of Public Works"))
    return user


def designate_on_the_page(client, clerk, starts_on):
    """The clerk posts a § 303-5I designation of the DPW director under a motion carried March 3, 2026."""
    motion = vote(clause="303-5I", ayes=5, held_on=date(2026, 3, 3))
    client.force_login(clerk)
    return client.post(
        reverse("board:designations"),
        {"clause": "303-5I", "role": "Director of Public Works", "starts_on": starts_on, "motion": motion.pk},
    )


def test_clerk_records_a_designation_on_the_page(client, clerk):
    response = designate_on_the_page(client, clerk, starts_on="2026-03-03")
    assert response.status_code == 302
    assert Designation.objects.get().role == "Director of Public Works"


def test_a_designation_starting_before_its_meeting_is_refused_naming_the_field(client, clerk):
    response = designate_on_the_page(client, clerk, starts_on="2026-03-02")
    assert response.status_code == 400 and "starts on or after the meeting" in response.content.decode()
    assert not Designation.objects.exists()


def test_clerk_seats_a_member_and_ends_the_term(client, clerk):
    from tests.board_world import ensure_seats

    seat = ensure_seats()[1]
    client.force_login(clerk)
    response = client.post(reverse("board:members"), {"seat": seat.pk, "name": "Ann Lee", "starts_on": "2026-04-21"})
    assert response.status_code == 302
    term = Term.objects.get(name="Ann Lee")
    client.post(reverse("board:end_term", args=[term.pk]), {"ends_on": "2027-04-19"})
    term.refresh_from_db()
    assert term.ends_on == date(2027, 4, 19)
    # An overlapping term on the same seat is refused, naming the seat
    response = client.post(reverse("board:members"), {"seat": seat.pk, "name": "Bo", "starts_on": "2027-04-19"})
    assert response.status_code == 400 and "held by Ann Lee" in response.content.decode()


# --- Who may open and write each page ------------------------------------------------------------------------------

READ_PAGES = ["board:queue", "board:meetings", "board:designations", "board:members"]


@pytest.mark.parametrize("persona", ["clerk", "board_member", "president"])
@pytest.mark.parametrize("name", READ_PAGES)
def test_clerk_board_and_president_read_the_board_pages(client, persona, name, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse(name)).status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize("persona", ["board_member", "president"])
def test_board_and_president_read_a_meeting_its_vote_page_and_packet(client, clerk, persona, request):
    _terms, item, _request = _meeting_on_waiver(clerk)
    client.force_login(request.getfixturevalue(persona))
    page = client.get(reverse("board:meeting", args=[item.meeting.pk])).content.decode()
    assert "Record the attendance" not in page and "Lock the minutes" not in page
    assert "Record the vote" not in client.get(reverse("board:vote", args=[item.pk])).content.decode()
    assert client.get(reverse("board:packet", args=[item.meeting.pk])).status_code == 200


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "police_chief", "resident", "contractor", "outsider"])
@pytest.mark.parametrize("name", READ_PAGES)
def test_others_do_not_open_the_board_pages(client, persona, name, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse(name)).status_code == 403


@pytest.mark.parametrize("persona", ["board_member", "president", "dpw_director", "resident"])
def test_only_the_clerk_writes(client, clerk, persona, request):
    terms, item, waiver_request = _meeting_on_waiver(clerk)
    meeting = item.meeting
    client.force_login(request.getfixturevalue(persona))
    key = f"303-3D(8)(c)|sidewalks.WaiverRequest|{waiver_request.pk}"
    posts = [
        (reverse("board:meetings"), {"held_on": "2026-07-07", "kind": "regular"}),
        (reverse("board:add_to_agenda"), {"meeting": meeting.pk, "matter": key}),
        (reverse("board:meeting_act", args=[meeting.pk, "publish"]), {"agenda_published_on": "2026-05-29"}),
        (reverse("board:meeting_act", args=[meeting.pk, "attendance"]), {"present": []}),
        (reverse("board:meeting_act", args=[meeting.pk, "lock"]), {}),
        (reverse("board:vote", args=[item.pk]), _vote_post(terms, 6)),
        (reverse("board:members"), {"seat": terms[0].seat_id, "name": "X", "starts_on": "2030-01-01"}),
        (reverse("sidewalks:waiver_request"), {"kind": "cold_weather", "tax_key": "x", "reason": "y"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert Meeting.objects.count() == 1 and not Motion.objects.exists()
    meeting.refresh_from_db()
    assert meeting.agenda_published_on is None and not meeting.is_locked


def test_missing_meeting_is_404(client, clerk):
    client.force_login(clerk)
    assert client.get(reverse("board:meeting", args=[999])).status_code == 404


def test_queue_and_meeting_queries_do_not_grow_with_rows(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    _waiver_request(clerk)
    meeting = services.schedule_meeting(held_on=DAY, by=clerk)
    with django_assert_max_num_queries(25):
        assert client.get(reverse("board:queue")).status_code == 200
    for _ in range(10):
        r = _waiver_request(clerk)
        services.add_matter_to_agenda(meeting=meeting, subject=r, clause="303-3D(8)(c)", by=clerk)
    with django_assert_max_num_queries(25):
        assert client.get(reverse("board:queue")).status_code == 200
    with django_assert_max_num_queries(25):
        assert client.get(reverse("board:meeting", args=[meeting.pk])).status_code == 200


@pytest.mark.slow
def test_demo_has_a_board_a_past_meeting_with_votes_and_a_waiver_waiting(client):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("load_demo")
    past = Meeting.objects.get(title="Regular meeting (demo)")
    assert past.is_locked and Motion.objects.filter(item__meeting=past).count() >= 5
    assert Meeting.objects.filter(title="Next regular meeting (demo)", locked_at__isnull=True).count() == 1
    assert WaiverRequest.objects.filter(status="pending").count() == 1
    client.force_login(get_user_model().objects.get(username="clerk"))
    assert "historic storefront" in client.get(reverse("board:queue")).content.decode()


def test_vote_page_names_the_absent_members(client, clerk):
    _terms, item, _request = _meeting_on_waiver(clerk, present=5, vacant=())
    client.force_login(clerk)
    page = client.get(reverse("board:vote", args=[item.pk])).content.decode()
    assert "Absent, so not voting: Member 6, Member 7." in page
    assert "6 ayes needed" in page  # three-fourths of the 7 seats, whoever is absent


def test_a_matter_left_on_a_locked_agenda_waits_again(client, clerk):
    _terms, item, _request = _meeting_on_waiver(clerk)
    services.lock_meeting(meeting=item.meeting, by=clerk)
    services.schedule_meeting(held_on=date(2026, 7, 7), by=clerk)
    client.force_login(clerk)
    page = client.get(reverse("board:queue")).content.decode()
    assert "On the agenda of the" not in page and "Add to the agenda" in page


@pytest.mark.slow
def test_queue_shows_a_page_of_each_matter_and_its_own_page_has_the_rest(client, clerk, django_assert_max_num_queries):
    """The queue reads QUEUE_ROWS of a matter (counted, with the others, in one query); the matter's page
    is paged. Rows grow, the queries do not."""
    from permits.board import views
    from permits.board.matters import matter_for

    client.force_login(clerk)
    services.schedule_meeting(held_on=DAY, by=clerk)
    _waiver_request(clerk)
    with django_assert_max_num_queries(15) as few:
        client.get(reverse("board:queue"))
    for _ in range(2 * PAGE_SIZE):  # three pages of the matter
        _waiver_request(clerk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(reverse("board:queue")).content.decode()
    assert page.count("Add to the agenda<span") == views.QUEUE_ROWS
    key = matter_for("303-3D(8)(c)", "sidewalks.WaiverRequest").key
    assert (
        "More wait: every sidewalk width" in page and "?matter=303-3D%288%29%28c%29%7Csidewalks.WaiverRequest" in page
    )
    with django_assert_max_num_queries(len(few.captured_queries) + 1):  # the page's (capped) count
        second = client.get(reverse("board:queue"), {"matter": key, "page": 2}).content.decode()
    assert "Page 2 of 3" in second and second.count("Add to the agenda<span") == PAGE_SIZE
    assert client.get(reverse("board:queue"), {"matter": "no|such"}).status_code == 404
