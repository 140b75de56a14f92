"""BLDS permits and status changes (CSV and JSON), and the iCalendar feeds: a street's closures (public) and a
permittee's own deadlines (private token), parsed back as a calendar program would."""

import csv
import io
import json
from datetime import date, timedelta

import pytest
from django.urls import reverse
from icalendar import Calendar

from permits.models import Permit, Status
from permits.streetmap.feeds import blds
from permits.streetmap.services import calendar_token_for
from permits.workflow import transition
from tests.factories import OrganizationFactory, PermitFactory
from tests.permits.streetmap.conftest import TODAY, opening, set_status

pytestmark = pytest.mark.django_db
# The core fields of the BLDS v1.2 "Permits" dataset in the standard's order, stated here as a CSV header opens
# (not read from permits.streetmap.feeds.blds: the test holds the module to the standard, not to itself).
CORE_HEADER = (
    "PermitNum,Description,AppliedDate,IssuedDate,CompletedDate,StatusCurrent,"
    "OriginalAddress1,OriginalAddress2,OriginalCity,OriginalState,OriginalZip"
)
CORE = CORE_HEADER.split(",")


def _csv(client, name):
    response = client.get(reverse(name, args=["csv"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_blds_csv_opens_with_its_core_columns(grid, monday, client):
    opening(grid["highland"], end=TODAY)
    response = client.get(reverse("streetmap:blds_permits", args=["csv"]))
    header = b"".join(response.streaming_content).decode().splitlines()[0].split(",")
    assert header[: len(CORE)] == CORE


def test_blds_rows_hold_the_permit_and_no_person(grid, monday, client):
    work = opening(grid["highland"], location="250 Highland Avenue", end=TODAY)
    row = _csv(client, "streetmap:blds_permits")[0]
    assert row["PermitNum"] == work.number
    assert row["OriginalCity"] == "Theresa" and row["OriginalState"] == "WI" and row["OriginalZip"] == "53091"
    assert row["StatusCurrentMapped"] == "Permit Issued"
    text = json.dumps(row)
    assert "Privatename" not in text and "rita.private" not in text


def test_drafts_are_not_published(grid, monday, client):
    PermitFactory(street=grid["highland"])
    assert _csv(client, "streetmap:blds_permits") == []


def test_blds_csv_cells_that_a_spreadsheet_would_run_are_text(grid, monday, client):
    """The public feed is opened in spreadsheets: a location or a company name beginning with = is written as text."""
    company = OrganizationFactory(name='=HYPERLINK("http://evil.example","Pay here")')
    opening(grid["highland"], location="=1+1 near the hydrant", organization=company, end=TODAY)
    row = _csv(client, "streetmap:blds_permits")[0]
    assert row["OriginalAddress2"] == "'=1+1 near the hydrant"
    assert row["ContractorCompanyName"] == "'" + company.name


@pytest.mark.parametrize(
    ("status", "issued", "published"),
    [
        (Status.SUBMITTED, False, False),
        (Status.UNDER_REVIEW, False, False),
        (Status.APPROVED, False, False),
        (Status.WITHDRAWN, False, False),
        (Status.DENIED, False, False),
        (Status.ISSUED, True, True),
        (Status.ACTIVE, True, True),
        (Status.COMPLETED, True, True),
        (Status.CLOSED, True, True),
        (Status.EXPIRED, True, True),
        (Status.REVOKED, True, True),
        (Status.EXPIRED, False, False),  # approved, never issued, then expired
        (Status.REVOKED, False, False),
        (Status.CLOSED, False, False),
    ],
)
def test_the_feed_publishes_only_permits_the_village_issued(grid, monday, client, status, issued, published):
    company = OrganizationFactory(name="Withdrawn Digging LLC")
    permit = opening(grid["highland"], status=status, organization=company, end=TODAY)
    Permit.objects.filter(pk=permit.pk).update(issued_on=TODAY if issued else None)
    assert blds.is_published(status=status, issued_on=TODAY if issued else None) is published
    rows = _csv(client, "streetmap:blds_permits")
    assert [r["PermitNum"] for r in rows] == ([permit.number] if published else [])
    body = json.dumps(json.loads(client.get(reverse("streetmap:blds_permits", args=["json"])).content))
    assert ("Withdrawn Digging LLC" in body) is published


def test_blds_json_has_the_same_rows(grid, monday, client):
    opening(grid["highland"], end=TODAY)
    rows = json.loads(client.get(reverse("streetmap:blds_permits", args=["json"])).content)
    assert list(rows[0])[: len(CORE)] == CORE


def test_blds_status_changes_come_from_the_timeline(grid, monday, client, resident):
    permit = PermitFactory(street=grid["highland"], applicant=resident, kind="street_use", number="SU-2026-0100")
    transition(permit, Status.SUBMITTED, by=resident)
    assert _csv(client, "streetmap:blds_status_changes") == []  # an application, not yet a permit
    set_status(permit, Status.ISSUED)
    rows = _csv(client, "streetmap:blds_status_changes")
    assert [(r["PermitNum"], r["StatusPrevious"], r["StatusCurrent"], r["StatusCurrentMapped"]) for r in rows] == [
        ("SU-2026-0100", "Draft", "Submitted", "Application Accepted")
    ]
    assert rows[0]["StatusChangeDate"] == "2026-05-04"


def test_an_unknown_format_is_not_found(client, db):
    assert client.get("/data/blds/permits.xml").status_code == 404


def test_every_status_has_a_blds_mapping_except_draft():
    assert set(blds.MAPPED_STATUS) == {s for s in Status if s != Status.DRAFT}


def _calendar(response) -> Calendar:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def test_a_street_calendar_imports_with_one_event_per_work(grid, monday, client):
    work = opening(grid["highland"], location="250 Highland Avenue", start=TODAY, end=TODAY + timedelta(days=2))
    opening(grid["milwaukee"], location="150 Milwaukee Street", end=TODAY)
    cal = _calendar(client.get(reverse("streetmap:street_calendar", args=[grid["highland"].pk])))
    events = cal.walk("VEVENT")
    assert [str(e["SUMMARY"]).split(":")[0] for e in events] == [work.number]
    assert events[0].decoded("DTSTART") == TODAY
    assert events[0].decoded("DTEND") == TODAY + timedelta(days=3)  # exclusive end: the day after the last day
    assert str(cal["VERSION"]) == "2.0" and cal["PRODID"]


def test_a_permittee_calendar_needs_its_private_token(grid, monday, client, contractor, outsider):
    mine = opening(
        grid["highland"], applicant=contractor, start=TODAY + timedelta(days=1), end=TODAY + timedelta(days=2)
    )
    mine.expires_on = date(2026, 6, 3)
    mine.save(update_fields=["expires_on"])
    opening(grid["highland"], applicant=outsider, end=TODAY)
    token = calendar_token_for(contractor).token
    events = _calendar(client.get(reverse("streetmap:my_calendar_feed", args=[token]))).walk("VEVENT")
    summaries = sorted(str(e["SUMMARY"]) for e in events)
    assert summaries == [f"{mine.number}: permit expires", f"{mine.number}: work may begin"]
    assert (
        client.get(reverse("streetmap:my_calendar_feed", args=["00000000-0000-0000-0000-000000000000"])).status_code
        == 404
    )


def test_a_new_calendar_link_ends_the_old_one(client, contractor):
    old = calendar_token_for(contractor).token
    client.force_login(contractor)
    assert client.post(reverse("streetmap:my_calendar")).status_code == 302
    assert client.get(reverse("streetmap:my_calendar_feed", args=[old])).status_code == 404
    page = client.get(reverse("streetmap:my_calendar")).content.decode()
    assert str(calendar_token_for(contractor).token) in page


def test_the_calendar_page_needs_a_login(client, db):
    assert client.get(reverse("streetmap:my_calendar")).status_code == 302
