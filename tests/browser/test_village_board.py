"""The clerk's Village Board journey: record who attended a meeting and a vote in the back office, then read the
roster, the designations in force and the outcome computed from the roster on the staff page (axe-core: zero
WCAG 2.1 A/AA violations)."""

from datetime import date

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from permits.board.models import Motion
from permits.roles import Role
from tests.board_world import designate, seat_members
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_clerk_records_a_vote_and_reads_the_board_page(page, live_server, axe_check, login):
    from allauth.account.models import EmailAddress

    clerk = UserFactory(username="clerk", is_staff=True)
    clerk.groups.add(Group.objects.get_or_create(name=Role.CLERK.value)[0])
    EmailAddress.objects.create(user=clerk, email=clerk.email, verified=True, primary=True)
    designate("303-5A", role=Role.DPW_DIRECTOR, starts_on=date(2020, 1, 1))
    from permits.board import services

    terms = seat_members()
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), title="June", by=clerk)
    services.record_attendance(meeting=meeting, present=terms[:6], by=clerk)
    item = services.add_agenda_item(meeting=meeting, title="Width waiver, 201 Main", clause="303-3D(8)(c)", by=clerk)

    login(page, "clerk")
    page.goto(f"{live_server.url}/admin/permits/motion/add/")
    page.locator("#id_item").select_option(str(item.pk))
    page.locator("#id_text").fill("To waive the five-foot width at 201 Main Street")
    page.locator("#id_rule").select_option("three_fourths_entire")
    page.locator("#id_resolution_number").fill("2026-21")
    page.locator("#id_voted_aye").select_option([str(t.pk) for t in terms[:5]])
    page.locator("#id_voted_nay").select_option(str(terms[5].pk))
    page.get_by_role("button", name="Save", exact=True).click()
    motion = Motion.objects.get(resolution_number="2026-21")
    assert (motion.outcome, motion.ayes, motion.needed, motion.seats) == ("failed", 5, 6, 7)

    page.goto(f"{live_server.url}/board/")
    expect(page.get_by_role("heading", name="Village Board")).to_be_visible()
    expect(page.get_by_text("Failed", exact=True)).to_be_visible()
    expect(page.get_by_text("the Director of Public Works", exact=False).first).to_be_visible()
    axe_check(page, "Village Board page")
