"""Small things a reader notices (issue 28, item 15): a start with no end, the favicon, counts in words."""

import pytest
from django.urls import reverse

from permits.models import Permit, Status
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def test_planned_dates_without_an_end_do_not_end_in_to(client, resident):
    import datetime

    permit = permit_in(Status.SUBMITTED, applicant=resident)
    Permit.objects.filter(pk=permit.pk).update(start_date=datetime.date(2027, 4, 20), end_date=None)
    client.force_login(resident)
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "From Apr 20, 2027 (no end date yet)" in page
    assert "Apr 20, 2027 to" not in page


def test_every_page_names_its_icon(client):
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page and 'href="data:,"' not in page


def test_a_submission_never_drafted_does_not_say_was_draft(client, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(resident)
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "(was draft)" not in page
