"""§ 303-2: the owner is notified "by the Village Board or its designee": whoever a carried Board motion designated
for § 303-2 on the day served, in person or by office; no role serves notices by itself."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied

from permits.roles import Role
from sidewalks.snow import services as snow
from tests.board_world import designate
from tests.factories import ParcelFactory

pytestmark = pytest.mark.django_db
SERVED = datetime(2026, 6, 10, 9, 0, tzinfo=ZoneInfo("America/Chicago"))


def _serve(by):
    parcel = ParcelFactory(owner_email="owner@example.com")
    return snow.serve_rubbish_notice(
        parcel=parcel, description="Dirt", served_to="Owner", served_method="Personal delivery", by=by, served_at=SERVED
    )


@pytest.mark.parametrize(
    "persona, may",
    [
        ("inspector", True),
        ("dpw_director", False),
        ("clerk", False),
        ("board_member", False),
        ("president", False),
        ("police_chief", False),
        ("resident", False),
    ],
)
def test_303_2_only_the_designated_office_serves_notices(persona, may, request):
    designate("303-2", role=Role.DPW_INSPECTOR, starts_on=date(2026, 6, 1))
    user = request.getfixturevalue(persona)
    if may:
        assert _serve(user).number.startswith("RB")
    else:
        with pytest.raises(PermissionDenied, match="303-2"):
            _serve(user)


@pytest.mark.parametrize(
    "ends_on, may", [(date(2026, 6, 9), False), (date(2026, 6, 10), True), (date(2026, 6, 11), True)]
)
def test_303_2_designation_ending_the_day_before_of_or_after_service(inspector, ends_on, may):
    designate("303-2", user=inspector, starts_on=date(2026, 6, 1), ends_on=ends_on)
    if may:
        _serve(inspector)
    else:
        with pytest.raises(PermissionDenied):
            _serve(inspector)


def test_303_2_the_rubbish_page_offers_the_form_only_to_the_designee(client, inspector, dpw_director):
    from django.urls import reverse

    designate("303-2", user=inspector, starts_on=date(2020, 1, 1))
    client.force_login(dpw_director)
    assert client.post(reverse("sidewalks:rubbish_cases"), {}).status_code == 403
