"""The reviewer asks the applicant for information; the applicant sees the question on My applications and at the
top of the permit page, answers with a document; the reviewer finds the answer flagged in the office list and goes
on with the review, which ends the flag. Each step through pages by the role whose duty it is, axe-core on each."""

import re
from datetime import datetime

import pytest
import time_machine
from django.urls import reverse
from playwright.sync_api import expect

from permits.models import Status
from permits.street_opening import services as so
from tests.browser import steps
from tests.factories import StreetFactory
from tests.permits.street_opening.conftest import valid_data
from tests.upload_samples import PDF

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

QUESTION = "Add a sketch of the trench with its depth."


@pytest.fixture
def application(contractor, contractor_org, clerk, dpw_director, live_server, board_bond_amounts):
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=steps.CHICAGO), tick=True):
        steps.street_opening_fees()
        at = datetime(2026, 1, 5, tzinfo=steps.CHICAGO)
        steps.annual_bond(contractor_org, 2026, recorded_by=clerk, recorded_at=at)
        steps.verified(contractor, clerk, dpw_director)
        street = StreetFactory(name="Henni Street")
        permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
        yield permit


def test_reviewer_asks_applicant_answers_with_a_document_reviewer_goes_on(page, live_server, axe_check, application):
    number = application.number
    # The Director of Public Works, reviewing, asks from the permit page.
    steps.sign_in(page, live_server, "dpw")
    page.goto(live_server.url + application.get_absolute_url())
    page.get_by_label("What must the applicant add or correct?").fill(QUESTION)
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_text("The applicant was asked for the information.")).to_be_visible()
    expect(page.get_by_role("heading", name="Waiting for the applicant's answer")).to_be_visible()
    axe_check(page, "permit page, waiting for the applicant (reviewer)")
    steps.log_out(page)

    # The applicant sees the question on My applications and at the top of the permit page.
    steps.sign_in(page, live_server, "contractor")
    page.goto(live_server.url + reverse("permits:my_applications"))
    row = page.get_by_role("row", name=re.compile(number))
    expect(row).to_contain_text(f"The Village asked for information: {QUESTION}, asked on May 4, 2026")
    expect(row).to_contain_text("Information requested")
    axe_check(page, "my applications, information requested")
    row.get_by_role("link", name=number).click()
    expect(page.get_by_role("heading", name="The Village asked for information")).to_be_visible()
    axe_check(page, "permit page with the question (applicant)")
    page.get_by_label("Your answer").fill("The sketch is attached: 5 feet deep.")
    page.get_by_label("The documents are").select_option("plans")
    page.get_by_label(re.compile(r"^\s*Documents \(optional")).set_input_files(
        files=[{"name": "trench-sketch.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Send the answer").click()
    expect(page.get_by_text("Your answer was sent to the Village")).to_be_visible()
    expect(page.get_by_role("heading", name="Requests for information")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("trench-sketch.pdf")).first).to_be_visible()
    assert page.get_by_role("heading", name="The Village asked for information").count() == 0
    axe_check(page, "permit page, answered (applicant)")
    steps.log_out(page)

    # The reviewer finds the answer flagged first in the office list and goes on with the review.
    steps.sign_in(page, live_server, "dpw")
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Village office").first.click()
    answered = page.locator("section", has=page.get_by_role("heading", name=re.compile("^Answered")))
    expect(answered).to_contain_text("The sketch is attached: 5 feet deep.")
    expect(page.get_by_role("row", name=re.compile(number))).to_contain_text("Answered")
    axe_check(page, "office list with an answered request")
    answered.get_by_role("link", name=number).click()
    expect(page.get_by_text("The sketch is attached: 5 feet deep.").first).to_be_visible()
    page.get_by_role("link", name="Village actions on this permit").click()
    page.get_by_role("button", name="Application complete: start review").click()
    page.goto(live_server.url + application.get_absolute_url())
    application.refresh_from_db()
    assert application.status == Status.UNDER_REVIEW
    page.get_by_role("link", name="Village office").first.click()
    assert page.get_by_role("heading", name=re.compile("^Answered")).count() == 0
    axe_check(page, "office list after the review went on")
