"""§ 303-7A: whether a building permit is required is the Building Inspector's determination, recorded on the permit
(never the applicant's say-so); the permit is not issued until it is recorded and, where one is required, shown."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.street_privilege import services as sp
from permits.street_privilege.models import StreetPrivilege

pytestmark = pytest.mark.django_db
ISSUE_DAY = date(2027, 3, 10)


@pytest.fixture
def ready(world, building_inspector):
    """Approved, recommended, insured, bonded and paid: everything but the building permit determination."""
    permit = world.walk("under_review")
    world.recommend(permit)
    world.file_insurance(permit)
    sp.grant_street_privilege(permit=permit, by=building_inspector, today=date(2027, 3, 1))
    world.bond_and_pay(permit)
    return permit


def issue(permit, by):
    return sp.issue_street_privilege(permit=permit, by=by, today=ISSUE_DAY)


def test_303_7a_not_issued_before_the_determination_even_with_the_applicants_number(ready, building_inspector):
    assert ready.street_privilege.building_permit_number == "B-2027-014"  # the applicant gave one: not enough
    with pytest.raises(RulesBroken) as broken:
        issue(ready, building_inspector)
    assert [v.code for v in broken.value.violations] == ["building_permit_not_determined"]
    assert Permit.objects.get(pk=ready.pk).status == Status.APPROVED


def test_303_7a_required_and_not_shown_is_not_issued(ready, building_inspector):
    sp.record_building_permit_determination(permit=ready, by=building_inspector, required=True)
    with pytest.raises(RulesBroken) as broken:
        issue(ready, building_inspector)
    assert [v.code for v in broken.value.violations] == ["building_permit_not_shown"]


def test_303_7a_required_and_shown_is_issued(ready, building_inspector):
    sp.record_building_permit_determination(permit=ready, by=building_inspector, required=True)
    sp.record_building_permit_determination(
        permit=ready, by=building_inspector, required=True, shown_number=" B-2027-014 "
    )
    issue(ready, building_inspector)
    ready.refresh_from_db()
    assert ready.status == Status.ISSUED
    assert ready.street_privilege.building_permit_shown_number == "B-2027-014"


def test_303_7a_not_required_is_issued_without_one(ready, building_inspector):
    sp.record_building_permit_determination(permit=ready, by=building_inspector, required=False)
    issue(ready, building_inspector)
    assert Permit.objects.get(pk=ready.pk).status == Status.ISSUED
    assert ready.events.filter(reason__contains="no building permit is required (§ 303-7A)").exists()


def test_303_7a_a_number_is_not_recorded_where_none_is_required(ready, building_inspector):
    with pytest.raises(RulesBroken) as broken:
        sp.record_building_permit_determination(permit=ready, by=building_inspector, required=False, shown_number="B-1")
    assert [v.code for v in broken.value.violations] == ["not_required"]
    assert StreetPrivilege.objects.get(permit=ready).building_permit_required is None


@pytest.mark.parametrize("persona", ["dpw_director", "police_chief", "clerk", "contractor", "board_member"])
def test_303_7a_only_the_building_inspector_determines(ready, persona, request):
    with pytest.raises(PermissionDenied):
        sp.record_building_permit_determination(permit=ready, by=request.getfixturevalue(persona), required=False)


def test_303_7a_the_determination_is_made_before_issue(world, building_inspector):
    permit = world.walk("issued")
    with pytest.raises(RulesBroken) as broken:
        sp.record_building_permit_determination(permit=permit, by=building_inspector, required=False)
    assert [v.code for v in broken.value.violations] == ["not_before_issue"]


def test_303_7a_the_database_keeps_a_shown_number_only_where_one_is_required(ready):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        StreetPrivilege.objects.filter(permit=ready).update(
            building_permit_required=False, building_permit_shown_number="B-1"
        )


def test_303_7a_the_api_shows_the_determination(world, building_inspector):
    from tests.api_clients import token_client

    permit = world.walk("approved")
    api = token_client("contractor")
    assert api.get(f"/api/v1/street-privilege-permits/{permit.number}/").json()["building_permit_required"] is True


def test_303_7a_the_workflow_refuses_issue_on_every_path(ready, building_inspector):
    """The shell, the admin's issue action and the page all move the permit through workflow.transition."""
    from permits import workflow

    with pytest.raises(RulesBroken):
        workflow.transition(ready, Status.ISSUED, by=building_inspector, today=ISSUE_DAY)
