"""The clerk's Board journey on the Board pages: put a sidewalk width waiver to the Board, build the agenda of a
meeting from the queue, publish it and download the packet, record who attended, then record a vote whose
three-fourths of the entire Board is computed from the roster (§ 303-3D(8)(c)), and see the waiver granted. Every
page with zero axe-core WCAG 2.1 A/AA violations."""

from datetime import date

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from permits.board import services
from permits.board.models import Motion
from permits.roles import Role
from sidewalks.models import BoardWaiver, WaiverRequest
from tests.board_world import seat_members
from tests.factories import ParcelFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_clerk_builds_an_agenda_and_records_a_three_fourths_waiver_vote(page, live_server, axe_check, login):
    from allauth.account.models import EmailAddress

    clerk = UserFactory(username="clerk", is_staff=True)
    clerk.groups.add(Group.objects.get_or_create(name=Role.CLERK.value)[0])
    EmailAddress.objects.create(user=clerk, email=clerk.email, verified=True, primary=True)
    terms = seat_members(vacant=(7,))  # seat 7 vacant: the entire Board is still 7 seats, 6 ayes needed
    ParcelFactory(tax_key="266-1116-2001", site_address="201 Main Street", land_use="commercial")
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), title="June", by=clerk)

    login(page, "clerk")
    page.goto(f"{live_server.url}/board/queue/")
    axe_check(page, "Board queue (empty)")
    page.get_by_role("link", name="Put a new one to the Board").first.click()
    page.locator("#id_kind").select_option("width_thickness")
    page.get_by_label("Parcel tax key").fill("266-1116-2001")
    page.get_by_label("Why the waiver is asked").fill("Historic storefront: a four-foot walk fits the frontage")
    axe_check(page, "waiver request")
    page.get_by_role("button", name="Put it to the Board").click()

    expect(page.get_by_text("201 Main Street").first).to_be_visible()
    axe_check(page, "Board queue")
    page.get_by_role("button", name="Add to the agenda").first.click()
    expect(page.get_by_role("heading", name="Agenda", exact=True)).to_be_visible()
    page.get_by_label("Agenda published on").fill("2026-05-29")
    page.get_by_role("button", name="Publish the agenda").click()
    expect(page.get_by_text("Agenda published May 29, 2026")).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the agenda packet (PDF)").click()
    with open(download.value.path(), "rb") as f:
        assert f.read(4) == b"%PDF"

    for term in terms:
        page.get_by_label(f"{term.name} (", exact=False).check()
    axe_check(page, "meeting with its agenda")
    page.get_by_role("button", name="Record the attendance").click()
    expect(page.get_by_text("6 present of 7 seats")).to_be_visible()

    page.get_by_role("link", name="Record the vote").click()
    expect(page.get_by_text("Three-fourths of the entire Board (§ 303-3D(8)(c))")).to_be_visible()
    expect(page.get_by_text("6 ayes needed")).to_be_visible()
    page.locator("#id_text").fill("To waive the five-foot width in front of 201 Main Street")
    page.get_by_label("Resolution number").fill("2026-31")
    for term in terms:
        page.get_by_role("group", name=f"{term.name} (", exact=False).get_by_label("Aye").check()
    axe_check(page, "vote form")
    page.get_by_role("button", name="Record the vote").click()

    expect(page.get_by_text("Carried: 6 ayes of 6 needed")).to_be_visible()
    motion = Motion.objects.get(resolution_number="2026-31")
    assert (motion.outcome, motion.seats, motion.present, motion.needed) == ("carried", 7, 6, 6)
    assert WaiverRequest.objects.get().status == WaiverRequest.Status.WAIVED
    assert BoardWaiver.objects.get().motion == motion
    page.get_by_role("button", name="Lock the minutes").click()
    expect(page.get_by_text("Minutes locked").first).to_be_visible()
    axe_check(page, "locked meeting")
    assert meeting.pk
