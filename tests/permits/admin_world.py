"""A back office with at least one record (and one history row) of every admin model that keeps field history, and
of every Village reference record: the demo village and its permit types, plus the records the demo does not make."""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from permits.models import FeeItem, Parcel, Permit, Street
from permits.roles import Role
from tests.conftest import staff_user

ROLES = tuple(Role)


def history_admins():
    """(model, model admin) of every registered admin whose model keeps simple_history field history."""
    return [(m, a) for m, a in admin.site._registry.items() if hasattr(a, "history_form_view")]


def staff_of_every_role():
    """One staff user per role (usernames not taken by the demo accounts), and a superuser."""
    users = {role: staff_user(f"t-{role.name.lower()}", role) for role in ROLES}
    users["superuser"] = get_user_model().objects.create_superuser("t-superuser", "t-superuser@example.org", "x")
    return users


def build_world(monkeypatch):
    from permits import kinds, uploads
    from permits.demo import load_demo
    from permits.street_opening.field.models import DefectNotice, PavementRestoration
    from permits.street_opening.models import StreetImprovement
    from sidewalks.models import BoardWaiver

    # The demo's sample PDFs are placeholders; what is tested here is the back office, not upload checking.
    monkeypatch.setattr(uploads, "check_pdf", lambda content: None, raising=False)
    load_demo(password="demo-password-123")
    for loader in kinds.demo_loaders():
        loader()
    clerk = get_user_model().objects.get(username="clerk")
    today = timezone.localdate()
    now = timezone.now()
    permit = Permit.objects.filter(street_opening__isnull=False).order_by("pk").first()
    street = Street.objects.order_by("pk").first()
    StreetImprovement.objects.create(
        street=street,
        description="Mill and overlay",
        decided_on=today,
        work_begins_on=today + timedelta(days=45),
        recorded_by=clerk,
        recorded_at=now,
    )
    PavementRestoration.objects.create(permit=permit, permanent_due_on=today + timedelta(days=200))
    DefectNotice.objects.create(
        permit=permit,
        defect="Settled patch",
        work_to_be_done="Saw-cut and repave",
        estimated_cost="1200.00",
        deadline=today + timedelta(days=30),
        addressed_to=DefectNotice.Addressee.values[0],
        addressee_name="Brandt Excavating LLC",
        served_on=today,
        recorded_by=clerk,
        recorded_at=now,
    )
    BoardWaiver.objects.create(
        kind=BoardWaiver.Kind.values[0],
        parcel=Parcel.objects.order_by("pk").first(),
        resolution_number="R-2026-14",
        adopted_on=today,
        ayes=5,
        nays=0,
        seats=7,
        recorded_by=clerk,
    )
    # The Village Board's record (roster, meeting, designations, bond amounts) comes from its demo loader.
    from permits.board.models import Seat

    for seat in Seat.objects.all():  # seats seeded by a migration have no history row yet
        if not seat.history.exists():
            seat.save()
    from permits.streetmap.demo import load_segments

    load_segments()  # the street map's segments (and their history rows)
    for fee in FeeItem.objects.all():  # fees seeded by a migration have no history row yet
        if not fee.history.exists():
            fee.save()
    from permits.models import OfficeClosure

    OfficeClosure.objects.order_by("day").first().save()  # the calendar's statute rows, seeded by a migration, too
    for model, _ in history_admins():
        assert model.history.exists(), f"no history row of {model.__name__}: the test would prove nothing for it"
    return clerk


@pytest.fixture(scope="module")
def admin_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The back office (build_world) and one staff user per role, built once for a module's tests inside a transaction
    that is rolled back after the last of them. Each test runs in a savepoint of it (pytest-django's db fixture), so
    what one test writes the next does not see. Built per test, the demo village was most of these modules' time."""
    media = tmp_path_factory.mktemp("world-media")
    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as tests/conftest.py sets for each test
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        with override_settings(MEDIA_ROOT=media, PASSWORD_HASHERS=hashers), transaction.atomic():
            build_world(patch)
            yield staff_of_every_role()
            transaction.set_rollback(True)
