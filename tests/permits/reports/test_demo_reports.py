"""Every report over the demo village, as each demo reader opens it: the chart, the table and both files."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from permits.demo import load_demo
from permits.reports import rules

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_each_demo_account_opens_the_reports_it_may_read_and_no_other(client):
    load_demo(password="demo-password-123")
    users = get_user_model().objects
    for username in ("clerk", "board", "president"):
        client.force_login(users.get(username=username))
        for slug in rules.REPORT_SLUGS:
            page = client.get(reverse("reports:report", args=[slug]))
            assert page.status_code == 200, (username, slug)
            assert 'role="img"' in page.content.decode()
            assert client.get(reverse("reports:csv", args=[slug])).status_code == 200
    assert client.get(reverse("reports:pdf", args=["inspections"])).content.startswith(b"%PDF")
    # The DPW reads the inspections report only; the other demo accounts no report (one demo load: it is slow).
    for username in ("dpw", "inspector"):
        client.force_login(users.get(username=username))
        assert client.get(reverse("reports:report", args=["inspections"])).status_code == 200
        assert client.get(reverse("reports:report", args=["fees"])).status_code == 403
    for username in ("building", "police", "resident", "contractor", "utility"):
        client.force_login(users.get(username=username))
        assert client.get(reverse("reports:index")).status_code == 403, username
