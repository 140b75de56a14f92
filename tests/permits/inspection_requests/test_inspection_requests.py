"""Inspection requests (permits/inspection_requests): the DPW offers times, the permittee asks for the inspection the
work needs at one of them, cancels or moves it; a full time, a begun one, or a backfill with less than four hours'
notice (§ 303-5F) is refused naming the rule, and nothing is stored."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.errors import RulesBroken
from permits.inspection_requests import rules, services
from permits.models import InspectionRequest, Permit, PermitKind, Status
from tests.factories import PermitFactory

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 6, 1, 8, 0, tzinfo=CHICAGO)  # a Monday, 8 am
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def issued_permit(applicant, kind=PermitKind.STREET_OPENING, status=Status.ISSUED):
    permit = PermitFactory(applicant=applicant, kind=kind)
    Permit.objects.filter(pk=permit.pk).update(status=status)
    permit.refresh_from_db()
    return permit


def slot(by, *, starts=time(12, 0), capacity=1, day=date(2026, 6, 1)):
    return services.offer_slot(
        by=by,
        day=day,
        starts_at=starts,
        ends_at=time(starts.hour + 2),
        inspector=by,
        capacity=capacity,
        today=NOW.date(),
    )


@pytest.mark.parametrize(
    ("hours_ahead", "too_short"), [(timedelta(hours=4) - timedelta(minutes=1), True), (timedelta(hours=4), False)]
)
def test_303_5f_a_backfill_is_asked_for_at_least_four_hours_ahead(hours_ahead, too_short):
    assert (
        rules.backfill_notice_too_short(kind="backfill", requested_at=NOW, window_opens=NOW + hours_ahead) is too_short
    )
    assert not rules.backfill_notice_too_short(kind="final", requested_at=NOW, window_opens=NOW + hours_ahead)


@pytest.mark.parametrize(("taken", "full"), [(1, False), (2, True), (3, True)])
def test_303_5f_a_time_is_full_at_its_capacity(taken, full):
    assert rules.slot_is_full(taken=taken, capacity=2) is full


def test_the_permittee_asks_for_a_backfill_exactly_four_hours_ahead(resident, inspector):
    permit = issued_permit(resident)
    made = services.request_inspection(
        by=resident, permit=permit, slot=slot(inspector, starts=time(12, 0)), kind="backfill", now=NOW
    )
    assert made.slot.inspector == inspector and made.cancelled_at is None


def test_a_backfill_three_hours_59_ahead_is_refused_naming_the_rule(resident, inspector):
    permit = issued_permit(resident)
    early = slot(inspector, starts=time(11, 59))
    with pytest.raises(RulesBroken) as refused:
        services.request_inspection(by=resident, permit=permit, slot=early, kind="backfill", now=NOW)
    assert [v.code for v in refused.value.violations] == ["backfill_notice"]
    assert "§ 303-5F" in str(refused.value)
    assert not InspectionRequest.objects.exists()


def test_the_last_place_is_taken_then_the_time_is_refused_as_full(resident, contractor, inspector):
    offered = slot(inspector, capacity=2)
    first, second, third = issued_permit(resident), issued_permit(resident), issued_permit(contractor)
    services.request_inspection(by=resident, permit=first, slot=offered, kind="final", now=NOW)
    services.request_inspection(by=resident, permit=second, slot=offered, kind="final", now=NOW)
    with pytest.raises(RulesBroken) as refused:
        services.request_inspection(by=contractor, permit=third, slot=offered, kind="final", now=NOW)
    assert "this inspection time is full (2 of 2 taken)" in str(refused.value)
    assert InspectionRequest.objects.count() == 2


def test_a_cancelled_request_frees_its_place_and_stays_on_record(resident, contractor, inspector):
    offered = slot(inspector)
    asked = services.request_inspection(
        by=resident, permit=issued_permit(resident), slot=offered, kind="final", now=NOW
    )
    services.cancel_request(by=resident, request=asked, now=NOW)
    services.request_inspection(by=contractor, permit=issued_permit(contractor), slot=offered, kind="final", now=NOW)
    assert InspectionRequest.objects.filter(cancelled_at__isnull=False).get().cancelled_by == resident


def test_reschedule_to_a_full_time_changes_nothing(resident, contractor, inspector):
    mine, full = slot(inspector), slot(inspector, starts=time(14, 0))
    asked = services.request_inspection(by=resident, permit=issued_permit(resident), slot=mine, kind="final", now=NOW)
    services.request_inspection(by=contractor, permit=issued_permit(contractor), slot=full, kind="final", now=NOW)
    with pytest.raises(RulesBroken):
        services.reschedule_request(by=resident, request=asked, slot=full, now=NOW)
    asked.refresh_from_db()
    assert asked.cancelled_at is None and asked.slot == mine


def test_a_sidewalk_asks_for_its_pour_inspection_not_a_backfill(resident, inspector):
    permit = issued_permit(resident, kind=PermitKind.SIDEWALK)
    with pytest.raises(RulesBroken) as refused:
        services.request_inspection(by=resident, permit=permit, slot=slot(inspector), kind="backfill", now=NOW)
    assert refused.value.violations[0].field == "kind"
    assert services.request_inspection(by=resident, permit=permit, slot=slot(inspector), kind="pour", now=NOW)


@pytest.mark.parametrize("status", [Status.SUBMITTED, Status.APPROVED, Status.COMPLETED])
def test_only_an_issued_or_active_permit_is_inspected(resident, inspector, status):
    permit = issued_permit(resident, status=status)
    with pytest.raises(RulesBroken):
        services.request_inspection(by=resident, permit=permit, slot=slot(inspector), kind="final", now=NOW)


def test_someone_else_cannot_ask_for_the_permittees_inspection(resident, outsider, inspector):
    with pytest.raises(RulesBroken):
        services.request_inspection(
            by=outsider, permit=issued_permit(resident), slot=slot(inspector), kind="final", now=NOW
        )


@pytest.mark.parametrize("persona", ["clerk", "board_member", "resident"])
def test_only_the_dpw_offers_times(request, persona):
    with pytest.raises(PermissionDenied):
        slot(request.getfixturevalue(persona))


def test_a_time_ending_before_it_starts_or_on_a_past_day_is_refused(dpw_director):
    with pytest.raises(RulesBroken) as refused:
        services.offer_slot(
            by=dpw_director,
            day=date(2026, 5, 31),
            starts_at=time(10),
            ends_at=time(10),
            inspector=dpw_director,
            capacity=1,
            today=NOW.date(),
        )
    assert {v.field for v in refused.value.violations} == {"day", "ends_at"}


def test_the_permittee_asks_on_the_permit_page_and_the_dpw_sees_it_on_the_day(client, resident, inspector):
    permit = issued_permit(resident)
    offered = slot(inspector)
    client.force_login(resident)
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "Inspections asked for" in page and str(offered) in page
    response = client.post(
        reverse("permits:request_inspection", args=[permit.number]), {"kind": "final", "slot": offered.pk}
    )
    assert response.status_code == 302
    assert "Final inspection of the finished work" in client.get(permit.get_absolute_url()).content.decode()
    client.force_login(inspector)
    day = client.get(reverse("permits:inspection_times"), {"day": "2026-06-01"}).content.decode()
    assert permit.number in day
    assert f'href="{reverse("permits:inspection_times")}"' in client.get(reverse("permits:workspace")).content.decode()


def test_the_dpw_offers_a_time_on_its_page(client, dpw_director, inspector):
    client.force_login(dpw_director)
    data = {"day": "2026-06-02", "starts_at": "09:00", "ends_at": "11:00", "inspector": inspector.pk, "capacity": 3}
    assert client.post(reverse("permits:inspection_times"), data).status_code == 302
    bad = client.post(reverse("permits:inspection_times"), {**data, "ends_at": "08:00"})
    assert bad.status_code == 400 and "Until: the window ends after it starts" in bad.content.decode()
    client.force_login(inspector)
    assert client.get(reverse("permits:inspection_times")).status_code == 200


def test_the_permittee_moves_a_request_on_the_permit_page_and_a_full_time_is_refused(
    client, resident, contractor, inspector
):
    permit = issued_permit(resident)
    mine, later, full = slot(inspector), slot(inspector, starts=time(14, 0)), slot(inspector, starts=time(16, 0))
    asked = services.request_inspection(by=resident, permit=permit, slot=mine, kind="final", now=NOW)
    services.request_inspection(by=contractor, permit=issued_permit(contractor), slot=full, kind="final", now=NOW)
    client.force_login(resident)
    url = reverse("permits:cancel_inspection", args=[permit.number, asked.pk])
    assert 'name="slot" id="move-' in client.get(permit.get_absolute_url()).content.decode()
    refused = client.post(url, {"slot": full.pk}, follow=True).content.decode()
    assert "this inspection time is full (1 of 1 taken)" in refused
    client.post(url, {"slot": later.pk})
    assert InspectionRequest.objects.get(cancelled_at=None, permit=permit).slot == later
    moved = InspectionRequest.objects.get(cancelled_at=None, permit=permit)
    client.post(reverse("permits:cancel_inspection", args=[permit.number, moved.pk]))
    assert not InspectionRequest.objects.filter(cancelled_at=None, permit=permit).exists()
