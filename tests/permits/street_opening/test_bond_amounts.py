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


@pytest.fixture
def board_bond_amounts():
    """These tests set the Board's amounts themselves (none in force unless a test records one)."""


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
        # Fail closed: with no amount in force the Board has determined none, so no bond counts yet.
        (SPRING + timedelta(days=1), None, "annual_bond_below_amount"),  # not yet in force
        (SPRING, None, "annual_bond_below_amount"),  # in force from today: $30,000 > the $25,000 bond
        (date(2026, 1, 6), SPRING, "annual_bond_below_amount"),  # its last day
        (date(2026, 1, 6), SPRING - timedelta(days=1), "annual_bond_below_amount"),  # ended yesterday
    ],
)
def test_303_4h_5_the_amount_in_force_on_the_day(
    under_review, dpw_director, clerk, effective_from, effective_until, refused
):
    _amount(
        BondAmount.Kind.ANNUAL, Decimal("30000"), clerk, effective_from=effective_from, effective_until=effective_until
    )
    with pytest.raises(RulesBroken) as error:
        so.approve_street_opening(permit=under_review, by=dpw_director)
    assert codes(error) == {refused}
    in_force = effective_from <= SPRING and (effective_until is None or effective_until >= SPRING)
    assert ("has not determined" in str(error.value)) is not in_force


def test_303_4h_5_no_amount_determined_holds_approval(under_review, dpw_director):
    with pytest.raises(RulesBroken) as error:
        so.approve_street_opening(permit=under_review, by=dpw_director)
    assert codes(error) == {"annual_bond_below_amount"}
    assert "has not determined the amount" in str(error.value) and "§ 303-4H(5)" in str(error.value)


def test_303_4h_5_at_application_an_undetermined_amount_is_only_warned():
    from permits.street_opening import rules

    [warning] = rules.bond_violations(
        annual_bond=True,
        annual_bond_years={2026},
        annual_bond_amounts={2026: Decimal("25000")},
        annual_required=None,
        per_permit_bond_filed=False,
        start_date=date(2026, 6, 1),
        end_date=date(2026, 6, 5),
        at_approval=False,
    )
    assert warning.warning and warning.code == "annual_bond_below_amount"


@pytest.mark.parametrize("recorded, approves", [(Decimal("4999.99"), False), (Decimal("5000.00"), True), (None, False)])
def test_303_4h_3_bond_for_this_permit_one_cent_below_or_at_the_amount(
    under_review, dpw_director, clerk, contractor, recorded, approves
):
    _per_permit_bond(under_review, contractor)
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


def _per_permit_bond(permit, contractor):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from permits import services

    so_detail = permit.street_opening
    type(so_detail).objects.filter(pk=so_detail.pk).update(annual_bond=False)
    services.upload_document(
        permit=permit,
        kind=Document.Kind.BOND,
        by=contractor,
        upload=SimpleUploadedFile("bond.pdf", PDF, content_type="application/pdf"),
    )


@pytest.mark.parametrize("persona, records", [("clerk", True), ("dpw_director", True), ("police_chief", False)])
def test_303_4h_3_the_bond_amount_is_recorded_from_the_village_actions_page(
    client, under_review, contractor, persona, records, request
):
    from django.urls import reverse

    _per_permit_bond(under_review, contractor)
    client.force_login(request.getfixturevalue(persona))
    page = reverse("permits:street_opening_manage", args=[under_review.number])
    if records:
        assert "Its amount is not recorded yet" in client.get(page).content.decode()
    action = reverse("permits:street_opening_act", args=[under_review.number, "bond_amount"])
    client.post(action, {"amount": "5000.00"})
    under_review.street_opening.refresh_from_db()
    assert (under_review.street_opening.guarantee_bond_amount == Decimal("5000.00")) is records


def test_303_4h_3_a_bond_amount_that_is_not_a_number_names_the_field(client, under_review, contractor, clerk):
    from django.urls import reverse

    _per_permit_bond(under_review, contractor)
    client.force_login(clerk)
    action = reverse("permits:street_opening_act", args=[under_review.number, "bond_amount"])
    response = client.post(action, {"amount": "lots"})
    assert response.status_code == 400 and "Enter a number" in response.content.decode()
    under_review.street_opening.refresh_from_db()
    assert under_review.street_opening.guarantee_bond_amount is None


def test_303_4h_3_an_uploaded_bond_awaiting_its_amount_is_not_asked_for_again(client, under_review, contractor, clerk):
    """Once the bond is on file, the applicant's checklist says the Clerk-Treasurer records its amount, and offers
    no upload link for it (uploading it again would change nothing)."""
    from permits import permit_page

    _per_permit_bond(under_review, contractor)
    _amount(BondAmount.Kind.GUARANTEE, Decimal("5000"), clerk)
    [item] = [i for i in permit_page.checklist(under_review, today=SPRING) if i.violation.field == "annual_bond"]
    assert item.violation.code == "guarantee_bond_below_amount" and item.fix_url is None
    client.force_login(contractor)
    page = client.get(under_review.get_absolute_url()).content.decode()
    assert "The amount of the bond for this permit is not recorded: the Clerk-Treasurer" in page
    assert "Village actions page" in page and ">Upload the document<" not in page


def test_303_4h_3_a_bond_not_yet_uploaded_links_to_the_upload(under_review):
    from permits import permit_page

    type(under_review.street_opening).objects.filter(pk=under_review.street_opening.pk).update(annual_bond=False)
    [item] = [i for i in permit_page.checklist(under_review, today=SPRING) if i.violation.field == "annual_bond"]
    assert item.violation.code == "bond_missing"
    assert item.fix_url == f"{under_review.get_absolute_url()}#upload-heading"
