"""Uploads: PDF, JPEG or PNG judged by content, at most 10 MB, stored under generated names, served only to those
allowed to see the application."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from permits.models import Document, Status
from permits.services import upload_document
from permits.uploads import MAX_UPLOAD_BYTES
from tests.permits.conftest import STAFF_PERSONAS, permit_in
from tests.upload_samples import JPEG, PDF, PNG

pytestmark = pytest.mark.django_db

EXE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + b"\x00" * 64
ELF = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 64
HTML = b"<!doctype html><html><body><script>alert(1)</script></body></html>"


@pytest.fixture
def permit(resident, contractor, contractor_org):
    return permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)


def post(client, permit, name, content, kind="insurance"):
    upload = SimpleUploadedFile(name, content)
    return client.post(
        reverse("permits:upload", args=[permit.number]),
        {"kind": kind, "upload": upload},
    )


def insurance_certificate(permit, by):
    """The certificate of insurance, a PDF, uploaded through the service."""
    return upload_document(permit=permit, kind="insurance", upload=SimpleUploadedFile("c.pdf", PDF), by=by)


def stored_files(settings):
    root = settings.MEDIA_ROOT
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@pytest.mark.parametrize(
    ("name", "content", "mime"),
    [
        ("cert.pdf", PDF, "application/pdf"),
        ("photo.jpg", JPEG, "image/jpeg"),
        ("photo.JPEG", JPEG, "image/jpeg"),
        ("plan.png", PNG, "image/png"),
    ],
)
def test_pdf_jpeg_png_accepted_by_content(client, contractor, permit, name, content, mime, settings):
    client.force_login(contractor)
    response = post(client, permit, name, content)
    assert response.status_code == 302
    doc = Document.objects.get()
    assert doc.content_type == mime
    assert doc.original_name == name
    assert doc.uploaded_by == contractor
    assert permit.events.filter(kind="document").exists()


def test_stored_under_a_generated_name(client, contractor, permit, settings):
    client.force_login(contractor)
    post(client, permit, "../../etc/My Insurance <img src=x onerror=alert(1)>.pdf", PDF)
    doc = Document.objects.get()
    stored = doc.file.name
    assert stored.startswith(f"documents/{permit.pk}/")
    assert "Insurance" not in stored and ".." not in stored
    assert stored.endswith(".pdf")
    assert len(stored.rsplit("/", 1)[1]) == 32 + 4  # uuid hex + .pdf
    files = stored_files(settings)
    assert len(files) == 1 and files[0].read_bytes() == PDF
    page = client.get(permit.get_absolute_url()).content.decode()
    assert doc.original_name == "My Insurance <img src=x onerror=alert(1)>.pdf"  # Django keeps the base name only
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("virus.pdf", EXE, "Only PDF, JPEG and PNG files are accepted"),
        ("virus.pdf", ELF, "Only PDF, JPEG and PNG files are accepted"),
        ("page.png", HTML, "Only PDF, JPEG and PNG files are accepted"),
        ("empty.pdf", b"", "empty"),
        ("photo.pdf", JPEG, "content is JPG"),
        ("noname", PDF, "named"),
    ],
)
def test_bad_files_refused_with_a_message_naming_the_field(
    client, contractor, permit, name, content, message, settings
):
    client.force_login(contractor)
    response = post(client, permit, name, content)
    assert response.status_code == 400
    form = response.context["document_form"]
    assert "upload" in form.errors
    assert message in " ".join(form.errors["upload"])
    html = response.content.decode()
    assert "File (PDF, JPEG or PNG, at most 10 MB)" in html  # the field's label, next to its error
    assert message.replace("'", "&#x27;") in html
    assert not Document.objects.exists()
    assert stored_files(settings) == []
    assert not permit.events.filter(kind="document").exists()


def test_10_mb_plus_one_byte_refused(client, contractor, permit, settings):
    client.force_login(contractor)
    content = PDF + b"\0" * (MAX_UPLOAD_BYTES + 1 - len(PDF))
    response = post(client, permit, "big.pdf", content)
    assert response.status_code == 400
    assert "limited to 10 MB" in " ".join(response.context["document_form"].errors["upload"])
    assert not Document.objects.exists()
    assert stored_files(settings) == []


@pytest.mark.slow
def test_exactly_10_mb_accepted(client, contractor, permit, settings):
    client.force_login(contractor)
    content = PDF + b"\0" * (MAX_UPLOAD_BYTES - len(PDF))
    response = post(client, permit, "big.pdf", content)
    assert response.status_code == 302
    assert Document.objects.get().size == MAX_UPLOAD_BYTES


def test_missing_file_refused(client, contractor, permit):
    client.force_login(contractor)
    response = client.post(reverse("permits:upload", args=[permit.number]), {"kind": "insurance"})
    assert response.status_code == 400
    assert "upload" in response.context["document_form"].errors


def test_unknown_kind_refused(client, contractor, permit, settings):
    client.force_login(contractor)
    response = post(client, permit, "cert.pdf", PDF, kind="<script>")
    assert response.status_code == 400
    assert "kind" in response.context["document_form"].errors
    assert stored_files(settings) == []


def test_service_refuses_a_bad_file_too(permit, contractor, settings):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        upload_document(
            permit=permit,
            kind="insurance",
            upload=SimpleUploadedFile("v.pdf", EXE),
            by=contractor,
        )
    assert not Document.objects.exists()
    assert stored_files(settings) == []


@pytest.mark.parametrize("who", ["contractor", "contractor_staff", *STAFF_PERSONAS])
def test_document_served_to_those_allowed(who, persona, client, contractor, permit):
    doc = insurance_certificate(permit, contractor)
    client.force_login(persona(who))
    response = client.get(doc.get_absolute_url())
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("who", ["resident", "outsider"])
def test_document_is_404_to_outsiders(who, persona, client, contractor, permit):
    doc = insurance_certificate(permit, contractor)
    client.force_login(persona(who))
    assert client.get(doc.get_absolute_url()).status_code == 404
    assert post(client, permit, "c.pdf", PDF).status_code == 404


def test_document_of_another_permit_is_404(client, contractor, permit, resident):
    other = permit_in(Status.SUBMITTED, applicant=resident)
    doc = insurance_certificate(other, resident)
    client.force_login(contractor)
    assert client.get(reverse("permits:document", args=[permit.number, doc.pk])).status_code == 404


def test_anonymous_is_sent_to_login(client, contractor, permit):
    doc = insurance_certificate(permit, contractor)
    response = client.get(doc.get_absolute_url())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_media_is_not_served_from_a_public_url(client, contractor, permit):
    doc = insurance_certificate(permit, contractor)
    assert client.get("/media/" + doc.file.name).status_code == 404
    assert client.get("/media-not-served/" + doc.file.name).status_code == 404
