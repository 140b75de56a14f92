"""§ 303-3D(3) (the subgrade compacted and moistened just before the pour), § 303-3D(6) (expansion joints where the walk
meets another walk, curb, building or driveway; diagonal joints only with the Board's approval, a carried motion for
this permit) and § 303-3D(7) (the six-inch strip): on the inspector's form, recorded, and a failing item fails the
inspection with its section."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.urls import reverse

from sidewalks import rules, services
from sidewalks.models import BoardWaiver, SidewalkInspection
from tests.board_world import vote
from tests.sidewalks.conftest import PASSING, TODAY, at, sidewalk_permit_on

pytestmark = pytest.mark.django_db
POUR_DAY = TODAY + timedelta(days=5)


def inspect(permit, by, stage, *, day=POUR_DAY, **changes):
    return services.record_inspection(
        permit=permit, stage=stage, by=by, inspected_at=at(day), **{**PASSING[stage], **changes}
    )


def approve_diagonal_joints(permit, clerk, *, held_on=TODAY, number="DJ-1"):
    """§ 303-3D(6): the Board approves diagonal joints for this permit by a carried motion the clerk records."""
    motion = vote(clause="other", ayes=4, held_on=held_on, number=number)
    return services.record_board_waiver(
        kind=BoardWaiver.Kind.DIAGONAL_JOINTS, parcel=permit.parcel, permit=permit, motion=motion, by=clerk
    )


# --- § 303-3D(3): compacted and moistened -----------------------------------------------------------------------------


def test_303_3d_3_the_subgrade_compacted_and_moistened_passes(issued, inspector):
    inspection = inspect(issued, inspector, "pour")
    assert inspection.result == "passed"
    assert inspection.subgrade_compacted is True and inspection.subgrade_moistened is True


@pytest.mark.parametrize("item", ["subgrade_compacted", "subgrade_moistened"])
@pytest.mark.parametrize("answer", [False, None])
def test_303_3d_3_a_subgrade_not_compacted_or_not_moistened_fails_the_pour(issued, inspector, item, answer):
    inspection = inspect(issued, inspector, "pour", **{item: answer})
    assert inspection.result == "failed" and inspection.citations == "§ 303-3D(3)"
    assert "immediately before the concrete is placed" in inspection.findings


# --- § 303-3D(6): where the walk meets, and diagonal joints ------------------------------------------------------


def test_303_3d_6_a_missing_joint_where_the_walk_meets_a_curb_or_driveway_fails(issued, inspector):
    inspection = inspect(issued, inspector, "pour", meeting_joints="missing")
    assert inspection.result == "failed" and inspection.citations == "§ 303-3D(6)"
    assert "meets another walk" in inspection.findings and inspection.meeting_joints == "missing"


def test_303_3d_6_a_walk_meeting_nothing_needs_no_such_joint_but_the_question_is_answered(issued, inspector):
    assert inspect(issued, inspector, "pour", meeting_joints="none_met").result == "passed"
    assert inspect(issued, inspector, "pour", meeting_joints="").result == "failed"


def test_303_3d_6_diagonal_joints_without_the_boards_approval_fail(issued, inspector):
    inspection = inspect(issued, inspector, "pour", diagonal_joints=True)
    assert inspection.result == "failed" and inspection.citations == "§ 303-3D(6)"
    assert "approved them for this permit" in inspection.findings and inspection.diagonal_joints is True


def test_303_3d_6_diagonal_joints_the_board_approved_for_this_permit_pass(issued, inspector, clerk):
    approve_diagonal_joints(issued, clerk)
    assert inspect(issued, inspector, "pour", diagonal_joints=True).result == "passed"


def test_303_3d_6_an_approval_adopted_after_the_pour_does_not_excuse_it(issued, inspector, clerk):
    approve_diagonal_joints(issued, clerk, held_on=POUR_DAY + timedelta(days=1))
    assert inspect(issued, inspector, "pour", diagonal_joints=True).result == "failed"


def test_303_3d_6_an_approval_for_another_permit_does_not_excuse_this_one(issued, inspector, clerk, home):
    approve_diagonal_joints(sidewalk_permit_on(home), clerk)
    assert inspect(issued, inspector, "pour", diagonal_joints=True).result == "failed"


def test_303_3d_6_a_failed_motion_approves_nothing(issued, clerk):
    motion = vote(clause="other", ayes=2, nays=5, held_on=TODAY, number="DJ-2")
    with pytest.raises(ValidationError, match="did not carry"):
        services.record_board_waiver(
            kind=BoardWaiver.Kind.DIAGONAL_JOINTS, parcel=issued.parcel, permit=issued, motion=motion, by=clerk
        )


def test_303_3d_6_an_approval_names_its_permit(home, clerk):
    motion = vote(clause="other", ayes=4, held_on=TODAY, number="DJ-3")
    with pytest.raises(ValidationError, match="one sidewalk permit"):
        services.record_board_waiver(kind=BoardWaiver.Kind.DIAGONAL_JOINTS, parcel=home, motion=motion, by=clerk)


def test_303_3d_6_unanswered_diagonal_question_fails():
    [v] = rules.check_joint_placement(meeting_joints="placed", diagonal=None, diagonal_approved=False)
    assert v.field == "diagonal_joints" and v.citation == "§ 303-3D(6)"


# --- § 303-3D(7): the six-inch strip ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("strip", "result"), [("5.9", "failed"), ("6", "passed"), ("6.1", "passed")])
def test_303_3d_7_the_six_inch_strip_at_the_forms(issued, inspector, strip, result):
    inspection = inspect(issued, inspector, "forms", strip_inches=Decimal(strip))
    assert inspection.result == result and inspection.strip_inches == Decimal(strip)
    if result == "failed":
        assert inspection.citations == "§ 303-3D(7)" and "six-inch strip" in inspection.findings


def test_303_3d_7_an_unmeasured_strip_fails():
    [v] = rules.check_strip(None)
    assert v.code == "required" and v.citation == "§ 303-3D(7)"


# --- On the inspector's phone form --------------------------------------------------------------------------------


def test_303_3d_3_6_7_are_asked_on_the_phone_form_and_a_failing_answer_fails(client, issued, inspector):
    client.force_login(inspector)
    url = reverse("sidewalks:inspect", args=[issued.number])
    with time_machine.travel(datetime(2026, 6, 6, 10, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        pour_page = client.get(url, {"stage": "pour"}).content.decode()
        forms_page = client.get(url, {"stage": "forms"}).content.decode()
        for name in ("subgrade_compacted", "subgrade_moistened", "meeting_joints", "diagonal_joints"):
            assert f'name="{name}"' in pour_page
        assert 'name="strip_inches"' in forms_page and "§ 303-3D(7)" in forms_page
        data = {
            "stage": "forms",
            "form_material": "wood",
            "form_thickness_inches": "1.5",
            "form_depth_inches": "4",
            "strip_inches": "5.5",
        }
        assert client.post(url, data).status_code == 302
    inspection = SidewalkInspection.objects.get(permit=issued)
    assert inspection.result == "failed" and inspection.citations == "§ 303-3D(7)"
