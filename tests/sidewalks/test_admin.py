"""The back office for sidewalks, as the Clerk-Treasurer's role has it (group permissions, not a superuser):
waivers checked by § 303-3D(8)(c), status read-only, no deletes."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sidewalks import services
from sidewalks.models import BoardWaiver, SidewalkOrder
from tests.sidewalks.conftest import TODAY

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_for(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def waiver_data(shop, ayes):
    from datetime import date

    from tests.board_world import vote

    motion = vote(
        clause="303-3D(8)(c)",
        ayes=ayes,
        nays=7 - ayes,
        held_on=date(2026, 6, 1),
        rule="three_fourths_entire",
        number="2026-40",
    )
    return {"kind": "width_thickness", "parcel": shop.pk, "motion": motion.pk, "reason": "Narrow lot"}


def test_303_3d_8_c_admin_refuses_a_five_of_seven_waiver(admin_client_for, clerk, shop):
    response = admin_client_for(clerk).post(reverse("admin:sidewalks_boardwaiver_add"), waiver_data(shop, 5))
    assert response.status_code == 200 and "6 ayes of the 7 seats" in response.content.decode()
    assert not BoardWaiver.objects.exists()


def test_303_3d_8_c_admin_records_a_six_of_seven_waiver_with_who_recorded_it(admin_client_for, clerk, shop):
    admin_client_for(clerk).post(reverse("admin:sidewalks_boardwaiver_add"), waiver_data(shop, 6))
    waiver = BoardWaiver.objects.get()
    assert waiver.is_effective and waiver.recorded_by == clerk


def test_order_admin_edits_only_the_highland_theresa_flag(admin_client_for, clerk, inspector, elm, home):
    survey = services.start_survey(street=elm, by=inspector, surveyed_on=TODAY)
    services.record_block(survey=survey, parcel=home, block_number=1, vertical_inches=Decimal("1"), by=inspector)
    [order] = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    client = admin_client_for(clerk)
    url = reverse("admin:sidewalks_sidewalkorder_change", args=[order.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"highland_theresa_project": "on", "status": "charged", "estimated_cost": "1"})
    order.refresh_from_db()
    assert order.highland_theresa_project and order.status == "proposed" and order.estimated_cost == Decimal("240.00")
    assert (
        client.post(reverse("admin:sidewalks_sidewalkorder_delete", args=[order.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert SidewalkOrder.objects.exists()


def test_admin_lists_open(admin_client_for, clerk, issued):
    client = admin_client_for(clerk)
    for name in ("sidewalkpermit", "sidewalkinspection", "boardwaiver", "sidewalksurvey", "sidewalkorder"):
        assert client.get(reverse(f"admin:sidewalks_{name}_changelist")).status_code == 200


def test_only_the_clerk_records_board_waivers_in_the_admin(client, dpw_director, shop):
    client.force_login(dpw_director)
    assert client.get(reverse("admin:sidewalks_boardwaiver_add")).status_code == 403


def test_303_3d_9_admin_refuses_a_cold_weather_waiver_without_its_permit_and_end(admin_client_for, clerk, issued):
    from tests.board_world import vote

    motion = vote(clause="303-3D(9)", ayes=4, held_on=TODAY, absent=3, number="E-9")
    data = {"kind": "cold_weather", "parcel": issued.parcel.pk, "motion": motion.pk, "reason": "Main break"}
    response = admin_client_for(clerk).post(reverse("admin:sidewalks_boardwaiver_add"), data)
    assert response.status_code == 200 and "§ 303-3D(9)" in response.content.decode()
    assert not BoardWaiver.objects.exists()
    full = {**data, "permit": issued.pk, "emergency": "Main break", "ends_on": "2026-06-10"}
    admin_client_for(clerk).post(reverse("admin:sidewalks_boardwaiver_add"), full)
    waiver = BoardWaiver.objects.get()
    assert waiver.permit == issued and str(waiver.ends_on) == "2026-06-10" and waiver.emergency == "Main break"


def test_303_3c_admin_shows_the_owner_of_record_and_the_standing(admin_client_for, clerk, issued):
    page = (
        admin_client_for(clerk)
        .get(reverse("admin:sidewalks_sidewalkpermit_change", args=[issued.sidewalk.pk]))
        .content.decode()
    )
    assert "Owner of record" in page and "Olsen, Olga" in page
