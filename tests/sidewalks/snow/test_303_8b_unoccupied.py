"""§ 303-8B: "for an unoccupied lot or abandoned property no written notice need be given". DPW staff flag such a lot
on the snow case; no written notice goes out, and the Village still clears after 24 hours and charges."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits.models import Notice
from sidewalks.models import SnowCase
from sidewalks.snow import rules as snow_rules
from sidewalks.snow import services as snow

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)


def notices():
    return Notice.objects.filter(template="snow_case_notice").count()


@pytest.fixture
def snowfall(dpw_director):
    return snow.record_snowfall(stopped_at=STOPPED, inches=Decimal("5.0"), by=dpw_director)


def test_303_8b_written_notice_required_unless_unoccupied():
    assert snow_rules.written_notice_required(False) is True
    assert snow_rules.written_notice_required(True) is False


def test_303_8b_occupied_lot_owner_gets_written_notice(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(address=parcel.site_address, by=dpw_director, at=STOPPED + timedelta(hours=20))
    assert notices() == 1 and case.owner_notified_at is not None and not case.unoccupied


def test_303_8b_unoccupied_lot_flagged_when_opened_gets_no_notice(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(
        address=parcel.site_address, by=dpw_director, unoccupied=True, at=STOPPED + timedelta(hours=20)
    )
    assert case.unoccupied and notices() == 0 and case.owner_notified_at is None


def test_303_8b_unoccupied_lot_still_waits_24_hours_then_is_cleared_and_charged(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(
        address=parcel.site_address, by=dpw_director, unoccupied=True, at=STOPPED + timedelta(hours=2)
    )
    with pytest.raises(ValidationError) as exc:  # one minute short of the 24 hours
        snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=23, minutes=59))
    assert "§ 303-8B" in str(exc.value)
    charge = snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=24))
    assert charge.amount == Decimal("75.00") and charge.citation == "§ 303-8B" and notices() == 0


def test_303_8b_only_dpw_may_flag_a_lot_unoccupied(snowfall, parcel, clerk, resident):
    with pytest.raises(PermissionDenied):
        snow.report_snow_case(address=parcel.site_address, by=clerk, unoccupied=True)
    case = snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=2))
    for user in (clerk, resident):
        with pytest.raises(PermissionDenied):
            snow.set_unoccupied(case=case, by=user, unoccupied=True)


@pytest.mark.usefixtures("nowhere_road")
def test_303_8b_unmatched_report_flagged_then_assigned_sends_no_notice(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(address="999 Nowhere Road", at=STOPPED + timedelta(hours=2))
    snow.set_unoccupied(case=case, by=dpw_director, unoccupied=True)
    snow.assign_case(case=case, by=dpw_director, parcel=parcel)
    assert notices() == 0


def test_303_8b_unflagging_before_notice_gives_the_notice_once(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(
        address=parcel.site_address, by=dpw_director, unoccupied=True, at=STOPPED + timedelta(hours=2)
    )
    snow.set_unoccupied(case=case, by=dpw_director, unoccupied=False)
    snow.set_unoccupied(case=case, by=dpw_director, unoccupied=False)
    assert notices() == 1


def test_303_8b_closed_case_cannot_be_reflagged(snowfall, parcel, dpw_director):
    case = snow.report_snow_case(address=parcel.site_address, by=dpw_director, at=STOPPED + timedelta(hours=2))
    snow.close_snow_case(case=case, by=dpw_director, status=SnowCase.Status.DISMISSED)
    with pytest.raises(ValidationError):
        snow.set_unoccupied(case=case, by=dpw_director, unoccupied=True)


@pytest.mark.usefixtures("nowhere_road")
def test_303_8b_dpw_flags_on_the_case_page(client, snowfall, parcel, dpw_director):
    case = snow.report_snow_case(address="999 Nowhere Road", at=STOPPED + timedelta(hours=2))
    client.force_login(dpw_director)
    page = client.get(case.get_absolute_url())
    assert b"Unoccupied lot or abandoned property" in page.content
    response = client.post(reverse("sidewalks:snow_case_unoccupied", args=[case.number]), {"unoccupied": "on"})
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.unoccupied
    assert b"Not required: unoccupied lot" in client.get(case.get_absolute_url()).content


def test_303_8b_dpw_flags_when_opening_on_the_snow_page(client, snowfall, parcel, dpw_director):
    client.force_login(dpw_director)
    response = client.post(
        reverse("sidewalks:snow"),
        {
            "report-address": parcel.site_address,
            "report-unoccupied": "on",
        },
    )
    assert response.status_code == 302
    assert SnowCase.objects.get().unoccupied and notices() == 0


@pytest.mark.parametrize("persona", ["clerk", "inspector_building", "resident", "outsider"])
def test_303_8b_others_may_not_flag_on_the_page(client, request, snowfall, parcel, persona):
    name = {"inspector_building": "building_inspector"}.get(persona, persona)
    user = request.getfixturevalue(name)
    case = snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=2))
    client.force_login(user)
    response = client.post(reverse("sidewalks:snow_case_unoccupied", args=[case.number]), {"unoccupied": "on"})
    assert response.status_code in (403, 404)
    case.refresh_from_db()
    assert not case.unoccupied
