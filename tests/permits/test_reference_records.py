"""Village reference records (Chapter 167 fees, streets, parcels, organizations, annual bonds, Board decisions) are
ended, never deleted (Wis. Stat. § 19.21, public records): deleting the street-opening fee refused every new
application. No role deletes them through the admin, by the delete page or the bulk delete action; a fee is ended
with the "end today" action, which sets effective_to (Chapter 167; permits/fees.py chooses the fee in force)."""

from datetime import date, timedelta

import pytest
from django.contrib import admin
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from permits.fees import FeeNotConfigured, fee_in_force
from permits.models import FeeItem, Organization, Parcel, Street
from permits.roles import Role
from permits.street_opening.models import (
    AnnualBond,
    EmergencyDetermination,
    MoratoriumException,
    StreetImprovement,
)
from sidewalks.models import BoardWaiver
from tests.conftest import staff_user
from tests.factories import FeeItemFactory
from tests.permits.admin_world import ROLES

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(admin_world):
    """The back office, built once for this module (tests/permits/admin_world.py)."""
    return admin_world


REFERENCE = [
    FeeItem,
    Street,
    Parcel,
    Organization,
    AnnualBond,
    StreetImprovement,
    BoardWaiver,
    EmergencyDetermination,
    MoratoriumException,
]
WHO = [*ROLES, "superuser"]


def admin_url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", REFERENCE, ids=lambda m: m.__name__)
def test_wis_stat_19_21_reference_admins_refuse_delete(model, rf, world):
    request = rf.get("/")
    request.user = world["superuser"]
    model_admin = admin.site._registry[model]
    assert model_admin.has_delete_permission(request) is False
    assert "delete_selected" not in model_admin.get_actions(request)


@pytest.mark.parametrize("who", WHO, ids=str)
def test_wis_stat_19_21_no_role_deletes_a_reference_record_through_the_admin(who, world, client):
    client.force_login(world[who])
    checked = []
    for model in REFERENCE:
        obj = model._default_manager.order_by("pk").first()
        if obj is None:
            continue
        count = model._default_manager.count()
        client.post(admin_url(model, "delete", obj.pk), {"post": "yes"})
        client.post(
            admin_url(model, "changelist"),
            {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
        )
        assert model._default_manager.filter(pk=obj.pk).exists(), f"{who} deleted a {model.__name__}"
        assert model._default_manager.count() == count
        checked.append(model)
    assert {FeeItem, Street, Parcel, Organization, AnnualBond, StreetImprovement, BoardWaiver} <= set(checked)


def test_wis_stat_19_21_no_role_holds_a_delete_permission_on_reference_records():
    from django.contrib.auth.models import Group

    names = {f"delete_{m._meta.model_name}" for m in REFERENCE}
    for group in Group.objects.all():
        assert not names & set(group.permissions.values_list("codename", flat=True)), group.name


# The "end today" action on Chapter 167 fees (a code of its own: the migration seeds the real schedule).
CODE = "test_fee_303"


@pytest.fixture
def today():
    return timezone.localdate()


def end_today(client, *fees):
    return client.post(
        reverse("admin:permits_feeitem_changelist"),
        {"action": "end_today", "_selected_action": [f.pk for f in fees]},
        follow=True,
    )


def texts(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_chapter_167_clerk_ends_a_fee_today_it_stays_in_force_through_today(client, clerk, today):
    fee = FeeItemFactory(code=CODE, effective_from=date(2020, 1, 1))
    client.force_login(clerk)
    response = end_today(client, fee)
    fee.refresh_from_db()
    assert fee.effective_to == today
    assert fee_in_force(CODE, today) == fee  # the last day in force is today (effective_to inclusive)
    with pytest.raises(FeeNotConfigured):
        fee_in_force(CODE, today + timedelta(days=1))
    assert any("No fee 'test_fee_303' is in force from tomorrow" in t for t in texts(response))
    assert fee.history.latest("history_date").history_user == clerk


def test_chapter_167_ending_a_fee_with_a_successor_hands_over_tomorrow(client, clerk, today):
    old = FeeItemFactory(code=CODE, effective_from=date(2020, 1, 1))
    new = FeeItemFactory(code=CODE, effective_from=today + timedelta(days=1), amount="75.00")
    client.force_login(clerk)
    response = end_today(client, old)
    assert fee_in_force(CODE, today) == old
    assert fee_in_force(CODE, today + timedelta(days=1)) == new
    assert not any("in force from tomorrow" in t for t in texts(response))


def test_chapter_167_a_fee_starting_tomorrow_cannot_end_today_and_nothing_is_stored(client, clerk, today):
    fee = FeeItemFactory(code=CODE, effective_from=today + timedelta(days=1))
    client.force_login(clerk)
    response = end_today(client, fee)
    fee.refresh_from_db()
    assert fee.effective_to is None
    assert any("effective_from is after today" in t for t in texts(response))


def test_chapter_167_a_fee_starting_today_ends_today(client, clerk, today):
    fee = FeeItemFactory(code=CODE, effective_from=today)
    client.force_login(clerk)
    end_today(client, fee)
    fee.refresh_from_db()
    assert fee.effective_to == today


def test_chapter_167_a_fee_already_ended_is_left_as_it_is(client, clerk, today):
    fee = FeeItemFactory(code=CODE, effective_from=date(2020, 1, 1), effective_to=today - timedelta(days=1))
    client.force_login(clerk)
    response = end_today(client, fee)
    fee.refresh_from_db()
    assert fee.effective_to == today - timedelta(days=1)
    assert any("already ended" in t for t in texts(response))


@pytest.mark.parametrize("role", [r for r in Role if r != Role.CLERK], ids=lambda r: r.name)
def test_chapter_167_only_the_clerk_ends_a_fee(role, client, today):
    fee = FeeItemFactory(code=CODE, effective_from=date(2020, 1, 1))
    client.force_login(staff_user("f-staff", role))
    end_today(client, fee)
    fee.refresh_from_db()
    assert fee.effective_to is None
