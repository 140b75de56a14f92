"""Residents link themselves to their parcel with proof; the Clerk-Treasurer approves; the owner
then sees the parcel's charges, orders and cases (Wis. Stat. § 66.0627: the owner of record)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from permits.applicant import parcel_links
from permits.errors import RulesBroken
from permits.models import ParcelLinkRequest
from permits.state import history_of
from tests.factories import ParcelFactory, UserFactory
from tests.permits.ledger.conftest import make_charge
from tests.upload_samples import PDF


@pytest.fixture
def lot(db):
    return ParcelFactory(tax_key="266-1116-7000", site_address="700 Main Street", owner_name="Newcomer, Nora")


def ask(user, parcel, **proof):
    return parcel_links.request_link(user=user, parcel=parcel, **proof)


# --- The proof rule (pure) ------------------------------------------------------------------------------------------


def test_66_0627_no_proof_is_refused_naming_the_field():
    [v] = parcel_links.proof_violations(tax_bill_number="  ", has_document=False)
    assert v.field == "tax_bill_number" and "Wis. Stat. § 66.0627" in v.message


def test_66_0627_a_document_alone_is_proof():
    assert parcel_links.proof_violations(tax_bill_number="", has_document=True) == []


@pytest.mark.parametrize(
    ("number", "ok"),
    [("123", False), ("1234", True), ("2026-000123", True), ("A" * 40, True), ("A" * 41, False), ("12<3>", False)],
)
def test_66_0627_tax_bill_number_is_4_to_40_characters_as_printed(number, ok):
    assert (parcel_links.proof_violations(tax_bill_number=number, has_document=False) == []) is ok


# --- Request, decide, see -------------------------------------------------------------------------------------------


def test_66_0627_approved_link_makes_the_resident_an_owner_who_sees_the_charges(client, clerk, resident, lot):
    charge = make_charge(lot, by=clerk)
    link = ask(resident, lot, tax_bill_number="2026-000700")
    assert not lot.owners.filter(pk=resident.pk).exists()
    parcel_links.approve_link(link=link, by=clerk)
    assert lot.owners.filter(pk=resident.pk).exists()
    assert link.status == ParcelLinkRequest.Status.APPROVED and link.decided_by == clerk
    client.force_login(resident)
    page = client.get(reverse("permits:my_property")).content.decode()
    assert "700 Main Street" in page and charge.number in page
    notice = resident.email and link.user.email
    from permits.models import Notice

    assert Notice.objects.filter(to=notice, template="parcel_link_decided").exists()


def test_66_0627_before_approval_the_resident_sees_no_charges(client, clerk, resident, lot):
    charge = make_charge(lot, by=clerk)
    ask(resident, lot, tax_bill_number="2026-000700")
    client.force_login(resident)
    page = client.get(reverse("permits:my_property")).content.decode()
    assert charge.number not in page and "Waiting for the Clerk-Treasurer" in page


@pytest.mark.parametrize(
    "who", ["dpw_director", "inspector", "building_inspector", "police_chief", "board_member", "president", "resident"]
)
def test_66_0627_only_the_clerk_approves(request, who, lot):
    link = ask(UserFactory(username="nora"), lot, tax_bill_number="2026-000700")
    with pytest.raises(PermissionDenied):
        parcel_links.approve_link(link=link, by=request.getfixturevalue(who))
    assert not lot.owners.exists()


def test_66_0627_a_second_open_request_is_refused(resident, lot):
    ask(resident, lot, tax_bill_number="2026-000700")
    with pytest.raises(RulesBroken, match="waiting for the Clerk-Treasurer"):
        ask(resident, lot, tax_bill_number="2026-000700")
    assert ParcelLinkRequest.objects.count() == 1


def test_66_0627_an_owner_already_linked_is_told_so(resident, lot):
    lot.owners.add(resident)
    with pytest.raises(RulesBroken, match="already linked"):
        ask(resident, lot, tax_bill_number="2026-000700")


def test_66_0627_refusal_needs_a_reason_and_links_nobody(clerk, resident, lot):
    link = ask(resident, lot, tax_bill_number="2026-000700")
    with pytest.raises(RulesBroken):
        parcel_links.refuse_link(link=link, by=clerk, reason=" ")
    parcel_links.refuse_link(link=link, by=clerk, reason="The bill number is another parcel's.")
    assert not lot.owners.exists()
    with pytest.raises(RulesBroken, match="already decided"):
        parcel_links.approve_link(link=link, by=clerk)


def test_request_page_with_an_uploaded_deed(client, resident, lot):
    client.force_login(resident)
    response = client.post(
        reverse("permits:parcel_link_request"),
        {"tax_key": lot.tax_key, "document": SimpleUploadedFile("deed.pdf", PDF, content_type="application/pdf")},
    )
    assert response.status_code == 302
    link = ParcelLinkRequest.objects.get()
    assert link.document and link.document_content_type == "application/pdf"


def test_request_page_bad_input_names_the_field_and_stores_nothing(client, resident, lot):
    client.force_login(resident)
    response = client.post(reverse("permits:parcel_link_request"), {"tax_key": lot.tax_key})
    assert response.status_code == 400 and "Wis. Stat. § 66.0627" in response.content.decode()
    response = client.post(reverse("permits:parcel_link_request"), {"tax_key": "000-nope", "tax_bill_number": "1234"})
    assert response.status_code == 400 and "no parcel has the tax key 000-nope" in response.content.decode()
    response = client.post(
        reverse("permits:parcel_link_request"),
        {
            "tax_key": lot.tax_key,
            "document": SimpleUploadedFile("x.pdf", b"<html><script>", content_type="application/pdf"),
        },
    )
    assert response.status_code == 400
    assert not ParcelLinkRequest.objects.exists()


def test_clerk_decides_from_the_queue(client, clerk, resident, lot):
    link = ask(resident, lot, tax_bill_number="2026-000700")
    client.force_login(clerk)
    page = client.get(reverse("permits:parcel_link_requests")).content.decode()
    assert "Newcomer, Nora" in page and "2026-000700" in page
    client.post(reverse("permits:parcel_link_decide", args=[link.pk, "approve"]))
    assert lot.owners.filter(pk=resident.pk).exists()


def test_the_clerks_decision_from_the_queue_is_audited(client, clerk, resident, lot):
    link = ask(resident, lot, tax_bill_number="2026-000700")
    client.force_login(clerk)
    client.post(reverse("permits:parcel_link_decide", args=[link.pk, "approve"]))
    client.post(reverse("permits:parcel_link_decide", args=[link.pk, "approve"]))  # already decided: refused
    (change,) = history_of(link)
    assert (change.from_state, change.to_state, change.actor) == ("pending", "approved", clerk)


@pytest.mark.parametrize("who", ["dpw_director", "board_member", "resident"])
def test_the_queue_and_proofs_are_the_clerks(client, request, who, lot):
    link = ask(UserFactory(username="nora"), lot, tax_bill_number="2026-000700")
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("permits:parcel_link_requests")).status_code == 403
    assert client.post(reverse("permits:parcel_link_decide", args=[link.pk, "approve"])).status_code == 403
    assert client.get(reverse("permits:parcel_link_proof", args=[link.pk])).status_code == 403


def test_the_queue_query_count_does_not_grow_with_its_rows(client, clerk, django_assert_max_num_queries):
    for n in range(3):
        ask(UserFactory(username=f"owner{n}"), ParcelFactory(), tax_bill_number=f"2026-00{n}000")
    client.force_login(clerk)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("permits:parcel_link_requests"))
    for n in range(3, 30):
        ask(UserFactory(username=f"owner{n}"), ParcelFactory(), tax_bill_number=f"2026-00{n}000")
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(reverse("permits:parcel_link_requests")).content.decode()
    assert "Page 1 of 2" in page


def test_my_property_query_count_does_not_grow_with_parcels(client, clerk, resident, django_assert_max_num_queries):
    for _ in range(2):
        parcel = ParcelFactory()
        parcel.owners.add(resident)
        make_charge(parcel, by=clerk)
    client.force_login(resident)
    with django_assert_max_num_queries(20) as few:
        client.get(reverse("permits:my_property"))
    for _ in range(8):
        parcel = ParcelFactory()
        parcel.owners.add(resident)
        make_charge(parcel, by=clerk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("permits:my_property"))
