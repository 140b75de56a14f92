"""§ 303-3C: "under contract with the Village to do such work": the Village's contracts are the Clerk-Treasurer's
register (permits.village_contracts), the one place a contractor's standing is read from."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import VillageContract
from permits.roles import Role
from permits.village_contracts import contract_errors, record_contract
from tests.conftest import staff_user
from tests.factories import OrganizationFactory, ParcelFactory

pytestmark = pytest.mark.django_db

START, END = date(2026, 5, 1), date(2026, 9, 30)


def contract(clerk, parcels, **kw):
    fields = dict(number="VC-2026-07", contractor="Brandt Excavating", work="Walk replacement", parcels=parcels)
    return record_contract(**{**fields, "starts_on": START, "ends_on": END, "by": clerk, **kw})


@pytest.mark.parametrize(
    ("on", "in_force"),
    [(date(2026, 4, 30), False), (START, True), (END, True), (date(2026, 10, 1), False)],
)
def test_303_3c_a_contract_covers_its_parcels_from_its_first_through_its_last_day(clerk, on, in_force):
    parcel = ParcelFactory()
    contract(clerk, [parcel])
    codes = {v.code for v in contract_errors("vc-2026-07", parcel, on)}
    assert codes == (set() if in_force else {"contract_not_in_force"})


def test_303_3c_a_contract_covers_only_its_parcels_and_its_contractor(clerk):
    covered, other = ParcelFactory(), ParcelFactory()
    company = OrganizationFactory()
    contract(clerk, [covered], organization=company)
    assert contract_errors("VC-2026-07", covered, START, organization=company) == []
    assert {v.code for v in contract_errors("VC-2026-07", other, START, organization=company)} == {
        "contract_not_for_parcel"
    }
    [v] = contract_errors("VC-2026-07", covered, START, organization=OrganizationFactory())
    assert v.code == "contract_of_another" and "§ 303-3C" in v.message
    assert contract_errors("VC-9999", covered, START)[0].code == "no_such_contract"


def test_303_3c_the_register_refuses_an_incomplete_or_repeated_contract(clerk):
    parcel = ParcelFactory()
    with pytest.raises(RulesBroken) as exc:
        record_contract(number=" ", contractor="", work="", parcels=[], starts_on=END, ends_on=START, by=clerk)
    assert {v.field for v in exc.value.violations} == {"number", "contractor", "work", "parcels", "ends_on"}
    assert all("§ 303-3C" in v.message for v in exc.value.violations)
    contract(clerk, [parcel], ends_on=START)  # a one-day term is a term
    with pytest.raises(RulesBroken, match="already in the register"):
        contract(clerk, [parcel], number="vc-2026-07")
    assert VillageContract.objects.count() == 1


@pytest.mark.parametrize("role", [Role.DPW_DIRECTOR, Role.BOARD, Role.BUILDING_INSPECTOR, Role.POLICE_CHIEF])
def test_303_3c_only_the_clerk_keeps_the_register(role):
    with pytest.raises(PermissionDenied):
        contract(staff_user(f"u_{role}", role), [ParcelFactory()])
    assert not VillageContract.objects.exists()


def test_303_3c_the_clerk_enters_a_contract_on_the_register_page(client, clerk, django_assert_max_num_queries):
    parcel = ParcelFactory(tax_key="266-0001")
    client.force_login(clerk)
    url = reverse("obstructions:registers:village_contracts")
    answer = client.post(
        url,
        {
            "number": "VC-2026-08",
            "contractor": "Brandt Excavating",
            "work": "Walks on Elm",
            "parcels": "266-0001, 266-9999",
            "starts_on": "2026-05-01",
            "ends_on": "2026-09-30",
        },
    )
    assert answer.status_code == 200 and "Not on the tax roll: 266-9999 (§ 303-3C)" in answer.content.decode()
    answer = client.post(
        url,
        {
            "number": "VC-2026-08",
            "contractor": "Brandt Excavating",
            "work": "Walks on Elm",
            "parcels": "266-0001",
            "starts_on": "2026-05-01",
            "ends_on": "2026-09-30",
        },
    )
    assert answer.status_code == 302
    assert list(VillageContract.objects.get(number="VC-2026-08").parcels.all()) == [parcel]
    for n in range(6):
        contract(clerk, [ParcelFactory()], number=f"VC-X-{n}")
    with django_assert_max_num_queries(12):
        page = client.get(url).content.decode()
    assert "VC-2026-08" in page and parcel.site_address in page


def test_303_3c_staff_read_the_register_but_only_the_clerk_posts(client, dpw_director):
    client.force_login(dpw_director)
    url = reverse("obstructions:registers:village_contracts")
    page = client.get(url)
    assert page.status_code == 200 and "Enter the contract" not in page.content.decode()
    assert client.post(url, {"number": "X"}).status_code == 403


@pytest.mark.slow
def test_the_demo_has_a_village_contract_and_a_terrace_approval_on_record():
    from django.core.management import call_command

    from obstructions.registers.models import TerraceApproval

    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    contract = VillageContract.objects.get()
    assert contract.parcels.count() == 2 and contract.organization is not None
    approval = TerraceApproval.objects.get()
    assert approval.motion.carried and approval.motion.item.clause == "303-9"
