"""Personas and test-wide settings. Browser-test set-up lives in tests/browser/conftest.py.

A test that commits (django_db(transaction=True)) empties the database when it ends; it also says
serialized_rollback=True, so the rows the data migrations seeded (fees, staff groups, the site's name) are put back
before it starts and after it ends, from the copy Django keeps of the freshly migrated database.
"""

import pytest
from django.contrib.auth.models import Group

from permits.models import Membership
from permits.roles import Role
from tests.factories import OrganizationFactory, UserFactory


@pytest.fixture(scope="session", autouse=True)
def _postgresql_flush_deletes_rows():
    """A transactional test ends with a flush. On PostgreSQL Django's flush is one TRUNCATE of every table, which makes
    new files for ~150 tables and their indexes: 1.1 s a test, most of the production pass's transactional tests. A
    test leaves a few rows, and DELETE of a few rows takes milliseconds. Django's foreign keys are DEFERRABLE INITIALLY
    DEFERRED, so the order of the deletes does not matter inside the flush's transaction. Tests only."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED"] + [f"DELETE FROM {self.quote_name(table)}" for table in tables]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


_SERIALIZED = {}  # the migrated database's rows as Django serialized them when it built the test database


def _serialized_contents():
    """The copy Django keeps on the connection, kept here too: a test that makes Django open a new connection object
    (a restore into another database, a settings override of DATABASES) leaves the next ones without it, and a
    serialized_rollback with no copy silently restores nothing."""
    from django.db import connection

    contents = getattr(connection, "_test_serialized_contents", None)
    if contents:
        _SERIALIZED["default"] = contents
    elif "default" in _SERIALIZED:
        connection._test_serialized_contents = _SERIALIZED["default"]
    return _SERIALIZED.get("default")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's set-up, then the copy taken at once: the first test's fixtures (the live server's start) may give
    the thread a new connection object before any hook below reads the copy from the old one, and the tests after
    the first transactional one would then start on an empty database (no fees, no staff groups)."""
    _serialized_contents()
    yield


@pytest.fixture(scope="session", autouse=True)
def _serialized_copy_on_every_connection():
    """Django reads the copy from the connection object when a serialized test starts and ends; hand it to whatever
    object that is by then (the live server's start may have given the test a new one)."""
    from django.test.testcases import TransactionTestCase

    setup, teardown = TransactionTestCase._fixture_setup.__func__, TransactionTestCase._fixture_teardown

    @classmethod
    def _fixture_setup(cls):
        if cls.serialized_rollback:
            _serialized_contents()
        return setup(cls)

    def _fixture_teardown(self):
        if self.serialized_rollback:
            _serialized_contents()
        return teardown(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_setup", _fixture_setup)
        patch.setattr(TransactionTestCase, "_fixture_teardown", _fixture_teardown)
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    marker = item.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("serialized_rollback"):
        _serialized_contents()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A test that commits ends with a flush that leaves the database empty; put the migrated rows back at once, so a
    test after it that reaches the database only through request.getfixturevalue (pytest-django orders it with the
    tests that use no database, after the transactional ones) still finds the staff groups and the fees."""
    marker = item.get_closest_marker("django_db")
    serialized = marker is not None and marker.kwargs.get("serialized_rollback")
    if serialized:
        _serialized_contents()  # before the flush, which must not send post_migrate (it would recreate the groups)
    yield
    if not serialized or nextitem is None:  # the last test: the session's teardown has dropped the database
        return
    following = nextitem.get_closest_marker("django_db")
    if following is not None and following.kwargs.get("serialized_rollback"):
        return  # the next test puts the rows back itself, as it starts
    from django.db import connection
    from pytest_django.plugin import blocking_manager_key

    contents = _serialized_contents()
    if contents:
        with item.config.stash[blocking_manager_key].unblock():
            from django.contrib.auth.models import Group

            # A test skipped at setup (on_postgresql on SQLite) never flushed: its rows are still there.
            if not Group.objects.exists():
                connection.creation.deserialize_db_from_string(contents)


def warm_office_facts():
    """Every page's footer reads the Village office's record once per cache period (permits.village_office): a test
    starts with it cached, as a running site has it, so that page query counts are the page's own (the cold read is
    measured in test_village_office.py)."""
    from django.conf import settings
    from django.core.cache import cache

    from permits import village_office
    from permits.models import VillageOffice

    cache.set(village_office.CACHE_KEY, VillageOffice(pk=1, address=settings.VILLAGE_OFFICE), None)


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path):
    # Rate limits (allauth's 30 logins a minute per address, DRF's throttles) count in the cache, which outlives a
    # test: a suite that signs in from 127.0.0.1 dozens of times a minute must not trip them.
    from django.core.cache import cache

    cache.clear()
    warm_office_facts()
    # The office calendar's reading of the last second (permits.office_calendar) must not outlive a rolled-back test.
    from permits import office_calendar

    office_calendar._recent.clear()
    # Every test creates persona users: PBKDF2 at full strength was most of the suite's time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AXES_ENABLED = False
    # Online card payments run on django-payments' dummy provider in every test, in both modes: production mode
    # without Stripe keys loads no provider at all (theresa_permits/settings.py), and the tests are of the app's pages.
    settings.PAYMENT_VARIANTS = {"card": ("payments.dummy.DummyProvider", {})}
    settings.ONLINE_PAYMENT_VARIANT = "card"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.SECURE_SSL_REDIRECT = False
    # Staff sign in with a password in tests, as in the demo; tests/permits/test_mfa.py and tests/browser/test_mfa.py
    # turn the second factor on (permits/accounts/mfa.py, on by default whenever DEBUG is off, e.g. the PostgreSQL run).
    settings.STAFF_MFA_REQUIRED = False


def staff_user(username: str, role: Role):
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=role.value))
    return user


def _staff_fixture(username: str, role: Role):
    """A fixture for a staff member holding `role` (the personas every test module shares)."""

    @pytest.fixture
    def staff(db):
        return staff_user(username, role)

    return staff


clerk = _staff_fixture("clerk", Role.CLERK)
dpw_director = _staff_fixture("dpw", Role.DPW_DIRECTOR)
inspector = _staff_fixture("inspector", Role.DPW_INSPECTOR)
building_inspector = _staff_fixture("building", Role.BUILDING_INSPECTOR)
police_chief = _staff_fixture("police", Role.POLICE_CHIEF)
board_member = _staff_fixture("board", Role.BOARD)
president = _staff_fixture("president", Role.PRESIDENT)


@pytest.fixture
def board_designations(db):
    """The Board's designations these tests act under, each made by a carried motion (permits.board): the DPW
    Director for § 303-5A and § 303-5I; the DPW, its inspectors and the clerk for § 303-2 (§ 303-4H(4) has none)."""
    from tests.board_world import designate_former_offices

    designate_former_offices()


@pytest.fixture
def resident(db):
    return UserFactory(username="resident")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def contractor_org(db):
    return OrganizationFactory(name="Brandt Excavating LLC")


@pytest.fixture
def contractor(contractor_org):
    user = UserFactory(username="contractor")
    Membership.objects.create(user=user, organization=contractor_org, is_manager=True)
    return user


@pytest.fixture
def contractor_staff(contractor_org):
    user = UserFactory(username="contractor_staff")
    Membership.objects.create(user=user, organization=contractor_org)
    return user


@pytest.fixture(autouse=True)
def _mark_worker_tests_in_junit(request, record_property):
    # .ci/check_junit.py counts these to prove the production pass really ran tests against a worker.
    if "real_worker" in request.fixturenames:
        record_property("real_worker", "1")


@pytest.fixture(scope="session")
def real_worker(django_db_setup, django_db_blocker):
    """A real Celery worker thread consuming from Redis (production mode only: REDIS_URL set).

    Tests using it need @pytest.mark.worker and @pytest.mark.django_db(transaction=True, serialized_rollback=True):
    the worker thread sees only committed rows. Call task.delay(...).get(timeout=30) to wait for it.
    """
    import os

    if not os.environ.get("REDIS_URL"):
        if os.environ.get("REQUIRE_BROWSER") == "1":  # .ci/run's production pass: nothing may be skipped
            pytest.fail("REDIS_URL is not set in the production-mode CI pass")
        pytest.skip("needs REDIS_URL: runs against a real Celery worker in .ci/run")
    from celery.contrib.testing.worker import start_worker

    from theresa_permits.celery import app

    with django_db_blocker.unblock():
        with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
            yield app


@pytest.fixture
def board_bond_amounts(clerk):
    """§ 303-4H(3), (5): the Board's bond amounts in force (a street opening is approved only against them), the
    motion recorded by the clerk persona."""
    from tests.board_world import bond_amounts_in_force

    bond_amounts_in_force(clerk=clerk)
