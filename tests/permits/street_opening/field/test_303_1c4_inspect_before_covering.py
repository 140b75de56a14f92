"""§ 303-1C(4): "on request of the Director of Public Works, the utility company must provide opportunity for him to
check any construction before it may be covered". The Director asks; until the DPW's underground inspection is
logged, nothing that covers the construction is recorded, and the work is not completed."""

import datetime
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import Notice
from permits.street_opening import lifecycle
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import CoveringHold, Inspection

pytestmark = pytest.mark.django_db

COVERING = {
    "backfill": {"largest_stone_inches": D("4")},
    "compaction": {"lift_inches": D("12"), "compaction_percent": D("95"), "mechanical": True, "flooded": False},
    "final": {"surface_restored": True},
}


@pytest.fixture
def utility_permit(make_issued):
    return make_issued(underground_utility=True)


def _hold(permit, by, **kw):
    return field_work.request_inspection_before_covering(permit=permit, by=by, **kw)


def _codes(broken):
    return {v.code for v in broken.value.violations}


def test_303_1c4_the_director_asks_and_the_permittee_is_told(utility_permit, dpw_director, contractor):
    hold = _hold(utility_permit, dpw_director, note="Call before backfilling the gas main")
    assert hold.is_open and _hold(utility_permit, dpw_director) == hold  # asking again changes nothing
    assert CoveringHold.objects.count() == 1
    sent = Notice.objects.get(template="field_covering_hold")
    assert sent.to == contractor.email and "§ 303-1C(4)" in sent.body
    assert utility_permit.events.filter(reason__contains="§ 303-1C(4)").exists()


@pytest.mark.parametrize("persona", ["inspector", "clerk", "contractor", "board_member"])
def test_303_1c4_only_the_director_asks(utility_permit, persona, request):
    with pytest.raises(PermissionDenied):
        _hold(utility_permit, request.getfixturevalue(persona))
    assert not CoveringHold.objects.exists()


def test_303_1c4_is_for_underground_construction_under_way(make_issued, utility_permit, dpw_director, contractor):
    with pytest.raises(RulesBroken) as broken:
        _hold(make_issued(underground_utility=False), dpw_director)
    assert _codes(broken) == {"not_underground"}
    from tests.permits.street_opening.conftest import complete_work

    complete_work(utility_permit, permittee=contractor)
    utility_permit.refresh_from_db()
    with pytest.raises(RulesBroken) as broken:
        _hold(utility_permit, dpw_director)
    assert _codes(broken) == {"not_under_way"}


@pytest.mark.parametrize("kind", sorted(COVERING))
def test_303_1c4_covering_inspections_are_refused_until_the_check(utility_permit, dpw_director, inspector, kind):
    _hold(utility_permit, dpw_director)
    with pytest.raises(RulesBroken) as broken:
        field_work.log_inspection(permit=utility_permit, kind=kind, by=inspector, values=COVERING[kind])
    assert _codes(broken) == {"covered_before_inspection"}
    assert "§ 303-1C(4)" in broken.value.violations[0].message
    assert not Inspection.objects.filter(kind=kind).exists()
    field_work.log_inspection(
        permit=utility_permit, kind="underground_depth", by=inspector, values={"cover_feet": D("3")}
    )
    assert not CoveringHold.objects.get().is_open
    assert field_work.log_inspection(permit=utility_permit, kind=kind, by=inspector, values=COVERING[kind]).pk


def test_303_1c4_restoration_is_refused_until_the_check(utility_permit, dpw_director, inspector, contractor):
    _hold(utility_permit, dpw_director)
    with pytest.raises(RulesBroken) as broken:
        field_work.record_permanent_pavement(
            permit=utility_permit, by=contractor, completed_on=datetime.date(2026, 6, 20)
        )
    assert _codes(broken) == {"covered_before_inspection"}
    with pytest.raises(RulesBroken) as broken:
        field_work.record_temporary_pavement(
            permit=utility_permit, by=contractor, placed_on=datetime.date(2026, 6, 20), depth_inches=D("3")
        )
    assert "covered_before_inspection" in _codes(broken)
    assert "covered_before_inspection" in {v.code for v in lifecycle.completion_refusals(utility_permit)}
    field_work.log_inspection(
        permit=utility_permit, kind="underground_depth", by=inspector, values={"cover_feet": D("3")}
    )
    restoration = field_work.record_permanent_pavement(
        permit=utility_permit, by=contractor, completed_on=datetime.date(2026, 6, 20)
    )
    assert restoration.permanent_completed_on == datetime.date(2026, 6, 20)
    assert "covered_before_inspection" not in {v.code for v in lifecycle.completion_refusals(utility_permit)}


def test_303_1c4_a_check_that_finds_it_covered_fails_and_releases(utility_permit, dpw_director, inspector):
    _hold(utility_permit, dpw_director)
    found = field_work.log_inspection(
        permit=utility_permit,
        kind="underground_depth",
        by=inspector,
        values={"cover_feet": D("3"), "covered_before_check": True},
    )
    assert found.result == "fail" and "§ 303-1C(4)" in found.citations
    assert not CoveringHold.objects.get().is_open


def test_303_1c4_without_a_request_covering_needs_no_check(utility_permit, inspector):
    assert field_work.log_inspection(
        permit=utility_permit, kind="backfill", by=inspector, values=COVERING["backfill"]
    ).pk


def test_303_1c4_the_field_page_asks_and_shows_the_hold(client, utility_permit, dpw_director, contractor):
    client.force_login(dpw_director)
    page = reverse("permits:field_permit", args=[utility_permit.number])
    assert "Ask to inspect before covering" in client.get(page).content.decode()
    client.post(reverse("permits:field_covering_hold", args=[utility_permit.number]), {"hold-note": "Call first"})
    assert CoveringHold.objects.get().note == "Call first"
    client.force_login(contractor)
    assert "Do not cover the construction yet" in client.get(page).content.decode()


def test_303_1c4_no_path_completes_the_work_before_the_check(utility_permit, dpw_director, inspector, contractor):
    """The admin's status change and the shell go through transition(), which asks the same refusals."""
    from permits import workflow
    from permits.models import Status

    lifecycle.request_completion(permit=utility_permit, by=contractor)
    field_work.log_inspection(permit=utility_permit, kind="final", by=inspector, values={"surface_restored": True})
    _hold(utility_permit, dpw_director)
    utility_permit.refresh_from_db()
    with pytest.raises(RulesBroken) as broken:
        workflow.transition(utility_permit, Status.COMPLETED, by=dpw_director)
    assert "covered_before_inspection" in _codes(broken)
    with pytest.raises(RulesBroken):
        lifecycle.confirm_completion(permit=utility_permit, by=inspector)
    utility_permit.refresh_from_db()
    assert utility_permit.status != Status.COMPLETED
