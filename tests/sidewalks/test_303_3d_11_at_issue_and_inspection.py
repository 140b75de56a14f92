"""§ 303-3D(11): the Board's higher sidewalk standard binds the walk at filing, at issue (a standard adopted after the
application refuses the issue) and on the walk as formed and poured (the inspections), not only at filing."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from obstructions.registers import services as registers
from permits import workflow
from permits.board.clauses import Clause
from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.services import record_payment
from sidewalks import services
from tests import board_world
from tests.sidewalks.conftest import GOOD, PASSING, TODAY, at, stand

pytestmark = pytest.mark.django_db
POUR_DAY = TODAY + timedelta(days=5)


def standard(clerk, parcel, *, number="2026-80", **minimums):
    motion = board_world.vote(clause=Clause.HIGHER_STANDARD, ayes=4, number=number, held_on=date(2026, 5, 12))
    return registers.record_higher_standard(
        street=parcel.street, parcel=parcel, motion=motion, by=clerk, today=TODAY, **minimums
    )


@pytest.fixture
def paid(contractor, home, clerk):
    """Filed before the Board's standard: a 4-foot, 4-inch walk, 6 inches across the driveway."""
    permit = services.apply_for_sidewalk_permit(applicant=contractor, parcel=home, today=TODAY, **GOOD)
    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    return stand(permit, clerk)


def status_of(permit):
    return Permit.objects.values_list("status", flat=True).get(pk=permit.pk)


# --- At issue ---------------------------------------------------------------------------------------------------------


def test_303_3d_11_a_standard_adopted_after_filing_refuses_the_issue(paid, clerk, home):
    standard(clerk, home, min_width_feet=Decimal("4.01"))
    with pytest.raises(RulesBroken) as exc:
        services.issue_sidewalk_permit(permit=paid, by=clerk, today=TODAY)
    [v] = exc.value.violations
    assert v.field == "width_feet" and v.citation == "§ 303-3D(11)" and "2026-80" in v.message
    assert status_of(paid) == Status.SUBMITTED


def test_303_3d_11_a_walk_exactly_at_the_standard_is_issued(paid, clerk, home):
    standard(clerk, home, min_width_feet=Decimal("4"), min_driveway_thickness_inches=Decimal("6"))
    services.issue_sidewalk_permit(permit=paid, by=clerk, today=TODAY)
    assert status_of(paid) == Status.ISSUED


def test_303_3d_11_the_workflow_refuses_the_issue_on_every_path(paid, clerk, home):
    standard(clerk, home, min_thickness_inches=Decimal("5"))
    workflow.transition(paid, Status.UNDER_REVIEW, by=clerk, today=TODAY)
    workflow.transition(paid, Status.APPROVED, by=clerk, today=TODAY)
    with pytest.raises(ValidationError, match=r"§ 303-3D\(11\)"):
        workflow.transition(paid, Status.ISSUED, by=None, today=TODAY)


# --- On the walk as formed and poured --------------------------------------------------------------------------------


@pytest.fixture
def issued_then_raised(paid, clerk, home):
    """Issued to the ordinance's minimum; the Board then requires 4 1/2 feet, 4 1/2 inches and 6 1/2 at driveways."""
    services.issue_sidewalk_permit(permit=paid, by=clerk, today=TODAY)
    standard(
        clerk,
        home,
        min_width_feet=Decimal("4.5"),
        min_thickness_inches=Decimal("4.5"),
        min_driveway_thickness_inches=Decimal("6.5"),
    )
    return paid


def forms(permit, inspector, **changes):
    measures = {**PASSING["forms"], "form_width_feet": Decimal("4.5"), "form_depth_inches": Decimal("4.5"), **changes}
    return services.record_inspection(permit=permit, stage="forms", by=inspector, inspected_at=at(POUR_DAY), **measures)


def test_303_3d_11_the_forms_at_the_boards_width_and_depth_pass(issued_then_raised, inspector):
    assert forms(issued_then_raised, inspector).result == "passed"


@pytest.mark.parametrize(("field", "short"), [("form_width_feet", "4.49"), ("form_depth_inches", "4.49")])
def test_303_3d_11_forms_short_of_the_boards_standard_fail(issued_then_raised, inspector, field, short):
    inspection = forms(issued_then_raised, inspector, **{field: Decimal(short)})
    assert inspection.result == "failed" and "§ 303-3D(11)" in inspection.citations
    assert "Village Board requires" in inspection.findings


@pytest.mark.parametrize(("measured", "result"), [("6.49", "failed"), ("6.5", "passed")])
def test_303_3d_11_the_driveway_thickness_poured_against_the_boards_standard(
    issued_then_raised, inspector, measured, result
):
    inspection = services.record_inspection(
        permit=issued_then_raised,
        stage="pour",
        by=inspector,
        inspected_at=at(POUR_DAY),
        **{**PASSING["pour"], "driveway_thickness_inches": Decimal(measured)},
    )
    assert inspection.result == result
    if result == "failed":
        assert inspection.citations == "§ 303-3D(11)"
