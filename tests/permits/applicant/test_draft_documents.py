"""Documents uploaded while applying: kept with the applicant's draft (only theirs), checked as every upload is, moved
to the permit when the application is submitted (in the same transaction, counting for the rules at once), and
deleted with the draft."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction

from permits.applicant import applications
from permits.models import ApplicationDraft, Document, Permit, PermitEvent, PermitKind
from permits.street_opening import services as so
from tests.permits.street_opening.conftest import valid_data
from tests.permits.street_opening.test_pages import APPLY, form_data
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db


def stored_files(settings):
    root = settings.MEDIA_ROOT
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings


@pytest.fixture
def draft(contractor):
    return ApplicationDraft.objects.create(applicant=contractor, kind=PermitKind.STREET_OPENING, data={})


def certificate(name="certificate.pdf", content=PDF):
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def upload_post(street, org, **extra):
    """The application form as typed so far, with the upload box's fields and its button."""
    return {
        **form_data(street, org, location_description="In front of 118 Henni Street"),
        "draft_document-kind": "insurance",
        "draft_document-upload": certificate(),
        "upload_document": "1",
        **extra,
    }


def test_a_document_belongs_to_a_permit_or_a_draft_never_both_nor_neither(
    spring, media, draft, contractor, contractor_org, street, bond
):
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    common = dict(kind="insurance", original_name="c.pdf", content_type="application/pdf", extension="pdf", size=3)
    Document.objects.create(draft=draft, uploaded_by=contractor, file="x.pdf", **common)
    Document.objects.create(permit=permit, uploaded_by=contractor, file="y.pdf", **common)
    for owners in ({"permit": permit, "draft": draft}, {}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Document.objects.create(uploaded_by=contractor, file="z.pdf", **owners, **common)


def test_upload_while_applying_saves_the_draft_with_the_file(
    spring, media, client, contractor, contractor_org, street, bond
):
    client.force_login(contractor)
    response = client.post(APPLY, upload_post(street, contractor_org))
    draft = ApplicationDraft.objects.get(applicant=contractor)
    assert response.status_code == 302 and response.url.startswith(f"{APPLY}?draft={draft.pk}")
    assert draft.data["location_description"] == "In front of 118 Henni Street"
    assert not any(key.startswith("draft_document") or key == "upload_document" for key in draft.data)
    document = draft.documents.get()
    assert document.kind == "insurance" and document.permit is None and not Permit.objects.exists()
    page = client.get(response.url).content.decode()
    assert "certificate.pdf" in page and "Remove" in page and 'value="In front of 118 Henni Street"' in page
    assert client.get(document.get_absolute_url()).status_code == 200


def test_a_damaged_file_is_refused_on_its_field_and_nothing_is_stored(
    spring, media, client, contractor, contractor_org, street, bond
):
    client.force_login(contractor)
    damaged = certificate(content=PDF[: len(PDF) // 3])
    response = client.post(APPLY, upload_post(street, contractor_org, **{"draft_document-upload": damaged}))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Upload: The file is not a readable PDF" in page
    assert 'value="In front of 118 Henni Street"' in page  # what was typed is shown again
    assert not ApplicationDraft.objects.exists() and not Document.objects.exists() and not stored_files(media)


def test_submitting_the_draft_moves_its_documents_to_the_permit_and_they_count_at_once(
    spring, media, client, contractor, contractor_org, street, bond
):
    client.force_login(contractor)
    client.post(APPLY, upload_post(street, contractor_org))
    draft = ApplicationDraft.objects.get()
    response = client.post(APPLY, {**form_data(street, contractor_org), "draft": draft.pk})
    permit = Permit.objects.get()
    assert response.status_code == 302 and response.url == permit.get_absolute_url()
    document = permit.documents.get()
    assert document.draft is None and document.kind == "insurance"
    assert not ApplicationDraft.objects.exists() and len(stored_files(media)) == 1
    assert permit.events.filter(kind=PermitEvent.Kind.DOCUMENT, reason__contains="with the application").exists()
    blockers = so.check_approval(permit, today=permit.submitted_at.date(), plans_approved=True)
    assert not [v for v in blockers if "certificate" in v.message.lower()]  # § 303-4G: on file already


def test_a_refused_submission_keeps_the_draft_and_its_documents(
    spring, media, contractor, contractor_org, draft, street, bond
):
    applications.attach_draft_document(draft=draft, kind="insurance", upload=certificate(), by=contractor)
    apply_for = applications.submit_from_draft(so.apply_for_street_opening, draft)
    with pytest.raises(Exception, match="500,000"):
        apply_for(
            applicant=contractor, organization=contractor_org, data=valid_data(street, insurance_per_person=499_999)
        )
    assert draft.documents.count() == 1 and not Permit.objects.exists()


def test_only_the_drafts_owner_may_see_upload_to_or_remove_its_documents(
    spring, media, client, contractor, resident, draft
):
    document = applications.attach_draft_document(draft=draft, kind="insurance", upload=certificate(), by=contractor)
    client.force_login(resident)
    assert client.get(document.get_absolute_url()).status_code == 404
    client.post(APPLY, {"draft": draft.pk, "remove_document": document.pk})
    assert Document.objects.filter(pk=document.pk).exists()  # another's draft is never found: a draft of their own
    with pytest.raises(Exception, match="someone else"):
        applications.attach_draft_document(draft=draft, kind="insurance", upload=certificate(), by=resident)
    with pytest.raises(Exception, match="someone else"):
        applications.remove_draft_document(draft=draft, document_id=document.pk, by=resident)
    assert draft.documents.count() == 1


def test_the_owner_removes_a_document_and_its_file(spring, media, client, contractor, draft):
    document = applications.attach_draft_document(draft=draft, kind="insurance", upload=certificate(), by=contractor)
    client.force_login(contractor)
    response = client.post(APPLY, {"draft": draft.pk, "remove_document": document.pk})
    assert response.status_code == 302 and not draft.documents.exists()


def test_deleting_a_draft_deletes_its_files(
    spring, media, client, contractor, draft, django_capture_on_commit_callbacks
):
    applications.attach_draft_document(draft=draft, kind="insurance", upload=certificate(), by=contractor)
    assert len(stored_files(media)) == 1
    client.force_login(contractor)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/drafts/{draft.pk}/delete/")
    assert not Document.objects.exists() and not stored_files(media)


def test_a_draft_keeps_at_most_10_documents(spring, media, contractor, draft):
    for _ in range(applications.MAX_DRAFT_DOCUMENTS):
        applications.attach_draft_document(draft=draft, kind="other", upload=certificate(), by=contractor)
    with pytest.raises(Exception, match="at most 10 documents"):
        applications.attach_draft_document(draft=draft, kind="other", upload=certificate(), by=contractor)
    assert draft.documents.count() == 10
