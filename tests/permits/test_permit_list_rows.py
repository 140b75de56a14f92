"""The permit list's rows (permits/templatetags/permit_lists.py): the office list and "My applications" show, per
permit, its number linked to its page, type, street and location, status badge, next deadline and balance due, all
escaped; they fetch only those columns (permits.selectors.list_rows) and no query per row."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from permits.models import Permit, Status
from permits.selectors import LIST_ROW_FIELDS, list_rows, permits_visible_to
from permits.services import record_payment
from permits.templatetags.permit_lists import permit_rows
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def test_an_issued_permit_row_shows_its_link_status_expiry_and_balance(client, clerk, resident):
    permit = permit_in(Status.ISSUED, applicant=resident)
    Permit.objects.filter(pk=permit.pk).update(
        fee_amount=Decimal("50.00"), expires_on=date(2027, 3, 5), location_description="<b>Main</b> & 2nd"
    )
    record_payment(permit=permit, amount=Decimal("20.00"), method="cash", by=clerk)
    client.force_login(clerk)
    html = client.get(reverse("permits:office")).content.decode()
    assert f'<a href="{reverse("permits:detail", args=[permit.number])}">{permit.number}</a>' in html
    assert '<span class="badge text-bg-success">Issued</span>' in html
    assert "Permit expires: Mar 5, 2027" in html
    assert "$30.00" in html
    assert "&lt;b&gt;Main&lt;/b&gt; &amp; 2nd" in html and "<b>Main</b>" not in html


@pytest.mark.parametrize(
    ("status", "badge"),
    [
        (Status.DENIED, "text-bg-danger"),
        (Status.APPROVED, "text-bg-success"),
        (Status.WITHDRAWN, "text-bg-secondary"),
        (Status.SUBMITTED, "text-bg-primary"),
    ],
)
def test_the_badge_colour_follows_the_status(resident, status, badge):
    assert permit_in(status, applicant=resident).status_badge_class == badge


def test_an_empty_list_says_so():
    assert str(permit_rows([], "No applications match.")) == '<tr><td colspan="6">No applications match.</td></tr>'


def test_rows_load_only_the_listed_columns_and_read_no_deferred_field(resident, django_assert_num_queries):
    for status in (Status.SUBMITTED, Status.ISSUED, Status.APPROVED):
        permit_in(status, applicant=resident)
    with django_assert_num_queries(3):  # roles, organizations, then the rows: no deferred field is read after
        rows = list(list_rows(permits_visible_to(resident)))
        str(permit_rows(rows, ""))
    assert set(rows[0].get_deferred_fields()).isdisjoint({f.split("__")[0] for f in LIST_ROW_FIELDS})


def test_my_applications_rows_render_without_a_query_per_row(client, resident, django_assert_max_num_queries):
    for _ in range(3):
        permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(resident)
    client.get(reverse("permits:my_applications"))
    for _ in range(20):
        permit_in(Status.ISSUED, applicant=resident)
    with django_assert_max_num_queries(12):
        response = client.get(reverse("permits:my_applications"))
    assert response.content.decode().count('<th scope="row">') == 23
