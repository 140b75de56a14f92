"""§ 303-1A and § 303-1B: the grade register, and a sidewalk or street opening application on a street with no recorded
grade refused on every path (service, form, API, back-office edit, approval)."""

from datetime import date, datetime
from decimal import Decimal

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from obstructions.registers import services
from obstructions.registers.models import Grade, GradeApplication
from permits.board.clauses import Clause
from permits.errors import RulesBroken
from permits.models import Permit
from permits.state import history_of
from permits.street_opening import services as so
from sidewalks import services as sidewalk_services
from sidewalks.forms import SidewalkApplicationForm
from tests import board_world
from tests.factories import ParcelFactory, StreetFactory
from tests.obstructions.registers.conftest import new_walk, posted
from tests.permits.street_opening.conftest import CHICAGO, valid_data

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 1)
WALK = new_walk(width_feet="4", thickness_inches="4", driveway_thickness_inches="6")


@pytest.fixture
def bare():
    """A street the Board never graded (the factory grades every other test street)."""
    return StreetFactory(name="Unplatted Road", grade=False)


@pytest.fixture
def bare_parcel(bare):
    return ParcelFactory(tax_key="266-1116-7001", site_address="7 Unplatted Road", street=bare)


def grade_motion(clause=Clause.GRADE, number="2026-31", held_on=date(2026, 5, 12), **kw):
    return board_world.vote(clause=clause, ayes=4, held_on=held_on, number=number, **kw)


# --- The register ---


def test_303_1a_the_clerk_records_the_grade_the_board_established(clerk, bare):
    motion = grade_motion()
    grade = services.record_grade(
        street=bare, way="street", description="Profile sheet 4", motion=motion, by=clerk, today=TODAY
    )
    assert grade.basis == Grade.Basis.ESTABLISHED and grade.resolution_number == "2026-31"
    assert grade.established_on == date(2026, 5, 12) and services.grade_in_force(bare) == grade


def test_303_1a_a_grade_needs_a_carried_motion_under_the_grade_clause(clerk, bare):
    failed = board_world.vote(clause=Clause.GRADE, ayes=1, nays=5, number="2026-32", held_on=date(2026, 5, 12))
    wrong = board_world.vote(clause=Clause.RUBBISH, ayes=4, number="2026-33", held_on=date(2026, 5, 12))
    for motion in (failed, wrong):
        with pytest.raises(RulesBroken) as exc:
            services.record_grade(street=bare, way="street", description="x", motion=motion, by=clerk, today=TODAY)
        assert "§ 303-1A" in str(exc.value)
    assert not Grade.objects.filter(street=bare).exists()


def test_303_1a_a_motion_without_its_resolution_number_is_refused(clerk, bare):
    motion = grade_motion(number="")
    with pytest.raises(RulesBroken, match="resolution"):
        services.record_grade(street=bare, way="street", description="x", motion=motion, by=clerk, today=TODAY)


def test_303_1a_a_grade_established_before_the_register_is_confirmed_with_its_resolution(clerk, bare):
    grade = services.record_grade(
        street=bare,
        way="alley",
        description="1968 profile",
        confirmed_resolution="1968-7",
        established_on=date(1968, 6, 3),
        by=clerk,
        today=TODAY,
    )
    assert grade.basis == Grade.Basis.CONFIRMED
    with pytest.raises(RulesBroken, match="§ 303-1A"):
        services.record_grade(street=bare, way="street", description="x", by=clerk, today=TODAY)


@pytest.mark.parametrize("who", ["dpw_director", "inspector", "board_member", "president", "resident", "outsider"])
def test_303_1a_only_the_clerk_records_grades(request, who, bare):
    motion = grade_motion()
    with pytest.raises(PermissionDenied):
        services.record_grade(
            street=bare, way="street", description="x", motion=motion, by=request.getfixturevalue(who), today=TODAY
        )


def test_303_1a_a_second_grade_in_force_is_an_alteration_not_a_new_grade(clerk):
    graded = StreetFactory(name="Henni Street")
    with pytest.raises(RulesBroken, match="§ 303-1B"):
        services.record_grade(
            street=graded, way="street", description="x", motion=grade_motion(), by=clerk, today=TODAY
        )


def test_303_1a_1_a_sidewalk_follows_the_street_grade_until_its_own_is_set(clerk):
    street = StreetFactory(name="Henni Street")
    street_grade = services.grade_in_force(street)
    assert services.sidewalk_grade_for(street) == street_grade
    walk = services.record_grade(
        street=street, way="sidewalk", description="Walk 6 in above curb", motion=grade_motion(), by=clerk, today=TODAY
    )
    assert services.sidewalk_grade_for(street) == walk


# --- § 303-1A(2): owners' application ---


def test_303_1a_2_the_owners_application_becomes_the_sidewalk_grade_when_the_board_carries_it(clerk):
    street = StreetFactory(name="Henni Street")
    parcel = ParcelFactory(street=street)
    application = services.apply_for_sidewalk_grade(street=street, parcel=parcel, owners="Olga Owner", by=clerk)
    motion = grade_motion(subject=application)
    services.decide_sidewalk_grade(subject=application, motion=motion, by=clerk)
    assert application.status == GradeApplication.Status.ESTABLISHED
    walk = services.grade_in_force(street, "sidewalk")
    assert walk.basis == Grade.Basis.OWNERS_APPLICATION and walk.application == application


def test_303_1a_2_a_failed_motion_denies_the_application_and_records_no_grade(clerk):
    street = StreetFactory(name="Henni Street")
    application = services.apply_for_sidewalk_grade(
        street=street, parcel=ParcelFactory(street=street), owners="Olga Owner", by=clerk
    )
    motion = board_world.vote(clause=Clause.GRADE, ayes=1, nays=5, number="2026-40", held_on=date(2026, 5, 12))
    services.decide_sidewalk_grade(subject=application, motion=motion, by=clerk)
    assert application.status == GradeApplication.Status.DENIED
    assert services.grade_in_force(street, "sidewalk") is None


def test_303_1a_2_the_boards_decision_on_the_application_is_audited_and_made_once(clerk):
    street = StreetFactory(name="Henni Street")
    application = services.apply_for_sidewalk_grade(
        street=street, parcel=ParcelFactory(street=street), owners="Olga Owner", by=clerk
    )
    services.decide_sidewalk_grade(subject=application, motion=grade_motion(subject=application), by=clerk)
    (change,) = history_of(application)
    assert (change.from_state, change.to_state, change.actor) == ("pending", "established", clerk)
    denial = board_world.vote(clause=Clause.GRADE, ayes=1, nays=5, number="2026-41", held_on=date(2026, 5, 12))
    with pytest.raises(RulesBroken) as broken:
        services.decide_sidewalk_grade(subject=application, motion=denial, by=clerk)
    assert [v.code for v in broken.value.violations] == ["decided"]
    assert application.status == GradeApplication.Status.ESTABLISHED and len(history_of(application)) == 1


def test_303_1a_2_an_application_on_a_street_with_no_grade_is_refused(clerk, bare, bare_parcel):
    with pytest.raises(RulesBroken, match="§ 303-1A"):
        services.apply_for_sidewalk_grade(street=bare, parcel=bare_parcel, owners="Olga Owner", by=clerk)
    assert not GradeApplication.objects.exists()


# --- § 303-1B: alterations ---


def test_303_1b_the_board_alters_a_grade_by_motion_and_the_old_grade_stays_in_the_register(clerk):
    street = StreetFactory(name="Henni Street")
    old = services.grade_in_force(street)
    motion = grade_motion(clause=Clause.GRADE_ALTERATION, number="2026-50")
    new = services.alter_grade(grade=old, description="Lowered 4 in", motion=motion, by=clerk, today=TODAY)
    old.refresh_from_db()
    assert not old.in_force and new.supersedes == old and new.basis == Grade.Basis.BOARD_ALTERATION
    assert services.grade_in_force(street) == new


def test_303_1b_the_dpw_director_authorizes_an_alteration(clerk, dpw_director):
    old = services.grade_in_force(StreetFactory(name="Henni Street"))
    new = services.alter_grade(grade=old, description="Raised at the culvert", authorized_by=dpw_director, by=clerk)
    assert new.basis == Grade.Basis.DPW_ALTERATION and new.authorized_by == dpw_director


@pytest.mark.parametrize("who", ["inspector", "building_inspector", "board_member", "resident"])
def test_303_1b_no_one_else_authorizes_an_alteration(request, clerk, who):
    old = services.grade_in_force(StreetFactory(name="Henni Street"))
    with pytest.raises(RulesBroken, match="§ 303-1B"):
        services.alter_grade(grade=old, description="x", authorized_by=request.getfixturevalue(who), by=clerk)
    old.refresh_from_db()
    assert old.in_force and Grade.objects.count() == 1


def test_303_1b_a_grade_motion_does_not_authorize_an_alteration(clerk):
    old = services.grade_in_force(StreetFactory(name="Henni Street"))
    with pytest.raises(RulesBroken, match="§ 303-1B"):
        services.alter_grade(grade=old, description="x", motion=grade_motion(clause=Clause.GRADE), by=clerk)


def test_303_1b_only_the_clerk_records_an_alteration(dpw_director):
    old = services.grade_in_force(StreetFactory(name="Henni Street"))
    with pytest.raises(PermissionDenied):
        services.alter_grade(grade=old, description="x", authorized_by=dpw_director, by=dpw_director)


def test_303_1b_an_altered_grade_cannot_be_altered_twice(clerk, dpw_director):
    old = services.grade_in_force(StreetFactory(name="Henni Street"))
    services.alter_grade(grade=old, description="once", authorized_by=dpw_director, by=clerk)
    with pytest.raises(RulesBroken, match="already altered"):
        services.alter_grade(grade=old, description="twice", authorized_by=dpw_director, by=clerk)


# --- Every path refuses work on an ungraded street ---


def test_303_1a_sidewalk_service_refuses_an_ungraded_street(contractor, bare_parcel):
    with pytest.raises(RulesBroken) as exc:
        sidewalk_services.apply_for_sidewalk_permit(applicant=contractor, parcel=bare_parcel, today=TODAY, **WALK)
    assert "§ 303-1A(1)" in str(exc.value)
    assert not Permit.objects.exists()


def test_303_1a_sidewalk_on_a_graded_street_is_accepted(contractor):
    parcel = ParcelFactory(street=StreetFactory(name="Henni Street"))
    permit = sidewalk_services.apply_for_sidewalk_permit(applicant=contractor, parcel=parcel, today=TODAY, **WALK)
    assert permit.status == "submitted"


def test_303_1a_sidewalk_form_names_the_street_rule(contractor, bare_parcel):
    data = posted(WALK, parcel=bare_parcel.tax_key, driveway_length_feet="0")
    form = SidewalkApplicationForm(data, user=contractor, today=TODAY)
    assert not form.is_valid()
    assert "§ 303-1A(1)" in " ".join(str(e) for e in form.errors.values())


def test_303_1a_sidewalk_api_is_a_400_citing_the_section(contractor, bare_parcel):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    body = posted(WALK, parcel=bare_parcel.tax_key)
    with time_machine.travel(datetime(2026, 6, 1, 12, tzinfo=CHICAGO), tick=False):
        response = api.post("/api/v1/sidewalk-permits/", body, format="json")
    assert response.status_code == 400
    assert {e["citation"] for e in response.json()["errors"]} == {"§ 303-1A(1)"}
    assert not Permit.objects.exists()


def test_303_1a_street_opening_service_refuses_an_ungraded_street(spring, contractor, contractor_org, bond, bare):
    with pytest.raises(RulesBroken) as exc:
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(bare))
    assert "§ 303-1A(1)" in str(exc.value)
    assert not Permit.objects.exists()


def test_303_1a_street_opening_api_is_a_400_citing_the_section(spring, contractor, contractor_org, bond, bare):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    data = valid_data(bare)
    body = {
        k: (v.isoformat() if hasattr(v, "isoformat") else str(v) if isinstance(v, Decimal) else v)
        for k, v in data.items()
        if k not in ("statement_undertakings",)
    } | {"street": bare.name}
    response = api.post("/api/v1/street-openings/", body, format="json")
    assert response.status_code == 400, response.json()
    assert {e["citation"] for e in response.json()["errors"]} == {"§ 303-1A(1)"}


def test_303_1a_an_emergency_opening_is_warned_and_not_approved_until_the_grade_is_recorded(
    spring, contractor, contractor_org, bond, bare
):
    data = valid_data(bare, emergency=True, emergency_began_on=date(2026, 5, 4))
    checked = so.check_application(
        data, applicant=contractor, organization=contractor_org, today=date(2026, 5, 4), now=spring_now()
    )
    assert [v.code for v in checked.warnings if v.citation == "§ 303-1A(1)"] == ["no_grade_emergency"]
    assert not [v for v in checked.errors if v.citation == "§ 303-1A(1)"]


def spring_now():
    return datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO)


def test_303_1a_approval_refuses_a_permit_whose_street_has_no_grade(spring, contractor, contractor_org, bond, bare):
    graded = StreetFactory(name="Henni Street")
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(graded))
    Permit.objects.filter(pk=permit.pk).update(street=bare)  # e.g. a street moved in a bulk fix outside the app
    permit.refresh_from_db()
    found = so.check_approval(permit, today=date(2026, 5, 4), plans_approved=True)
    assert "§ 303-1A(1)" in {v.citation for v in found}


def test_303_1a_a_back_office_move_to_an_ungraded_street_is_refused(spring, contractor, contractor_org, bond, bare):
    graded = StreetFactory(name="Henni Street")
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(graded))
    values = {"street": bare, "start_date": permit.start_date, "end_date": permit.end_date}
    values |= {"location_description": "x", "work_description": "y"}
    assert "§ 303-1A(1)" in {v.citation for v in so.check_back_office_edit(permit, values, today=date(2026, 5, 4))}
    values["street"] = graded
    assert "§ 303-1A(1)" not in {v.citation for v in so.check_back_office_edit(permit, values, today=date(2026, 5, 4))}


def test_303_1a_2_the_application_waits_for_the_board_and_its_matter_decides_it(clerk):
    from permits.board.matters import matter_for

    street = StreetFactory(name="Henni Street")
    application = services.apply_for_sidewalk_grade(
        street=street, parcel=ParcelFactory(street=street), owners="Olga Owner", by=clerk
    )
    matter = matter_for(Clause.GRADE, "obstructions.GradeApplication")
    assert list(matter.waiting()) == [application]
    assert ("Owners applying", "Olga Owner") in matter.facts(application)
    matter.decide(subject=application, motion=grade_motion(subject=application), by=clerk)
    assert list(matter.waiting()) == []
    assert services.grade_in_force(street, "sidewalk").application == application


def test_303_1a_a_back_office_move_of_a_sidewalk_permit_to_an_ungraded_street_is_refused(contractor, bare):
    from permits.admin.edits import edit_violations

    parcel = ParcelFactory(street=StreetFactory(name="Henni Street"))
    permit = sidewalk_services.apply_for_sidewalk_permit(applicant=contractor, parcel=parcel, today=TODAY, **WALK)
    values = {"street": bare, "start_date": permit.start_date, "end_date": None}
    assert {v.citation for v in edit_violations(permit, values, today=TODAY)} == {"§ 303-1A(1)"}
    values["street"] = parcel.street
    assert edit_violations(permit, values, today=TODAY) == []
