"""Every street opening blocker is cleared on a page by the person whose step it is: a renewed insurance on the
permit page (§ 303-4G), the contractor's annual bond on the Clerk-Treasurer's page (§ 303-4H(5)), and the fields
"required" at approval refused empty at filing."""

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import Document, PermitEvent, Status
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.models import AnnualBond, StreetOpening
from tests.factories import OrganizationFactory
from tests.permits.street_opening.conftest import CHICAGO, TODAY, valid_data
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db

COVERED = ordinance.expiry_date(TODAY)  # approving on TODAY asks the insurance to run through the validity


def codes(error):
    return {v.code for v in error.value.violations}


def certificate():
    return SimpleUploadedFile("renewed-coi.pdf", PDF, content_type="application/pdf")


@pytest.fixture
def lapsing(under_review):
    """An application whose insurance on file runs out before the permit would (an old certificate)."""
    StreetOpening.objects.filter(permit=under_review).update(insurance_expires=COVERED - timedelta(days=2))
    under_review.refresh_from_db()
    return under_review


# --- § 303-4G: a renewed insurance --------------------------------------------------------------------------------


def test_303_4g_the_lapsing_insurance_blocks_approval(lapsing, dpw_director):
    with pytest.raises(RulesBroken) as error:
        so.approve_street_opening(permit=lapsing, by=dpw_director)
    assert "insurance_lapses" in codes(error)


def test_303_4g_renewal_a_day_short_of_the_period_is_refused_and_stores_nothing(lapsing, contractor):
    with pytest.raises(RulesBroken) as error:
        so.renew_insurance(
            permit=lapsing, by=contractor, insurance_expires=COVERED - timedelta(days=1), certificate=certificate()
        )
    assert codes(error) == {"insurance_lapses"}
    assert error.value.violations[0].field == "insurance_expires" and "§ 303-4G" in str(error.value)
    assert lapsing.street_opening.insurance_expires == COVERED - timedelta(days=2)
    assert lapsing.documents.filter(kind=Document.Kind.INSURANCE).count() == 1  # the one filed with the application


def test_303_4g_renewal_through_the_last_day_clears_the_blocker(lapsing, contractor, dpw_director):
    document = so.renew_insurance(permit=lapsing, by=contractor, insurance_expires=COVERED, certificate=certificate())
    assert document.kind == Document.Kind.INSURANCE and document.review_status == Document.Review.RECEIVED
    lapsing.refresh_from_db()
    assert lapsing.street_opening.insurance_expires == COVERED
    assert lapsing.events.filter(reason__startswith="Insurance renewed (§ 303-4G)").exists()
    assert so.approve_street_opening(permit=lapsing, by=dpw_director).status == Status.APPROVED


def test_303_4g_an_expiry_no_later_than_the_one_on_file_renews_nothing(under_review, contractor):
    on_file = under_review.street_opening.insurance_expires
    with pytest.raises(RulesBroken) as error:
        so.renew_insurance(permit=under_review, by=contractor, insurance_expires=on_file, certificate=certificate())
    assert codes(error) == {"insurance_not_renewed"}


def test_303_4g_a_renewal_needs_the_certificate(lapsing, contractor):
    with pytest.raises(RulesBroken) as error:
        so.renew_insurance(permit=lapsing, by=contractor, insurance_expires=COVERED, certificate=None)
    assert codes(error) == {"certificate_missing"}


def test_303_4g_the_clerk_may_record_a_renewal(lapsing, clerk):
    so.renew_insurance(permit=lapsing, by=clerk, insurance_expires=COVERED, certificate=certificate())
    lapsing.refresh_from_db()
    assert lapsing.street_opening.insurance_expires == COVERED


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "resident"])
def test_303_4g_others_may_not_record_a_renewal(lapsing, persona, request):
    with pytest.raises(PermissionDenied):
        so.renew_insurance(
            permit=lapsing, by=request.getfixturevalue(persona), insurance_expires=COVERED, certificate=certificate()
        )


def test_the_applicant_renews_the_insurance_on_the_page(client, lapsing, contractor):
    url = reverse("permits:street_opening_renew_insurance", args=[lapsing.number])
    client.force_login(contractor)
    assert client.get(url).status_code == 200
    assert url in client.get(lapsing.get_absolute_url()).content.decode()  # linked from the permit page
    response = client.post(url, {"insurance_expires": COVERED.isoformat(), "certificate": certificate()})
    assert response.status_code == 302
    lapsing.refresh_from_db()
    assert lapsing.street_opening.insurance_expires == COVERED
    assert lapsing.events.filter(kind=PermitEvent.Kind.DOCUMENT).exists()


def test_the_page_names_the_field_and_section_of_a_refusal(client, lapsing, contractor):
    client.force_login(contractor)
    url = reverse("permits:street_opening_renew_insurance", args=[lapsing.number])
    short = (COVERED - timedelta(days=1)).isoformat()
    response = client.post(url, {"insurance_expires": short, "certificate": certificate()})
    assert response.status_code == 400
    assert "§ 303-4G" in response.context["form"].errors["insurance_expires"][0]


@pytest.mark.parametrize("persona, status", [("dpw_director", 403), ("outsider", 404)])
def test_others_cannot_open_the_renewal_page(client, lapsing, persona, status, request):
    client.force_login(request.getfixturevalue(persona))
    url = reverse("permits:street_opening_renew_insurance", args=[lapsing.number])
    assert client.get(url).status_code == status


# --- § 303-4H(5): the annual bond, recorded by the Clerk-Treasurer --------------------------------------------------


@pytest.fixture
def utility(db):
    return OrganizationFactory(name="Kewaskum Gas")


@pytest.mark.parametrize("amount, recorded", [(Decimal("19999.99"), False), (Decimal("20000.00"), True)])
def test_303_4h_5_an_annual_bond_one_cent_below_or_at_the_boards_amount(
    clerk, board_bond_amounts, utility, amount, recorded
):
    call = lambda: so.record_annual_bond(  # noqa: E731
        organization=utility, year=2026, surety="Badger Surety", amount=amount, by=clerk, today=TODAY
    )
    if recorded:
        assert call().amount == amount
    else:
        with pytest.raises(RulesBroken) as error:
            call()
        assert codes(error) == {"annual_bond_below_amount"}
        assert error.value.violations[0].field == "amount" and "§ 303-4H(5)" in str(error.value)
        assert not AnnualBond.objects.filter(organization=utility).exists()


def test_303_4h_5_one_annual_bond_per_principal_and_year(clerk, board_bond_amounts, utility):
    so.record_annual_bond(organization=utility, year=2026, surety="A", amount=20000, by=clerk, today=TODAY)
    with pytest.raises(RulesBroken) as error:
        so.record_annual_bond(organization=utility, year=2026, surety="B", amount=30000, by=clerk, today=TODAY)
    assert codes(error) == {"annual_bond_on_file"}
    assert so.record_annual_bond(organization=utility, year=2027, surety="B", amount=30000, by=clerk, today=TODAY)


def test_303_4h_5_a_bond_recorded_ahead_meets_the_amount_of_january_1():
    assert ordinance.annual_bond_amount_day(2027, date(2026, 12, 1)) == date(2027, 1, 1)
    assert ordinance.annual_bond_amount_day(2026, date(2026, 12, 31)) == date(2026, 12, 31)


@pytest.mark.parametrize("persona", ["dpw_director", "contractor", "resident"])
def test_303_4h_5_only_the_clerk_records_an_annual_bond(persona, request, utility):
    with pytest.raises(PermissionDenied):
        so.record_annual_bond(
            organization=utility, year=2026, surety="S", amount=20000, by=request.getfixturevalue(persona)
        )


def test_303_4h_5_the_recorded_bond_clears_the_filing_blocker(
    spring, street, contractor, contractor_org, clerk, board_bond_amounts
):
    with pytest.raises(RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    assert "no_annual_bond" in codes(error)
    so.record_annual_bond(organization=contractor_org, year=2026, surety="Badger Surety", amount=20000, by=clerk)
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    assert permit.status == Status.SUBMITTED


def test_the_clerk_records_an_annual_bond_on_the_page(client, clerk, board_bond_amounts, utility):
    client.force_login(clerk)
    url = reverse("permits:street_opening_annual_bonds")
    data = {"organization": utility.pk, "year": 2026, "surety": "Badger Surety", "amount": "20000.00"}
    assert client.post(url, {**data, "amount": "100.00"}).status_code == 400
    assert client.post(url, data).status_code == 302
    assert "Kewaskum Gas" in client.get(url).content.decode()


def test_the_refusal_on_the_page_names_the_field_and_section(client, clerk, board_bond_amounts, utility):
    client.force_login(clerk)
    data = {"organization": utility.pk, "year": 2026, "surety": "S", "amount": "100.00"}
    response = client.post(reverse("permits:street_opening_annual_bonds"), data)
    assert "§ 303-4H(5)" in response.context["form"].errors["amount"][0]


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "contractor", "resident"])
def test_others_cannot_open_the_annual_bond_page(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_opening_annual_bonds")).status_code == 403


def test_the_annual_bond_list_pages_in_constant_queries(client, clerk, django_assert_max_num_queries):
    for n in range(30):
        AnnualBond.objects.create(
            organization=OrganizationFactory(name=f"Digger {n:02}"),
            year=2026,
            surety="S",
            amount=20000,
            recorded_by=clerk,
            recorded_at=datetime(2026, 1, 5, tzinfo=CHICAGO),
        )
    client.force_login(clerk)
    with django_assert_max_num_queries(15):
        response = client.get(reverse("permits:street_opening_annual_bonds"))
    assert response.status_code == 200 and "Page 1 of" in response.content.decode()


# --- "required": the fields asked again at approval are refused empty at filing ------------------------------------


def test_303_4b_filing_refuses_an_empty_insurance_expiry_and_underground_depth(
    spring, street, contractor, contractor_org, bond
):
    data = valid_data(street, insurance_expires=None, underground_utility=True, underground_depth_feet=None)
    checked = so.check_application(
        data,
        applicant=contractor,
        organization=contractor_org,
        today=TODAY,
        now=datetime(2026, 5, 4, 10, tzinfo=CHICAGO),
    )
    required = {v.field for v in checked.errors if v.code == "required"}
    assert required == {"insurance_expires", "underground_depth_feet"}


def test_303_4h_5_an_individual_applicants_bond_is_recorded_once_a_year(clerk, board_bond_amounts, resident):
    so.record_annual_bond(principal_user=resident, year=2026, surety="S", amount=20000, by=clerk, today=TODAY)
    with pytest.raises(RulesBroken) as error:
        so.record_annual_bond(principal_user=resident, year=2026, surety="S", amount=20000, by=clerk, today=TODAY)
    assert codes(error) == {"annual_bond_on_file"}


def test_303_4h_5_a_bond_names_one_principal(clerk, board_bond_amounts, utility, resident):
    for principals in ({}, {"organization": utility, "principal_user": resident}):
        with pytest.raises(RulesBroken) as error:
            so.record_annual_bond(year=2026, surety="S", amount=20000, by=clerk, today=TODAY, **principals)
        assert codes(error) == {"principal_required"}


def test_303_4h_5_the_back_office_refuses_a_bond_below_the_boards_amount(admin_client, board_bond_amounts, utility):
    data = {"organization": utility.pk, "year": 2026, "surety": "S", "bond_number": "", "amount": "19999.99"}
    response = admin_client.post("/admin/permits/annualbond/add/", data)
    assert response.status_code == 200 and "§ 303-4H(5)" in response.content.decode()
    assert not AnnualBond.objects.exists()
    assert admin_client.post("/admin/permits/annualbond/add/", {**data, "amount": "20000.00"}).status_code == 302
    assert AnnualBond.objects.get().amount == 20000
