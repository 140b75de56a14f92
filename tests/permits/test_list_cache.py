"""The permit lists' kept tables (permits/list_cache.py, issue 13): a second look at an unchanged list reads no permit
row, and every way a row can change (a model save, QuerySet.update(), bulk_create, raw SQL, a job, a commit) shows on
the next look. A table is never shown to someone of another scope."""

import datetime

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits import list_cache
from permits.models import Membership, Permit, Status
from permits.workflow import transition
from tests.factories import OrganizationFactory, ParcelFactory, PermitFactory, UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db

OFFICE = reverse("permits:office")
MINE = reverse("permits:my_applications")
REVIEW_BADGE = ">Under review</span>"  # a row's status, not the filter's option


def permit_queries(queries) -> int:
    return sum('"permits_permit"' in q["sql"] for q in queries.captured_queries)


@pytest.mark.parametrize(
    ("sql", "writes"),
    [
        ('INSERT INTO "permits_permit" ("number") VALUES (%s)', True),
        ('UPDATE "permits_permit" SET "status" = %s', True),
        ('  delete FROM "permits_payment" WHERE id = 1', True),
        ('TRUNCATE "permits_permit"', True),
        ('WITH moved AS (UPDATE "permits_permit" SET "status" = %s RETURNING id) SELECT count(*) FROM moved', True),
        ('SELECT "permits_permit"."id" FROM "permits_permit" FOR UPDATE', False),
        ("WITH t AS (SELECT 1) SELECT * FROM t", False),
        ('INSERT INTO "django_session" ("session_key", "session_data") VALUES (%s, %s)', False),
        ('UPDATE "django_session" SET "session_data" = %s', False),
        ('INSERT INTO "axes_accessattempt" ("username") VALUES (%s)', False),
    ],
)
def test_which_statements_count_as_writes(sql, writes):
    assert list_cache.is_write(sql) is writes


def test_the_second_look_at_an_unchanged_office_list_reads_no_permit(client, clerk, django_assert_max_num_queries):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as first:
        assert permit.number in client.get(OFFICE).content.decode()
    with CaptureQueriesContext(connection) as second:
        assert permit.number in client.get(OFFICE).content.decode()
    assert permit_queries(first) >= 2
    assert permit_queries(second) == 0
    with django_assert_max_num_queries(len(second.captured_queries)):
        client.get(OFFICE)


@pytest.mark.parametrize("how", ["save", "transition", "update", "bulk_create", "raw_sql"])
def test_every_kind_of_write_shows_on_the_next_look(client, clerk, how):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    assert REVIEW_BADGE not in client.get(OFFICE).content.decode()
    if how == "save":
        permit.location_description = "Alley behind 5 Main Street"
        permit.save(update_fields=["location_description"])
        expected = "Alley behind 5 Main Street"
    elif how == "transition":
        transition(permit, Status.UNDER_REVIEW, by=clerk)
        expected = REVIEW_BADGE
    elif how == "update":
        Permit.objects.filter(pk=permit.pk).update(status=Status.UNDER_REVIEW)
        expected = REVIEW_BADGE
    elif how == "bulk_create":
        new = PermitFactory.build(number="SO-2026-BULK1", status=Status.SUBMITTED, applicant=permit.applicant)
        new.street = permit.street
        Permit.objects.bulk_create([new])
        expected = "SO-2026-BULK1"
    elif how == "raw_sql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Permit._meta.db_table} SET status = %s WHERE id = %s", [Status.UNDER_REVIEW, permit.pk]
            )
        expected = REVIEW_BADGE
    assert expected in client.get(OFFICE).content.decode()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_write_bumps_again_when_its_transaction_commits():
    permit = permit_in(Status.SUBMITTED)
    before = list_cache.current_version()
    with transaction.atomic():
        Permit.objects.filter(pk=permit.pk).update(location_description="Alley behind 5 Main")
        Permit.objects.filter(pk=permit.pk).update(location_description="Alley behind 7 Main")
        assert list_cache.current_version() == before + 2  # once per statement, as it runs
    assert list_cache.current_version() == before + 3  # and once at the commit, however many statements
    with transaction.atomic():
        Permit.objects.filter(pk=permit.pk).update(location_description="Alley behind 9 Main")
        transaction.set_rollback(True)
    assert list_cache.current_version() == before + 4  # a rolled-back write: its own bump only, harmless


def test_sessions_do_not_change_the_version(client, clerk):
    client.force_login(clerk)
    before = list_cache.current_version()
    session = client.session
    session["seen"] = "yes"
    session.save()
    assert list_cache.current_version() == before


def test_a_table_is_kept_for_its_day_only(client, clerk):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    with time_machine.travel(datetime.datetime(2026, 12, 2, 23, 59, tzinfo=datetime.UTC), tick=False):
        client.get(OFFICE)
        version = list_cache.current_version()
    with time_machine.travel(datetime.datetime(2026, 12, 3, 12, 0, tzinfo=datetime.UTC), tick=False):
        with CaptureQueriesContext(connection) as queries:
            assert permit.number in client.get(OFFICE).content.decode()
    assert list_cache.current_version() == version
    assert permit_queries(queries) >= 2  # built again on the new day


def test_my_applications_is_kept_per_user_never_shown_to_another(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    hers = permit_in(Status.SUBMITTED, applicant=alice, number="SO-2026-ALICE")
    his = permit_in(Status.SUBMITTED, applicant=bob, number="SO-2026-BOB01")
    client.force_login(alice)
    assert hers.number in client.get(MINE).content.decode()
    client.force_login(bob)  # a login writes the session only: the version is the same
    page = client.get(MINE).content.decode()
    assert his.number in page and hers.number not in page


def test_the_office_list_filters_and_pages_are_kept_apart(client, clerk):
    submitted = permit_in(Status.SUBMITTED)
    review = permit_in(Status.UNDER_REVIEW)
    client.force_login(clerk)
    everything = client.get(OFFICE).content.decode()
    only_review = client.get(OFFICE, {"status": "under_review"}).content.decode()
    assert submitted.number in everything and review.number in everything
    assert review.number in only_review and submitted.number not in only_review
    assert 'href="?status=under_review&amp;page=' not in only_review  # one page: no pagination links


def test_a_cache_that_fails_never_fails_the_page_nor_the_write(client, clerk, monkeypatch):
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)

    class Broken:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("Redis is down")

            return fail

    monkeypatch.setattr(list_cache, "_cache", lambda: Broken())
    Permit.objects.filter(pk=permit.pk).update(status=Status.UNDER_REVIEW)
    assert REVIEW_BADGE in client.get(OFFICE).content.decode()


def test_my_applications_links_follow_a_new_parcel_and_organization(client, resident):
    client.force_login(resident)
    page = client.get(MINE).content.decode()
    assert "Charges on 9 Kept Street" not in page and "Kept Builders: staff" not in page
    parcel = ParcelFactory(site_address="9 Kept Street")
    parcel.owners.add(resident)
    Membership.objects.create(user=resident, organization=OrganizationFactory(name="Kept Builders"))
    page = client.get(MINE).content.decode()
    assert "Charges on 9 Kept Street" in page and "Kept Builders: staff" in page


def test_my_applications_drafts_are_kept_as_data_with_this_requests_csrf_token(resident):
    """The drafts are kept with the table (no query on a second look), but their Delete forms are rendered each time:
    a token kept from before a new login would be refused."""
    import re

    from django.test import Client

    from permits import applications
    from permits.models import ApplicationDraft

    draft = applications.save_draft(applicant=resident, kind="sidewalk", data={"work_description": "Kept draft"})
    client = Client(enforce_csrf_checks=True)
    client.force_login(resident)
    assert "Kept draft" in client.get(MINE).content.decode()
    with CaptureQueriesContext(connection) as second:
        assert "Kept draft" in client.get(MINE).content.decode()
    assert not any("applicationdraft" in q["sql"] for q in second.captured_queries)
    client.logout()
    client.force_login(resident)  # a new login: a new CSRF secret, the kept drafts unchanged
    page = client.get(MINE).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(reverse("permits:delete_draft", args=[draft.pk]), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and not ApplicationDraft.objects.exists()
    assert "Kept draft" not in client.get(MINE).content.decode()


def test_pages_are_kept_by_the_whole_page_parameter(client, clerk, monkeypatch):
    """?page=000000000001 and ?page=0000000000012 share their first 12 characters and are pages 1 and 12."""
    from permits import views

    monkeypatch.setattr(views, "PAGE_SIZE", 1)
    numbers = [permit_in(Status.SUBMITTED, number=f"SO-2026-P{i:04d}").number for i in range(13)]
    client.force_login(clerk)
    first = client.get(OFFICE, {"page": "000000000001"}).content.decode()
    twelfth = client.get(OFFICE, {"page": "0000000000012"}).content.decode()
    assert numbers[-1] in first and numbers[-1] not in twelfth
    assert numbers[1] in twelfth


def test_the_lists_keys_name_the_database_so_two_villages_can_share_one_redis():
    import os
    from urllib.parse import urlsplit

    from theresa_permits import settings as project

    url = os.environ.get("DATABASE_URL")  # the name as configured (the tests' own database is renamed later)
    name = urlsplit(url).path.strip("/") if url else "theresa.sqlite3"
    assert project.LISTS_CACHE_PREFIX.startswith("lists:") and project.LISTS_CACHE_PREFIX.endswith(name)
    if project.REDIS_URL:
        assert project.CACHES["lists"]["KEY_PREFIX"] == project.LISTS_CACHE_PREFIX


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_kept_lists_are_read_without_a_transaction(client, clerk, resident, monkeypatch):
    """Issue 13's load test: a read-only page kept in the cache has no BEGIN and COMMIT around it (two round trips
    of a page that is otherwise three queries); every other page keeps ATOMIC_REQUESTS."""
    from permits import permit_page, views

    seen = {}

    def watch(name, real):
        def watched(*args, **kwargs):
            seen[name] = connection.in_atomic_block
            return real(*args, **kwargs)

        monkeypatch.setattr(target[name], name, watched)

    target = {"cached_fragments": views, "cached_parts": views, "page_context": permit_page}
    for name, module in target.items():
        watch(name, getattr(module, name))
    permit = permit_in(Status.SUBMITTED)
    client.force_login(clerk)
    assert client.get(permit.get_absolute_url()).status_code == 200
    assert client.get(OFFICE).status_code == 200
    client.force_login(resident)
    assert client.get(MINE).status_code == 200
    assert seen == {"page_context": True, "cached_fragments": False, "cached_parts": False}
