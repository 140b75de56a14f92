"""§ 303-6B(2): the Building Inspector's authorizations of building materials without a § 303-7 permit (who records
them, at the limits of the street register's widths), and how an enforcement case reads them: excepted only on the
dates authorized. A § 303-7 permit is § 303-6B(1)'s: excepted while in force, whatever share of the sidewalk its
fenced temporary walk leaves (§ 303-7D(3)), and § 303-6B(2)'s half-sidewalk limit is not applied to it."""

from datetime import date
from decimal import Decimal as D

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from obstructions import materials, services
from obstructions.models import Case, MaterialsAuthorization
from permits.errors import RulesBroken
from tests.obstructions.conftest import at
from tests.permits.street_privilege.conftest import fee, world  # noqa: F401  (the § 303-7 fixtures)

pytestmark = pytest.mark.django_db
FIRST, LAST = date(2026, 5, 4), date(2026, 5, 8)


def authorize(by, parcel, **overrides):
    values = dict(
        parcel=parcel,
        location_description="Curb lane in front of the house",
        starts_on=FIRST,
        ends_on=LAST,
        occupied_street_feet=D("10.0"),  # of Main Street's 30.0 ft traveled portion: exactly a third
        occupied_sidewalk_feet=D("2.5"),  # of its 5.0 ft sidewalk: exactly half
        gutter_kept_flowing=True,
        building_permit_number="B-2026-031",
    )
    return materials.authorize_materials(by=by, **{**values, **overrides})


def test_303_6b2_the_building_inspector_authorizes_at_exactly_the_limits(building_inspector, house):
    made = authorize(building_inspector, house)
    assert made.number.startswith("BM-") and made.traveled_width_feet == D("30.0")
    assert made.sidewalk_width_feet == D("5.0")


@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "inspector", "police_chief", "contractor"])
def test_303_6b2_nobody_else_authorizes_materials(persona, house, request):
    with pytest.raises(PermissionDenied):
        authorize(request.getfixturevalue(persona), house)
    assert not MaterialsAuthorization.objects.exists()


def test_303_6b2_a_tenth_over_either_limit_is_refused_and_nothing_stored(building_inspector, house):
    with pytest.raises(RulesBroken) as broken:
        authorize(building_inspector, house, occupied_street_feet=D("10.1"), occupied_sidewalk_feet=D("2.6"))
    assert {v.code for v in broken.value.violations} == {"more_than_a_third", "more_than_half"}
    assert not MaterialsAuthorization.objects.exists()


def test_303_6b2_the_register_is_read_not_what_anyone_types(building_inspector, house, main_street):
    main_street.traveled_width_feet = D("24.0")
    main_street.save()
    with pytest.raises(RulesBroken) as broken:
        authorize(building_inspector, house)  # 10.0 ft is more than a third of 24.0 ft
    assert [v.code for v in broken.value.violations] == ["more_than_a_third"]


def test_303_6b2_a_street_with_no_widths_fails_closed(building_inspector, house, main_street):
    main_street.width_feet = main_street.traveled_width_feet = main_street.sidewalk_width_feet = None
    main_street.save()
    with pytest.raises(RulesBroken) as broken:
        authorize(building_inspector, house)
    assert {v.code for v in broken.value.violations} == {"no_street_width"}
    assert all("/obstructions/registers/streets/" in v.message for v in broken.value.violations)


def seen_on(day, by, parcel, number):
    seen = at(day.year, day.month, day.day, 8, 0)
    with time_machine.travel(seen, tick=False):
        return services.open_case(
            kind=Case.Kind.OBSTRUCTION_SIDEWALK,
            address=parcel.site_address,
            what="Pallets of bricks on the sidewalk",
            seen_at=seen,
            by=by,
            excepting_permit=number,
        )


@pytest.mark.parametrize(
    ("day", "excepted"),
    [(date(2026, 5, 3), False), (FIRST, True), (LAST, True), (date(2026, 5, 9), False)],
)
def test_303_6b2_a_case_is_excepted_only_on_the_dates_authorized(day, excepted, building_inspector, inspector, house):
    number = authorize(building_inspector, house).number
    case = seen_on(day, inspector, house, number)
    assert (case.status == Case.Status.EXCEPTED) is excepted
    if not excepted:
        assert "May 4, 2026 to May 8, 2026 only (§ 303-6B(2))" in case.steps.first().note


def test_303_6b2_an_authorization_on_another_street_does_not_except(building_inspector, inspector, house, shop):
    from tests.factories import ParcelFactory, StreetFactory

    elsewhere = ParcelFactory(site_address="9 Mill Street", street=StreetFactory(name="Mill Street"))
    number = authorize(building_inspector, elsewhere).number
    case = seen_on(FIRST, inspector, house, number)
    assert case.status == Case.Status.OPEN and "another street" in case.steps.first().note


# --- A § 303-7 permit is § 303-6B(1)'s ---------------------------------------------------------------------------


def test_303_6b1_a_street_privilege_materials_permit_excepts_while_in_force(world, inspector, house):  # noqa: F811
    """Excepted by the permit in force, through its § 303-7E last day; no § 303-6B(2) half-sidewalk limit is read
    (its sidewalk is § 303-7D(3)'s: traffic kept on a fenced temporary walk)."""
    permit = world.walk("issued")
    parcel = house
    assert seen_on(date(2027, 3, 20), inspector, parcel, permit.number).status == Case.Status.EXCEPTED
    after = seen_on(date(2027, 6, 11), inspector, parcel, permit.number)  # the day after its § 303-7E last day
    assert after.status == Case.Status.OPEN and "§ 303-6B(1)" in after.steps.first().note


def test_the_building_inspector_authorizes_on_the_page(client, building_inspector, house):
    client.force_login(building_inspector)
    body = {
        "address": house.site_address,
        "location_description": "Curb lane",
        "starts_on": "2026-05-04",
        "ends_on": "2026-05-08",
        "occupied_street_feet": "10.0",
        "occupied_sidewalk_feet": "2.6",
        "gutter_kept_flowing": "on",
    }
    refused = client.post(reverse("obstructions:materials"), body)
    assert refused.status_code == 400 and "more than 1/2" in refused.content.decode()
    assert client.post(reverse("obstructions:materials"), {**body, "occupied_sidewalk_feet": "2.5"}).status_code == 302
    page = client.get(reverse("obstructions:materials")).content.decode()
    assert MaterialsAuthorization.objects.get().number in page


def test_an_unknown_address_is_named_on_the_page(client, building_inspector, house):
    client.force_login(building_inspector)
    body = {"address": "9 Nowhere Road", "location_description": "x"}
    response = client.post(reverse("obstructions:materials"), body)
    assert response.status_code == 400 and "Choose the parcel" in response.content.decode()


@pytest.mark.parametrize("persona", ["inspector", "police_chief", "clerk"])
def test_other_staff_read_but_may_not_authorize_on_the_page(client, persona, request, house):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("obstructions:materials")).status_code == 200
    assert client.post(reverse("obstructions:materials"), {"address": house.site_address}).status_code == 403


def test_the_page_counts_its_queries(client, building_inspector, house, django_assert_max_num_queries):
    for n in range(5):
        authorize(building_inspector, house, location_description=f"Spot {n}")
    client.force_login(building_inspector)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("obstructions:materials")).status_code == 200


def test_residents_do_not_see_the_page(client, resident):
    client.force_login(resident)
    assert client.get(reverse("obstructions:materials")).status_code in (302, 403)


def test_303_6b2_the_admin_only_reads_authorizations(admin_client, building_inspector, house):
    made = authorize(building_inspector, house)
    assert admin_client.get(reverse("admin:obstructions_materialsauthorization_add")).status_code == 403
    change = admin_client.post(
        reverse("admin:obstructions_materialsauthorization_change", args=[made.pk]), {"ends_on": "2026-12-31"}
    )
    assert change.status_code in (200, 403)
    assert MaterialsAuthorization.objects.get(pk=made.pk).ends_on == LAST
