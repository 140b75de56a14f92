"""§ 303-4H(3), (5): bond amounts "determined by the Village Board" are set by a recorded Board motion with their
effective dates; a bond below the amount in force does not count."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from permits.errors import RulesBroken
from permits.models import Document, Status
from permits.street_opening import services as so
from permits.street_opening.models import AnnualBond, BondAmount
from tests.board_world import vote
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db

SPRING = date(2026, 5, 4)  # the street opening tests' "today"


def codes(error):
    return {v.code for v in error.value.violations}


def _amount(kind, amount, clerk, *, effective_from=date(2026, 1, 6), effective_until=None):
    motion = vote(clause="303-4H(3)", ayes=6, held_on=date(2026, 1, 5), clerk=clerk)
    return so.set_bond_amount(
        kind=kind,
        amount=amount,
        effective_from=effective_from,
        effective_until=effective_until,
        motion=motion,
        by=clerk,
    )


@pytest.mark.parametrize("required, approves", [(Decimal("25000.01"), False), (Decimal("25000.00"), True)])
def test_303_4h_5_annual_bond_one_cent_below_or_at_the_amount(under_review, dpw_director, clerk, required, approves):
    _amount(BondAmount.Kind.ANNUAL, required, clerk)  # the fixture's annual bond is $25,000
    if approves:
        assert so.approve_street_opening(permit=under_review, by=dpw_director).status == Status.APPROVED
    else:
        with pytest.raises(RulesBroken) as error:
            so.approve_street_opening(permit=under_review, by=dpw_director)
        assert codes(error) == {"annual_bond_below_amount"}
        assert "§ 303-4H(5)" in str(error.value) and "$25,000.01" in str(error.value)


def test_303_4h_5_a_one_dollar_annual_bond_does_not_count(under_review, dpw_director, clerk, contractor_org):
    AnnualBond.objects.filter(organization=contractor_org).update(amount=Decimal("1.00"))
    _amount(BondAmount.Kind.ANNUAL, Decimal("10000"), clerk)
    with pytest.raises(RulesBroken) as error:
        so.approve_street_opening(permit=under_review, by=dpw_director)
    assert codes(error) == {"annual_bond_below_amount"}


@pytest.mark.parametrize(
    "effective_from, effective_until, refused",
    [
        (SPRING + timedelta(days=1), None, False),  # not yet in force
        (SPRING, None, True),  # in force from today
        (date(2026, 1, 6), SPRING, True),  # its last day
        (date(2026, 1, 6), SPRING - timedelta(days=1), False),  # ended yesterday
    ],
)
def test_303_4h_5_the_amount_in_force_on_the_day(
    under_review, dpw_director, clerk, effective_from, effective_until, refused
):
    _amount(
        BondAmount.Kind.ANNUAL, Decimal("30000"), clerk, effective_from=effective_from, effective_until=effective_until
    )
    if refused:
        with pytest.raises(RulesBroken):
            so.approve_street_opening(permit=under_review, by=dpw_director)
    else:
        assert so.approve_street_opening(permit=under_review, by=dpw_director).status == Status.APPROVED


@pytest.mark.parametrize("recorded, approves", [(Decimal("4999.99"), False), (Decimal("5000.00"), True), (None, False)])
def test_303_4h_3_bond_for_this_permit_one_cent_below_or_at_the_amount(
    under_review, dpw_director, clerk, contractor, recorded, approves
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from permits import services

    so_detail = under_review.street_opening
    type(so_detail).objects.filter(pk=so_detail.pk).update(annual_bond=False)
    services.upload_document(
        permit=under_review,
        kind=Document.Kind.BOND,
        by=contractor,
        upload=SimpleUploadedFile("bond.pdf", PDF, content_type="application/pdf"),
    )
    _amount(BondAmount.Kind.GUARANTEE, Decimal("5000"), clerk)
    if recorded is not None:
        so.record_guarantee_bond_amount(permit=under_review, by=clerk, amount=recorded)
    under_review.refresh_from_db()
    if approves:
        assert so.approve_street_opening(permit=under_review, by=dpw_director).status == Status.APPROVED
    else:
        with pytest.raises(RulesBroken) as error:
            so.approve_street_opening(permit=under_review, by=dpw_director)
        assert codes(error) == {"guarantee_bond_below_amount"}


def test_303_4h_3_the_amount_is_set_only_by_a_carried_board_motion(clerk):
    failed = vote(clause="303-4H(3)", ayes=2, nays=5, held_on=date(2026, 1, 5), clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        so.set_bond_amount(kind="annual", amount="20000", effective_from=date(2026, 1, 6), motion=failed, by=clerk)
    assert codes(error) == {"motion_failed"}
    other = vote(clause="303-5A", ayes=6, held_on=date(2026, 1, 5), clerk=clerk)
    with pytest.raises(RulesBroken) as error:
        so.set_bond_amount(kind="annual", amount="20000", effective_from=date(2026, 1, 6), motion=other, by=clerk)
    assert codes(error) == {"wrong_clause"}
    assert not BondAmount.objects.exists()


@pytest.mark.parametrize("persona", ["dpw_director", "board_member", "president", "contractor"])
def test_303_4h_3_only_the_clerk_records_the_boards_amount(clerk, persona, request):
    motion = vote(clause="303-4H(3)", ayes=6, held_on=date(2026, 1, 5), clerk=clerk)
    with pytest.raises(PermissionDenied):
        so.set_bond_amount(
            kind="annual",
            amount="20000",
            effective_from=date(2026, 1, 6),
            motion=motion,
            by=request.getfixturevalue(persona),
        )
