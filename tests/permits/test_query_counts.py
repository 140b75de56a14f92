"""List pages run a fixed number of queries, however many rows they show."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.models import Permit, Status
from permits.services import record_payment
from permits.workflow import transition
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def make_permits(n, *, applicant, organization=None, clerk=None):
    statuses = [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.ISSUED,
        Status.DENIED,
    ]
    for i in range(n):
        status = statuses[i % len(statuses)]
        # A denied application is paid while under review, then denied: its row shows the refund due (Chapter 167).
        walked_to = Status.UNDER_REVIEW if status == Status.DENIED else status
        permit = permit_in(walked_to, applicant=applicant, organization=organization)
        Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("50.00"))
        if clerk is not None and i % 2 == 0:
            record_payment(permit=permit, amount=Decimal("20.00"), method="cash", by=clerk)
        if status != walked_to:
            transition(permit, status, by=None)


def queries_for(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


@pytest.mark.parametrize(
    ("who", "url"),
    [
        ("contractor", "permits:my_applications"),
        ("clerk", "permits:office"),
        ("clerk", "admin:permits_permit_changelist"),
        ("dpw_director", "admin:permits_permit_changelist"),
    ],
)
def test_list_query_count_does_not_grow_with_rows(
    who,
    url,
    persona,
    client,
    contractor,
    contractor_org,
    clerk,
    django_assert_max_num_queries,
):
    client.force_login(persona(who))
    make_permits(5, applicant=contractor, organization=contractor_org, clerk=clerk)
    few, _ = queries_for(client, reverse(url))
    make_permits(25, applicant=contractor, organization=contractor_org, clerk=clerk)
    with django_assert_max_num_queries(few):
        response = client.get(reverse(url))
    assert response.status_code == 200
    assert Permit.objects.count() == 30


def test_list_shows_the_annotated_balance_and_next_deadline(client, contractor, contractor_org, clerk):
    make_permits(3, applicant=contractor, organization=contractor_org, clerk=clerk)
    client.force_login(contractor)
    html = client.get(reverse("permits:my_applications")).content.decode()
    assert "$30.00" in html and "$50.00" in html
    assert "Awaiting the Village&#x27;s review" in html or "Awaiting the Village's review" in html


def test_next_deadline_uses_the_annotated_total_without_a_query(
    contractor, contractor_org, clerk, django_assert_num_queries
):
    make_permits(1, applicant=contractor, organization=contractor_org, clerk=clerk)
    from permits.selectors import permits_visible_to

    permit = permits_visible_to(contractor).get()
    with django_assert_num_queries(0):
        permit.next_deadline()
        assert permit.balance_due == Decimal("30.00")
