"""Snow and ice (§ 303-8) and rubbish (§ 303-2): services, roles, and the charges they create."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from permits.ledger.models import SpecialCharge
from permits.ledger.services import charges_for_work
from sidewalks.models import RubbishCase, SnowCase
from sidewalks.snow import services as snow
from tests.sidewalks.snow.conftest import rubbish_notice

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)


@pytest.fixture
def snowfall(dpw_director):
    return snow.record_snowfall(stopped_at=STOPPED, inches=Decimal("5.0"), by=dpw_director)


@pytest.fixture
def case(snowfall, parcel):
    return snow.report_snow_case(address=f"  {parcel.site_address.upper()} ", at=STOPPED + timedelta(hours=20))


def test_public_report_matches_the_parcel_and_snowfall(case, parcel, snowfall):
    assert case.parcel == parcel and case.snowfall == snowfall
    assert case.reported_via == SnowCase.ReportedVia.PUBLIC and case.reported_by is None
    assert case.number.startswith("SN-2026-")


def test_owner_is_emailed_when_a_case_opens(case):
    from permits.models import Notice

    notice = Notice.objects.get(template="snow_case_notice")
    assert notice.to == "olga@example.com" and "§ 303-8A" in notice.body and "January 14, 2026 6:00 AM" in notice.body


def test_second_report_of_the_same_walk_is_the_same_case(case, parcel):
    again = snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=21))
    assert again == case and SnowCase.objects.count() == 1


def test_snowfall_recorded_after_the_report_is_used_for_clearing(parcel, dpw_director):
    case = snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=20))
    assert case.snowfall is None
    snow.record_snowfall(stopped_at=STOPPED, by=dpw_director)
    charge = snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=25))
    case.refresh_from_db()
    assert case.snowfall is not None and charge.amount == Decimal("75.00")


def test_303_8a_address_on_a_street_without_lots_is_kept_for_staff_to_match(snowfall, nowhere_road):
    case = snow.report_snow_case(address="999 Nowhere Road", at=STOPPED + timedelta(hours=2))
    assert case.parcel is None and case.reported_address == "999 Nowhere Road" and case.street == nowhere_road


def test_inspector_logs_clearing_and_the_fee_schedule_charge_follows(case, inspector, parcel):
    charge = snow.log_village_clearing(case=case, by=inspector, at=STOPPED + timedelta(hours=24))
    assert charge.amount == Decimal("75.00")  # seeded snow_removal fee
    assert charge.source == SpecialCharge.Source.SNOW_ICE
    assert charge.route == SpecialCharge.Route.SPECIAL_CHARGE_66_0627
    assert charge.citation == "§ 303-8B" and charge.parcel == parcel
    assert charge.work_record == case and list(charges_for_work(case)) == [charge]
    case.refresh_from_db()
    assert case.status == SnowCase.Status.VILLAGE_CLEARED and case.cleared_by == inspector


def test_303_8b_clearing_logged_at_23_hours_59_refused(case, dpw_director):
    with pytest.raises(ValidationError) as exc:
        snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=23, minutes=59))
    assert "§ 303-8B" in exc.value.message_dict["at"][0]
    assert not SpecialCharge.objects.exists()
    case.refresh_from_db()
    assert case.status == SnowCase.Status.OPEN


def test_clearing_twice_charges_once(case, dpw_director):
    snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=30))
    with pytest.raises(ValidationError):
        snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=31))
    assert SpecialCharge.objects.count() == 1


def test_resident_cannot_log_clearing_or_record_snowfall(case, resident):
    with pytest.raises(PermissionDenied):
        snow.log_village_clearing(case=case, by=resident, at=STOPPED + timedelta(hours=30))
    with pytest.raises(PermissionDenied):
        snow.record_snowfall(stopped_at=STOPPED, by=resident)


def test_clerk_cannot_log_clearing(case, clerk):
    with pytest.raises(PermissionDenied):
        snow.log_village_clearing(case=case, by=clerk, at=STOPPED + timedelta(hours=30))


@pytest.mark.usefixtures("nowhere_road")
def test_case_without_parcel_cannot_be_charged(snowfall, dpw_director):
    case = snow.report_snow_case(address="999 Nowhere Road", at=STOPPED + timedelta(hours=2))
    with pytest.raises(ValidationError) as exc:
        snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=30))
    assert "parcel" in exc.value.message_dict


def test_owner_cleared_case_closes_without_charge(case, inspector):
    snow.close_snow_case(case=case, by=inspector, status=SnowCase.Status.OWNER_CLEARED)
    assert not SpecialCharge.objects.exists()


def test_snowfall_in_the_future_refused(dpw_director):
    from django.utils import timezone

    with pytest.raises(ValidationError):
        snow.record_snowfall(stopped_at=timezone.now() + timedelta(hours=1), by=dpw_director)


# --- Rubbish (§ 303-2) ------------------------------------------------------------------------------------------


@pytest.fixture
def rubbish(parcel, inspector, django_capture_on_commit_callbacks):
    return rubbish_notice(parcel, inspector, STOPPED)


def test_303_2_notice_defaults_to_24_hours_and_emails_the_owner(rubbish):
    from permits.models import Notice

    assert rubbish.deadline_at == STOPPED + timedelta(hours=24)
    assert Notice.objects.filter(template="rubbish_notice", to="olga@example.com").exists()


def test_303_2_village_removal_at_the_deadline_refused(rubbish, inspector):
    with pytest.raises(ValidationError) as exc:
        snow.log_rubbish_removal(case=rubbish, cost="120.00", by=inspector, at=rubbish.deadline_at)
    assert "§ 303-2" in exc.value.message_dict["at"][0]


def test_303_2_village_removal_after_the_deadline_charges_the_cost(rubbish, inspector):
    charge = snow.log_rubbish_removal(
        case=rubbish, cost="120.00", by=inspector, at=rubbish.deadline_at + timedelta(minutes=1)
    )
    assert charge.amount == Decimal("120.00") and charge.source == SpecialCharge.Source.RUBBISH
    assert charge.citation == "§ 303-2" and charge.work_record == rubbish
    rubbish.refresh_from_db()
    assert rubbish.status == RubbishCase.Status.VILLAGE_REMOVED and rubbish.removal_cost == Decimal("120.00")


def test_303_2_negative_cost_refused(rubbish, inspector):
    with pytest.raises(ValidationError) as exc:
        snow.log_rubbish_removal(case=rubbish, cost="-1", by=inspector, at=rubbish.deadline_at + timedelta(hours=1))
    assert "cost" in exc.value.message_dict


def test_resident_cannot_serve_a_rubbish_notice(parcel, resident):
    with pytest.raises(PermissionDenied):
        snow.serve_rubbish_notice(parcel=parcel, description="x", served_to="x", served_method="x", by=resident)


def test_demo_loader_is_idempotent(db):
    from permits.demo import load_demo
    from sidewalks.snow.demo import load

    load_demo()
    load()
    counts = (SpecialCharge.objects.count(), SnowCase.objects.count(), RubbishCase.objects.count())
    load()
    assert (SpecialCharge.objects.count(), SnowCase.objects.count(), RubbishCase.objects.count()) == counts
    assert counts[0] >= 4
    assert set(SpecialCharge.objects.values_list("status", flat=True)) >= {"billed", "paid", "delinquent"}


def test_303_8b_clearing_without_a_fee_in_force_is_refused_with_a_message(case, dpw_director):
    from permits.models import FeeItem

    FeeItem.objects.filter(code="snow_removal").delete()
    with pytest.raises(ValidationError) as exc:
        snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=30))
    assert "snow_removal" in exc.value.message_dict["at"][0]
    case.refresh_from_db()
    assert case.status == SnowCase.Status.OPEN
