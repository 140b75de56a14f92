"""Each uploaded document has a review status: received, accepted, or rejected with a reason, set by the staff role
whose duty it is (the Clerk-Treasurer for certificates of insurance and bonds, § 303-4G, § 303-4H(3); the DPW for
plans, § 303-1C(3)), audited; a rejected document no longer counts as filed and the applicant's checklist says why."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.urls import reverse

from permits import permit_page, services
from permits.errors import RulesBroken
from permits.models import Document, StateChange
from permits.street_opening import services as so
from tests.permits.street_opening.conftest import file_certificate
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db

SPRING = date(2026, 5, 4)


def certificate(permit) -> Document:
    return permit.documents.get(kind="insurance")


def codes(permit):
    return {i.violation.code for i in permit_page.checklist(permit, today=SPRING)}


def test_an_upload_is_received_waiting_for_the_clerk(client, contractor, under_review):
    assert certificate(under_review).review_status == Document.Review.RECEIVED
    client.force_login(contractor)
    page = client.get(under_review.get_absolute_url()).content.decode()
    assert "received, waiting for review by the Clerk-Treasurer" in page
    assert ">Accept<" not in page and "Why it is rejected" not in page


def test_303_4g_the_clerk_accepts_the_certificate_audited_and_on_the_timeline(under_review, clerk):
    document = services.review_document(document=certificate(under_review), by=clerk, accepted=True)
    assert document.review_status == Document.Review.ACCEPTED and document.reviewed_by == clerk
    change = StateChange.objects.get(field="review_status", record_id=document.pk)
    assert (change.from_state, change.to_state, change.actor) == ("received", "accepted", clerk)
    assert under_review.events.filter(reason__contains="Certificate of insurance (coi.pdf) accepted").exists()
    assert "certificate_missing" not in codes(under_review)


def test_303_4g_a_rejected_certificate_blocks_approval_with_its_reason_and_the_upload_link(
    client, contractor, under_review, clerk, dpw_director
):
    services.review_document(
        document=certificate(under_review), by=clerk, accepted=False, reason="The policy expired on April 30"
    )
    [item] = [i for i in permit_page.checklist(under_review, today=SPRING) if i.violation.code == "certificate_missing"]
    assert item.violation.message.startswith(
        "The certificate of insurance was rejected: The policy expired on April 30"
    )
    assert item.fix_url.endswith("#upload-heading")
    with pytest.raises(RulesBroken) as error:
        so.approve_street_opening(permit=under_review, by=dpw_director)
    assert "certificate_missing" in {v.code for v in error.value.violations}
    client.force_login(contractor)
    page = client.get(under_review.get_absolute_url()).content.decode()
    assert "The policy expired on April 30. Upload a new one." in page


def test_303_4g_a_new_certificate_after_a_rejection_clears_the_blocker(under_review, clerk, contractor):
    services.review_document(document=certificate(under_review), by=clerk, accepted=False, reason="Unsigned")
    file_certificate(under_review, contractor)
    assert "certificate_missing" not in codes(under_review)


def test_a_rejection_without_a_reason_is_refused_and_nothing_changes(under_review, clerk):
    with pytest.raises(RulesBroken) as error:
        services.review_document(document=certificate(under_review), by=clerk, accepted=False, reason="  ")
    assert error.value.violations[0].field == "reason"
    assert certificate(under_review).review_status == Document.Review.RECEIVED
    assert not StateChange.objects.filter(field="review_status").exists()


def test_the_database_refuses_a_rejection_without_a_reason(under_review):
    with pytest.raises(IntegrityError), transaction.atomic():
        Document.objects.filter(pk=certificate(under_review).pk).update(review_status="rejected")


def test_a_rejected_document_cannot_then_be_accepted(under_review, clerk):
    document = services.review_document(document=certificate(under_review), by=clerk, accepted=False, reason="Blank")
    with pytest.raises(RulesBroken) as error:
        services.review_document(document=document, by=clerk, accepted=True)
    assert error.value.violations[0].code == "already_reviewed"
    assert Document.objects.get(pk=document.pk).review_status == Document.Review.REJECTED


@pytest.mark.parametrize("persona", ["dpw_director", "police_chief", "contractor"])
def test_303_4g_only_the_clerk_reviews_a_certificate_of_insurance(under_review, persona, request):
    with pytest.raises(PermissionDenied, match="Only the Clerk-Treasurer"):
        services.review_document(document=certificate(under_review), by=request.getfixturevalue(persona), accepted=True)


@pytest.mark.parametrize("persona, may", [("dpw_director", True), ("clerk", False)])
def test_303_1c_3_plans_are_the_dpws_to_review(under_review, contractor, persona, may, request):
    plans = services.upload_document(
        permit=under_review, kind="plans", by=contractor, upload=SimpleUploadedFile("plans.pdf", PDF)
    )
    user = request.getfixturevalue(persona)
    if may:
        assert services.review_document(document=plans, by=user, accepted=True).review_status == "accepted"
    else:
        with pytest.raises(PermissionDenied):
            services.review_document(document=plans, by=user, accepted=True)


def test_the_clerk_reviews_on_the_permit_page(client, under_review, clerk):
    client.force_login(clerk)
    page = client.get(under_review.get_absolute_url()).content.decode()
    assert "Accept<span" in page and "Why it is rejected" in page
    url = reverse("permits:review_document", args=[under_review.number, certificate(under_review).pk])
    response = client.post(url, {"decision": "reject", "reason": ""}, follow=True)
    assert "Say why the document is rejected" in response.content.decode()
    client.post(url, {"decision": "reject", "reason": "Names another company"})
    assert certificate(under_review).review_reason == "Names another company"
    page = client.get(under_review.get_absolute_url()).content.decode()
    assert "<strong>rejected</strong>" in page and "Names another company" in page


@pytest.mark.parametrize("persona, status", [("contractor", 403), ("dpw_director", 302)])
def test_the_review_page_action_refuses_who_may_not_review(client, under_review, persona, status, request):
    client.force_login(request.getfixturevalue(persona))
    url = reverse("permits:review_document", args=[under_review.number, certificate(under_review).pk])
    assert client.post(url, {"decision": "accept"}).status_code == status
    assert certificate(under_review).review_status == Document.Review.RECEIVED


def test_303_4h_3_a_rejected_bond_blocks_approval_with_its_reason(under_review, contractor, clerk):
    type(under_review.street_opening).objects.filter(pk=under_review.street_opening.pk).update(annual_bond=False)
    bond = services.upload_document(
        permit=under_review, kind="bond", by=contractor, upload=SimpleUploadedFile("bond.pdf", PDF)
    )
    services.review_document(document=bond, by=clerk, accepted=False, reason="No surety named")
    [item] = [i for i in permit_page.checklist(under_review, today=SPRING) if i.violation.field == "annual_bond"]
    assert item.violation.code == "bond_missing" and "rejected: No surety named" in item.violation.message
    assert item.fix_url.endswith("#upload-heading")


def test_a_rejection_reason_over_2000_characters_is_refused_naming_the_field(under_review, clerk):
    with pytest.raises(RulesBroken) as error:
        services.review_document(document=certificate(under_review), by=clerk, accepted=False, reason="x" * 2001)
    assert error.value.violations[0].field == "reason"
    assert certificate(under_review).review_status == Document.Review.RECEIVED
    services.review_document(document=certificate(under_review), by=clerk, accepted=False, reason="x" * 2000)
    assert certificate(under_review).review_status == Document.Review.REJECTED


def test_a_review_posting_neither_accept_nor_reject_records_nothing(client, under_review, clerk):
    client.force_login(clerk)
    document = certificate(under_review)
    url = reverse("permits:review_document", args=[under_review.number, document.pk])
    response = client.post(url, {"decision": "maybe", "reason": "Test"}, follow=True)
    assert "Decision: choose Accept or Reject" in response.content.decode()
    assert certificate(under_review).review_status == Document.Review.RECEIVED
