"""Each staff role sees in the back office only the admin models its work needs (OWASP ASVS V4.1.3, least
privilege; permits/role_permissions.py): email bodies (Notice) and job runs to the Clerk-Treasurer only, owners'
mailing addresses (Parcel) to the clerk and the Director of Public Works, permits but not owners' notices to the
Chief of Police and the Board."""

import pytest
from django.urls import reverse

from permits import role_permissions
from permits.roles import Role
from tests.conftest import staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(admin_world):
    """The back office, built once for this module (tests/permits/admin_world.py)."""
    return admin_world


# The core's models each role sees (hand-kept: the core's table in permits/role_permissions.py is what is tested);
# a part's models (a permit type's, the enforcement cases') each role sees come from the part's own table (its
# record's `admin_roles`, or obstructions/admin_roles.py), read below.
PERMIT_PAGES = {"Permit", "Street", "InformationRequest"}
# The Village Board's record (permits.board): the clerk keeps it, the Board and the DPW read it.
BOARD_PAGES = {"Seat", "Term", "Meeting", "Motion", "Designation"}
CLERK_ONLY = {
    "Notice",
    "JobRun",
    "Payment",
    "TaxRollBatch",
    "OfficeClosure",
    "OnlinePayment",
    "Refund",
    "SettlementDay",
    "StreetSubscription",
    "ParcelLinkRequest",  # owners' proofs (a tax bill, a deed) are the Clerk-Treasurer's to see
}
STREET_MAP_PAGES = {"StreetSegment", "Placement", "ConflictMargin", "ConflictReview"}
CORE_EVERYTHING = (
    PERMIT_PAGES
    | BOARD_PAGES
    | CLERK_ONLY
    | {"Parcel", "Organization", "FeeItem", "SpecialCharge", "ChargeHearing", "PaymentPeriod"}
    | STREET_MAP_PAGES
)
CORE_VISIBLE = {
    Role.CLERK: CORE_EVERYTHING,
    Role.DPW_DIRECTOR: CORE_EVERYTHING - CLERK_ONLY - {"ChargeHearing", "PaymentPeriod"},
    Role.DPW_INSPECTOR: PERMIT_PAGES,
    Role.BUILDING_INSPECTOR: PERMIT_PAGES,
    Role.POLICE_CHIEF: PERMIT_PAGES,
    Role.POLICE_OFFICER: set(),  # § 303-15H is done on the events page, not in the back office
    Role.BOARD: PERMIT_PAGES | BOARD_PAGES | {"ChargeHearing", "PaymentPeriod"},
    Role.PRESIDENT: PERMIT_PAGES | BOARD_PAGES | {"ChargeHearing", "PaymentPeriod"},
}


def village_admin_models() -> set:
    from django.contrib import admin

    return {m for m in admin.site._registry if m._meta.app_label in role_permissions.app_labels()}


def part_pages(role: Role) -> set[str]:
    """The admin models of the parts that `role` sees, from the parts' own tables (every one for the clerk)."""
    village = village_admin_models()
    parts = {m for m in village if m._meta.label_lower not in {f"permits.{n.lower()}" for n in CORE_EVERYTHING}}
    if role == Role.CLERK:
        return {m.__name__ for m in parts}
    tables = role_permissions.part_roles("admin_roles")
    return {m.__name__ for m in parts if role in tables.get(m._meta.label_lower, ())}


VISIBLE = {role: CORE_VISIBLE[role] | part_pages(role) for role in Role}


def index_models(client, user) -> set[str]:
    client.force_login(user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    return {m["object_name"] for app in response.context["app_list"] for m in app["models"]}


def test_the_clerk_sees_every_model_of_the_village_apps(client):
    assert VISIBLE[Role.CLERK] == {m.__name__ for m in village_admin_models()}


def test_every_model_a_part_shows_a_role_is_a_model_of_that_part():
    """A part's table names only models (no typo'd label silently shows nothing) and none of the core's."""
    from django.apps import apps

    for label in role_permissions.part_roles("admin_roles"):
        model = apps.get_model(label)
        assert model.__module__.split(".models")[0] != "permits", label


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.name)
def test_asvs_v4_1_3_each_role_sees_only_the_admin_models_its_work_needs(role, client):
    assert index_models(client, staff_user(f"v-{role.name.lower()}", role)) == VISIBLE[role]


@pytest.mark.parametrize("role", [r for r in Role if r != Role.CLERK], ids=lambda r: r.name)
def test_asvs_v4_1_3_only_the_clerk_reads_email_bodies_and_job_runs(role, client):
    client.force_login(staff_user(f"n-{role.name.lower()}", role))
    for name in ("notice", "jobrun"):
        assert client.get(reverse(f"admin:permits_{name}_changelist")).status_code == 403


@pytest.mark.parametrize("role", [Role.POLICE_CHIEF, Role.BOARD, Role.PRESIDENT, Role.BUILDING_INSPECTOR])
def test_asvs_v4_1_3_owners_mailing_addresses_only_to_the_clerk_and_dpw(role, client):
    client.force_login(staff_user("p-staff", role))
    assert client.get(reverse("admin:permits_parcel_changelist")).status_code == 403


def test_no_role_may_change_or_add_history_rows():
    from django.contrib.auth.models import Group

    for group in Group.objects.all():
        codenames = set(group.permissions.values_list("codename", flat=True))
        assert not {c for c in codenames if c.split("_", 1)[1].startswith("historical") and not c.startswith("view_")}


@pytest.mark.slow
@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.name)
def test_asvs_v4_1_3_every_visible_model_opens_for_its_role(role, client, world):
    """What a role sees it can open: the list and a record's page answer 200 (inlines it may not read are left
    out, e.g. payments on a permit for the Chief of Police), and a model it may not see answers 403."""
    from django.contrib import admin

    client.force_login(staff_user(f"o-{role.name.lower()}", role))
    for model in admin.site._registry:
        if model._meta.app_label not in ("permits", "sidewalks"):
            continue
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        expected = 200 if model.__name__ in VISIBLE[role] else 403
        assert client.get(reverse(f"{name}_changelist")).status_code == expected, model.__name__
        obj = model._default_manager.order_by("pk").first()
        if obj is not None:
            assert client.get(reverse(f"{name}_change", args=[obj.pk])).status_code == expected, model.__name__
