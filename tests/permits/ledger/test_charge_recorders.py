"""Only the Clerk-Treasurer and the officials a clause names put a special charge on a parcel (§ 303-8B, § 303-2,
§ 303-3, § 303-6F(1), § 303-4H(2)): the Chief of Police cannot bill a parcel for snow removal."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge
from tests.factories import ParcelFactory

pytestmark = pytest.mark.django_db
S = SpecialCharge.Source


def _charge(by, source=S.SNOW_ICE):
    return add_charge(
        parcel=ParcelFactory(owner_email="owner@example.com"),
        source=source,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=Decimal("75.00"),
        incurred_on=date(2026, 12, 1),
        description="Snow cleared by the Village",
        citation="§ 303-8B",
        by=by,
        today=date(2026, 12, 1),
    )


@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "inspector"])
def test_303_8b_the_clerk_and_the_dpw_record_a_snow_charge(persona, request):
    assert _charge(request.getfixturevalue(persona)).status == SpecialCharge.Status.BILLED


@pytest.mark.parametrize("persona", ["police_chief", "building_inspector", "board_member", "resident"])
def test_303_8b_no_other_role_bills_a_parcel_for_snow(persona, request):
    with pytest.raises(PermissionDenied):
        _charge(request.getfixturevalue(persona))
    assert not SpecialCharge.objects.exists()


def test_303_6f_1_any_enforcement_official_keeps_the_account_of_a_removal(police_chief):
    assert _charge(police_chief, S.OBSTRUCTION_REMOVAL).source == S.OBSTRUCTION_REMOVAL
