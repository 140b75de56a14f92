"""Each staff role sees in the back office only the admin models its work needs (OWASP ASVS V4.1.3, least
privilege; permits/role_permissions.py): email bodies (Notice) and job runs to the Clerk-Treasurer only, owners'
mailing addresses (Parcel) to the clerk and the Director of Public Works, permits but not owners' notices to the
Chief of Police and the Board."""

import pytest
from django.urls import reverse

from permits.roles import Role
from tests.conftest import staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(admin_world):
    """The back office, built once for this module (tests/permits/admin_world.py)."""
    return admin_world


PERMIT_PAGES = {
    "Permit",
    "Street",
    "StreetOpening",
    "DiggersTicket",
    "Renewal",
    "RenewalRequest",
    "StreetUse",
    "StreetPrivilege",
}
SIDEWALK_PERMIT_PAGES = {"SidewalkPermit", "SidewalkInspection"}
FIELD_PAGES = {"Inspection", "PermitteeNotice", "PavementRestoration", "Guarantee", "DefectNotice"}
SIDEWALK_WORK_PAGES = {"SidewalkSurvey", "SidewalkOrder", "Snowfall", "SnowCase", "RubbishCase"}
BOARD_PAGES = {
    "StreetImprovement",
    "EmergencyDetermination",
    "MoratoriumException",
    "ApplicantRevocation",
    "EmergencyReport",
    "BoardWaiver",
    # The Village Board's record (permits.board): the clerk keeps it, the Board and the DPW read it.
    "Seat",
    "Term",
    "Meeting",
    "Motion",
    "Designation",
    "BondAmount",
    "BoardAppearance",
    "SidewalkObstruction",  # § 303-7F (permits.street_privilege)
}
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
    # § 303-15F: the register of adult residents (birth dates) and the petition's signatures
    "RegisteredResident",
    "PetitionSignature",
    "ParcelLinkRequest",  # owners' proofs (a tax bill, a deed) are the Clerk-Treasurer's to see
}
STREET_MAP_PAGES = {"StreetSegment", "Placement", "ConflictMargin", "ConflictReview"}
ENFORCEMENT_PAGES = {"Case", "StreetNumber"}  # obstructions/: the enforcement officials' cases
# obstructions/registers/: the Clerk-Treasurer's registers (§ 303-1, § 303-11, § 303-3D(11)), read-only there
REGISTER_PAGES = {"Grade", "GradeApplication", "HigherStandard", "ImprovementRequest"}
EVERYTHING = (
    PERMIT_PAGES
    | SIDEWALK_PERMIT_PAGES
    | FIELD_PAGES
    | SIDEWALK_WORK_PAGES
    | BOARD_PAGES
    | CLERK_ONLY
    | {"Parcel", "Organization", "FeeItem", "AnnualBond", "SpecialCharge", "ChargeHearing"}
    | STREET_MAP_PAGES
    | ENFORCEMENT_PAGES
    | REGISTER_PAGES
)

VISIBLE = {
    Role.CLERK: EVERYTHING,
    Role.DPW_DIRECTOR: EVERYTHING - CLERK_ONLY - REGISTER_PAGES - {"ChargeHearing"},
    Role.DPW_INSPECTOR: PERMIT_PAGES
    | SIDEWALK_PERMIT_PAGES
    | FIELD_PAGES
    | SIDEWALK_WORK_PAGES
    | {"EmergencyReport"}
    | ENFORCEMENT_PAGES,
    Role.BUILDING_INSPECTOR: PERMIT_PAGES | SIDEWALK_PERMIT_PAGES | ENFORCEMENT_PAGES,
    Role.POLICE_CHIEF: PERMIT_PAGES | {"SidewalkPermit", "EmergencyReport", "Snowfall", "SnowCase"} | ENFORCEMENT_PAGES,
    Role.BOARD: PERMIT_PAGES | BOARD_PAGES | {"SidewalkPermit", "SidewalkSurvey", "SidewalkOrder", "ChargeHearing"},
    Role.PRESIDENT: PERMIT_PAGES | BOARD_PAGES | {"SidewalkPermit", "SidewalkSurvey", "SidewalkOrder", "ChargeHearing"},
}


def index_models(client, user) -> set[str]:
    client.force_login(user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    return {m["object_name"] for app in response.context["app_list"] for m in app["models"]}


def test_the_clerk_sees_every_model_of_the_village_apps(client):
    from django.contrib import admin

    village = {
        m.__name__ for m in admin.site._registry if m._meta.app_label in ("permits", "sidewalks", "obstructions")
    }
    assert VISIBLE[Role.CLERK] == village  # the table names every admin model, so none is forgotten


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
