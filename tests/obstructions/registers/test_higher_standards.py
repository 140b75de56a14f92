"""§ 303-3D(11): the Board's higher sidewalk standard for a location, recorded by the clerk and applied by the sidewalk
rules on every path (service, form, API)."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from obstructions.registers import services
from permits.board.clauses import Clause
from permits.errors import RulesBroken
from permits.models import Parcel, Permit
from sidewalks import services as sidewalk_services
from sidewalks.forms import SidewalkApplicationForm
from tests import board_world
from tests.factories import ParcelFactory, StreetFactory
from tests.obstructions.registers.conftest import new_walk, posted

pytestmark = pytest.mark.django_db
TODAY = date(2026, 6, 1)
WALK = new_walk(width_feet="5", thickness_inches="5", driveway_thickness_inches="7")


@pytest.fixture
def main():
    return StreetFactory(name="Main Street")


@pytest.fixture
def shop(main):
    return ParcelFactory(
        tax_key="266-1116-2001", site_address="200 Main Street", street=main, land_use=Parcel.LandUse.COMMERCIAL
    )


def motion(number="2026-70", clause=Clause.HIGHER_STANDARD):
    return board_world.vote(clause=clause, ayes=4, number=number, held_on=date(2026, 5, 12))


@pytest.fixture
def six_feet(clerk, shop):
    return services.record_higher_standard(
        street=shop.street, parcel=shop, min_width_feet=Decimal("6"), motion=motion(), by=clerk, today=TODAY
    )


def apply(contractor, parcel, **kw):
    return sidewalk_services.apply_for_sidewalk_permit(applicant=contractor, parcel=parcel, today=TODAY, **(WALK | kw))


def test_303_3d_11_a_walk_narrower_than_the_boards_standard_is_refused(contractor, shop, six_feet):
    with pytest.raises(RulesBroken) as exc:
        apply(contractor, shop, width_feet=Decimal("5.99"))
    assert "§ 303-3D(11)" in str(exc.value) and "2026-70" in str(exc.value)
    assert not Permit.objects.exists()


def test_303_3d_11_a_walk_exactly_at_the_boards_standard_is_accepted(contractor, shop, six_feet):
    assert apply(contractor, shop, width_feet=Decimal("6")).status == "submitted"


def test_303_3d_11_without_a_standard_the_ordinance_minimum_is_enough(contractor, shop):
    assert apply(contractor, shop, width_feet=Decimal("5")).status == "submitted"


def test_303_3d_11_a_standard_for_the_whole_street_applies_to_each_parcel(clerk, contractor, shop, main):
    services.record_higher_standard(
        street=main, min_thickness_inches=Decimal("6"), motion=motion(), by=clerk, today=TODAY
    )
    with pytest.raises(RulesBroken, match="all of Main Street"):
        apply(contractor, shop, thickness_inches=Decimal("5.5"))


def test_303_3d_11_the_parcels_own_standard_comes_before_the_streets(clerk, contractor, shop, main, six_feet):
    services.record_higher_standard(
        street=main, min_width_feet=Decimal("8"), motion=motion("2026-71"), by=clerk, today=TODAY
    )
    assert apply(contractor, shop, width_feet=Decimal("6")).status == "submitted"


def test_303_3d_11_a_standard_adopted_after_the_application_day_does_not_apply(clerk, contractor, shop):
    late = board_world.vote(clause=Clause.HIGHER_STANDARD, ayes=4, number="2026-72", held_on=date(2026, 6, 2))
    services.record_higher_standard(
        street=shop.street, parcel=shop, min_width_feet=Decimal("9"), motion=late, by=clerk, today=date(2026, 6, 2)
    )
    assert apply(contractor, shop, width_feet=Decimal("5")).status == "submitted"


def test_303_3d_11_the_form_names_the_width_field(contractor, shop, six_feet):
    data = posted(WALK, parcel=shop.tax_key, driveway_length_feet="0")
    form = SidewalkApplicationForm(data | {"width_feet": "5.5"}, user=contractor, today=TODAY)
    assert not form.is_valid()
    assert "§ 303-3D(11)" in " ".join(form.errors["width_feet"])


def test_303_3d_11_the_api_is_a_400_citing_the_section(contractor, shop, six_feet):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    from datetime import datetime
    from zoneinfo import ZoneInfo

    import time_machine

    body = posted(WALK, parcel=shop.tax_key, width_feet="5.5")
    with time_machine.travel(datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        response = api.post("/api/v1/sidewalk-permits/", body, format="json")
    assert response.status_code == 400
    assert "§ 303-3D(11)" in {e["citation"] for e in response.json()["errors"]}


def test_303_3d_11_a_standard_needs_a_carried_motion_under_its_clause(clerk, shop):
    with pytest.raises(RulesBroken, match="§ 303-3D"):
        services.record_higher_standard(
            street=shop.street, min_width_feet=Decimal("6"), motion=motion(clause=Clause.GRADE), by=clerk, today=TODAY
        )


@pytest.mark.parametrize("who", ["dpw_director", "board_member", "president", "contractor"])
def test_303_3d_11_only_the_clerk_records_a_standard(request, who, shop):
    with pytest.raises(PermissionDenied):
        services.record_higher_standard(
            street=shop.street, min_width_feet=Decimal("6"), motion=motion(), by=request.getfixturevalue(who)
        )


def test_303_10_a_sidewalk_application_showing_a_vault_is_refused_on_the_service_and_form(contractor, shop):
    with pytest.raises(RulesBroken, match="§ 303-10"):
        apply(contractor, shop, vault_or_cistern=True)
    data = posted(WALK, parcel=shop.tax_key, driveway_length_feet="0")
    form = SidewalkApplicationForm(data | {"vault_or_cistern": "on"}, user=contractor, today=TODAY)
    assert not form.is_valid() and "§ 303-10" in " ".join(form.errors["vault_or_cistern"])
    assert not Permit.objects.exists()


def test_303_10_the_api_refuses_a_vault_with_a_400(contractor, shop):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    import time_machine

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    body = posted(WALK, parcel=shop.tax_key, vault_or_cistern=True)
    with time_machine.travel(datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        response = api.post("/api/v1/sidewalk-permits/", body, format="json")
    assert response.status_code == 400
    assert "§ 303-10" in {e["citation"] for e in response.json()["errors"]}
    assert not Permit.objects.exists()
