"""The office list and "My applications": in a fixed number of queries whatever the rows, and always showing the rows
as they are now. Every test runs twice: built on every request (embedded mode) and kept between writes
(permits/kept_lists.py, production mode)."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits import kept_lists, services
from permits.models import ApplicationDraft, Membership, Notice, Permit, Status
from permits.workflow import transition
from tests.factories import OrganizationFactory, ParcelFactory, UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=[0, 600], ids=["built", "kept"])
def kept_seconds(request, settings):
    settings.PERMIT_LIST_CACHE_SECONDS = request.param
    return request.param


OFFICE = reverse("permits:office")
MINE = reverse("permits:my_applications")
REVIEW_BADGE = ">Under review</span>"  # a row's status, not the filter's option


def queries_of(client, url, **params) -> tuple[int, str]:
    client.get(url, params)  # warm (sessions, content types)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url, params).content.decode()
    return len(queries.captured_queries), page


@pytest.mark.parametrize("url", [OFFICE, MINE])
def test_the_lists_run_the_same_queries_with_ten_times_the_rows(client, clerk, resident, url):
    user = clerk if url == OFFICE else resident
    client.force_login(user)
    for _ in range(3):
        permit_in(Status.SUBMITTED, applicant=resident)
    few, page = queries_of(client, url)
    for status in (Status.SUBMITTED, Status.UNDER_REVIEW, Status.ISSUED) * 10:
        newest = permit_in(status, applicant=resident)
    many, page = queries_of(client, url)
    assert many == few <= 15
    assert newest.number in page and REVIEW_BADGE in page


@pytest.mark.parametrize("how", ["transition", "update", "raw_sql"])
def test_every_kind_of_write_shows_on_the_next_look(client, clerk, how):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    assert REVIEW_BADGE not in client.get(OFFICE).content.decode()
    if how == "transition":
        transition(permit, Status.UNDER_REVIEW, by=clerk)
    elif how == "update":
        Permit.objects.filter(pk=permit.pk).update(status=Status.UNDER_REVIEW)
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Permit._meta.db_table} SET status = %s WHERE id = %s", [Status.UNDER_REVIEW, permit.pk]
            )
    assert REVIEW_BADGE in client.get(OFFICE).content.decode()


def test_my_applications_shows_each_user_their_own(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    hers = permit_in(Status.SUBMITTED, applicant=alice, number="SO-2026-ALICE")
    his = permit_in(Status.SUBMITTED, applicant=bob, number="SO-2026-BOB01")
    client.force_login(alice)
    assert hers.number in client.get(MINE).content.decode()
    client.force_login(bob)
    page = client.get(MINE).content.decode()
    assert his.number in page and hers.number not in page


def test_the_office_list_filters_by_status(client, clerk):
    submitted = permit_in(Status.SUBMITTED)
    review = permit_in(Status.UNDER_REVIEW)
    client.force_login(clerk)
    everything = client.get(OFFICE).content.decode()
    only_review = client.get(OFFICE, {"status": "under_review"}).content.decode()
    assert submitted.number in everything and review.number in everything
    assert review.number in only_review and submitted.number not in only_review
    assert 'href="?status=under_review&amp;page=' not in only_review  # one page: no pagination links


def test_the_office_list_pages_carry_the_filter(client, clerk, monkeypatch):
    from permits import paging

    monkeypatch.setattr(paging, "PAGE_SIZE", 1)
    numbers = [permit_in(Status.SUBMITTED, number=f"SO-2026-P{i:04d}").number for i in range(3)]
    client.force_login(clerk)
    first = client.get(OFFICE, {"status": "submitted"}).content.decode()
    assert numbers[-1] in first and 'href="?status=submitted&amp;page=' in first
    second = client.get(OFFICE, {"status": "submitted", "page": "2"}).content.decode()
    assert numbers[1] in second and numbers[-1] not in second


def test_my_applications_links_follow_a_new_parcel_and_organization(client, resident):
    client.force_login(resident)
    page = client.get(MINE).content.decode()
    assert "Charges on 9 Kept Street" not in page and "Kept Builders: staff" not in page
    parcel = ParcelFactory(site_address="9 Kept Street")
    parcel.owners.add(resident)
    Membership.objects.create(user=resident, organization=OrganizationFactory(name="Kept Builders"))
    page = client.get(MINE).content.decode()
    assert "Charges on 9 Kept Street" in page and "Kept Builders: staff" in page


def test_my_applications_drafts_carry_this_requests_csrf_token(resident):
    from permits.applicant import applications

    draft = applications.save_draft(applicant=resident, kind="sidewalk", data={"work_description": "Kept draft"})
    client = Client(enforce_csrf_checks=True)
    client.force_login(resident)
    page = client.get(MINE).content.decode()
    assert "Kept draft" in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(reverse("permits:delete_draft", args=[draft.pk]), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and not ApplicationDraft.objects.exists()
    assert "Kept draft" not in client.get(MINE).content.decode()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_lists_are_read_without_a_transaction(client, clerk, resident, monkeypatch):
    """A read-only list has no BEGIN and COMMIT around it; every other page keeps ATOMIC_REQUESTS."""
    from permits import permit_page, views

    seen = {}

    def watch(module, name):
        real = getattr(module, name)

        def watched(*args, **kwargs):
            seen[name] = connection.in_atomic_block
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, watched)

    watch(views, "page_keys_first")
    watch(permit_page, "page_context")
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    assert client.get(permit.get_absolute_url()).status_code == 200
    assert client.get(OFFICE).status_code == 200
    assert seen == {"page_context": True, "page_keys_first": False}
    client.force_login(resident)
    seen.clear()
    assert client.get(MINE).status_code == 200
    assert seen == {"page_keys_first": False}


def test_a_payment_shows_in_the_balance_due_at_once(client, clerk):
    permit = permit_in(Status.APPROVED, fee_amount=Decimal("75.00"))
    client.force_login(clerk)
    assert "<td>$75.00</td>" in client.get(OFFICE).content.decode()
    services.record_payment(permit=permit, amount=Decimal("75.00"), method="cash", by=clerk)
    assert "<td>$0.00</td>" in client.get(OFFICE).content.decode()


def test_a_write_to_a_table_the_rows_do_not_read_keeps_the_table(client, clerk, kept_seconds):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)

    def look() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert permit.number in client.get(OFFICE).content.decode()
        return len(queries.captured_queries)

    look()
    before = look()
    Notice.objects.create(permit=permit, to="someone@example.com", subject="A notice", body="Read me.")
    after_notice = look()
    Permit.objects.filter(pk=permit.pk).update(location_description="Kept Street")
    after_permit = look()
    assert after_notice == before
    if kept_seconds:
        assert after_permit > before  # the rows read again, and only then
    else:
        assert after_permit == before


def test_cachalot_watches_exactly_the_tables_the_kept_parts_read(settings):
    assert settings.CACHALOT_ONLY_CACHABLE_TABLES == kept_lists.kept_tables()
    assert settings.CACHALOT_ENABLED is False  # only the moments: no SQL result is ever served from the cache


@pytest.mark.parametrize(
    ("raw", "number"),
    [(None, 1), ("", 1), ("abc", 1), ("1", 1), ("2", 2), ("0", 0), ("-3", 0), ("1000000", 10**6), ("1000001", 10**6)],
)
def test_the_page_asked_for_is_a_bounded_number(raw, number):
    assert kept_lists.page_number(raw) == number
