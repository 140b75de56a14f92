"""The demo village loads twice without duplicating anything."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from permits.demo import USERNAMES, load_demo
from permits.models import Membership, Organization, Parcel, Street
from permits.roles import Role

pytestmark = pytest.mark.django_db


def counts():
    return {
        "parcels": Parcel.objects.count(),
        "streets": Street.objects.count(),
        "users": get_user_model().objects.count(),
        "orgs": Organization.objects.count(),
        "memberships": Membership.objects.count(),
        "groups": Group.objects.count(),
        "memberships_of_groups": sum(g.user_set.count() for g in Group.objects.all()),
    }


def test_load_demo_twice_gives_the_same_counts():
    load_demo(password="demo-password-123")
    first = counts()
    load_demo(password="demo-password-123")
    assert counts() == first
    assert first["parcels"] == 40
    assert first["streets"] == 12
    assert first["users"] == 11


def test_demo_has_the_villages_streets_and_both_land_uses():
    load_demo(password="demo-password-123")
    names = set(Street.objects.values_list("name", flat=True))
    assert {"Highland Avenue", "Theresa Lane"} <= names
    uses = set(Parcel.objects.values_list("land_use", flat=True))
    assert {"residential", "commercial"} <= uses
    assert Parcel.objects.filter(owner_name="").count() == 0


def test_one_demo_account_per_role_in_its_group():
    load_demo(password="demo-password-123")
    assert sorted(USERNAMES) == sorted(
        [
            "clerk",
            "dpw",
            "inspector",
            "building",
            "police",
            "officer",
            "board",
            "president",
            "resident",
            "contractor",
            "utility",
        ]
    )
    User = get_user_model()
    expected = {
        "clerk": Role.CLERK,
        "dpw": Role.DPW_DIRECTOR,
        "inspector": Role.DPW_INSPECTOR,
        "building": Role.BUILDING_INSPECTOR,
        "police": Role.POLICE_CHIEF,
        "officer": Role.POLICE_OFFICER,
        "board": Role.BOARD,
        "president": Role.PRESIDENT,
    }
    for username, role in expected.items():
        user = User.objects.get(username=username)
        assert list(user.groups.values_list("name", flat=True)) == [role.value]
        assert user.is_staff
    for username in ("resident", "contractor", "utility"):
        user = User.objects.get(username=username)
        assert not user.groups.exists() and not user.is_staff
    assert User.objects.get(username="contractor").memberships.get().organization.kind == "contractor"
    assert User.objects.get(username="utility").memberships.get().organization.kind == "utility"


def test_every_staff_role_is_a_group_created_by_migration():
    assert set(Group.objects.values_list("name", flat=True)) >= {r.value for r in Role}


def test_demo_password_comes_from_the_argument_or_settings(settings):
    settings.DEMO_PASSWORD = "from-settings-456"
    load_demo()
    assert get_user_model().objects.get(username="clerk").check_password("from-settings-456")


@pytest.mark.slow
def test_load_demo_command_prints_the_accounts(capsys):
    call_command("load_demo")
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "clerk" in out and "utility" in out and "password" in out
    assert Parcel.objects.count() == 40


@pytest.mark.slow
@pytest.mark.parametrize("clock", ["00:05", "07:29", "07:31", "23:55"])
def test_the_demo_loads_at_any_hour_of_the_village_day(clock):
    """The street map's emergency openings gave their locate request as 7:30 a.m. today, which the § 182.0175 rule
    refuses as a time in the future when the demo is loaded before 7:30 (CI ran at 5 a.m.)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    import time_machine

    from permits.models import Permit

    hour, minute = map(int, clock.split(":"))
    with time_machine.travel(datetime(2026, 12, 3, hour, minute, tzinfo=ZoneInfo("America/Chicago")), tick=True):
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Permit.objects.filter(location_description="Highland Avenue between Milwaukee and Main Street").exists()
