"""Hostile uploads (OWASP File Upload Cheat Sheet): a file is accepted only if it is the PDF, JPEG or PNG it claims to
be. Every hostile file is built here, byte by byte; each is refused with its message on the upload field, and nothing
is stored. Good PDFs, JPEGs and PNGs made by real tools (pypdf, Pillow) are still accepted, and documents are served
as attachments that a browser will neither sniff nor run."""

import io
import struct
import zlib

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pypdf import PdfWriter

from permits.models import Document, Status
from permits.services import upload_document
from permits.uploads import HTML_SCAN_BYTES, MAX_IMAGE_PIXELS, inspect_upload
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


# --- files built in the test ---------------------------------------------------------------------------------------


def build_pdf(*objects: bytes, root: int = 1) -> bytes:
    """A PDF with the given objects (numbered from 1), a correct cross-reference table and trailer."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    return bytes(out)


PAGES = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"


def pdf_with_catalog(extra: bytes, *more: bytes, page: bytes = PAGE) -> bytes:
    return build_pdf(b"<< /Type /Catalog /Pages 2 0 R " + extra + b" >>", PAGES, page, *more)


PLAIN_PDF = pdf_with_catalog(b"")
PDF_OPEN_ACTION_JS = pdf_with_catalog(b"/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>")
PDF_OPEN_ACTION_JS_INDIRECT = pdf_with_catalog(
    b"/OpenAction 4 0 R", b"<< /S /JavaScript /JS 5 0 R >>", b"(app.alert(1))"
)
PDF_NAMES_JAVASCRIPT = pdf_with_catalog(
    b"/Names << /JavaScript << /Names [(x) 4 0 R] >> >>", b"<< /S /JavaScript /JS (app.alert\\(1\\)) >>"
)
PDF_OBFUSCATED_JS = pdf_with_catalog(b"/OpenAction << /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>")
PDF_LAUNCH = pdf_with_catalog(
    b"",
    b"<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A << /S /Launch /F (cmd.exe) >> >>",
    page=b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
)
PDF_PAGE_AA = pdf_with_catalog(
    b"", page=b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /AA << /O << /S /GoTo /D [3 0 R /Fit] >> >> >>"
)
PDF_EMBEDDED_FILE = pdf_with_catalog(
    b"/Names << /EmbeddedFiles << /Names [(x.exe) 4 0 R] >> >>",
    b"<< /Type /Filespec /F (x.exe) /EF << /F 5 0 R >> >>",
    b"<< /Type /EmbeddedFile /Length 2 >>\nstream\nMZ\nendstream",
)
PDF_OPEN_ACTION_GOTO = pdf_with_catalog(b"/OpenAction [3 0 R /Fit]")  # opens at page 1: no script, accepted
PDF_NOT_PARSEABLE = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"  # the magic bytes, and nothing a reader reads
PDF_HTML_COMMENT = PLAIN_PDF.replace(b"%\xe2\xe3\xcf\xd3", b"%<html><body><script>alert(1)</script>", 1)


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose header declares width x height (8-bit RGB) with a few bytes of pixel data: a bomb when large."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1024)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def real_image(fmt: str, size=(4, 3), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "orange").save(out, fmt, **save)
    return out.getvalue()


def real_pdf(pages: int = 2) -> bytes:
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


JPEG = real_image("JPEG")
PNG = real_image("PNG")
JPEG_THEN_HTML = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00<html><script>alert(1)</script>"
JPEG_WITH_SVG_COMMENT = real_image("JPEG", comment=b'<svg onload="alert(1)">')
PNG_WITH_SCRIPT_TEXT = PNG[:33] + png_chunk(b"tEXt", b"Comment\0<SCRIPT>alert(1)</SCRIPT>") + PNG[33:]
JPEG_TRUNCATED = JPEG[:40]
PNG_BAD_CRC = PNG[:29] + bytes([PNG[29] ^ 0xFF]) + PNG[30:]  # one byte of the IHDR checksum flipped


# --- through the web form: refused with the message on the upload field, nothing stored ------------------------------


@pytest.fixture
def permit(contractor, contractor_org):
    return permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)


def post(client, permit, name, content):
    upload = SimpleUploadedFile(name, content)
    return client.post(reverse("permits:upload", args=[permit.number]), {"kind": "insurance", "upload": upload})


def stored_files(settings):
    root = settings.MEDIA_ROOT
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


HOSTILE = [
    ("open-action-js.pdf", PDF_OPEN_ACTION_JS, "is a PDF containing JavaScript"),
    ("open-action-js-indirect.pdf", PDF_OPEN_ACTION_JS_INDIRECT, "is a PDF containing JavaScript"),
    ("names-javascript.pdf", PDF_NAMES_JAVASCRIPT, "is a PDF containing JavaScript (/JavaScript)"),
    ("obfuscated-js.pdf", PDF_OBFUSCATED_JS, "is a PDF containing JavaScript"),
    ("launch.pdf", PDF_LAUNCH, "is a PDF containing a launch action (/Launch)"),
    ("page-aa.pdf", PDF_PAGE_AA, "is a PDF containing automatic actions (/AA)"),
    ("embedded.pdf", PDF_EMBEDDED_FILE, "is a PDF containing an embedded file"),
    ("polyglot.pdf", PDF_HTML_COMMENT, "contains HTML or script (<html...)"),
    ("photo.jpg", JPEG_THEN_HTML, "contains HTML or script (<html...)"),
    ("photo.jpg", JPEG_WITH_SVG_COMMENT, "contains HTML or script (<svg...)"),
    ("plan.png", PNG_WITH_SCRIPT_TEXT, "contains HTML or script (<script...)"),
    ("bomb.png", png_declaring(100_000, 100_000), "declares more than 50 megapixels (a decompression bomb)"),
    ("big.png", png_declaring(10_000, 5_001), "declares 10000 x 5001 pixels, more than the 50 megapixels"),
]

# A damaged file is no attack: the message says plainly what is wrong and how to fix it, naming no security guide.
DAMAGED = [
    ("broken.pdf", PDF_NOT_PARSEABLE, "The file is not a readable PDF: it may be damaged; open it and save it again"),
    ("cut.jpg", JPEG_TRUNCATED, "The file is not a readable JPG image: it may be damaged; take the photo or scan"),
    ("crc.png", PNG_BAD_CRC, "The file is not a readable PNG image: it may be damaged; take the photo or scan"),
]


@pytest.mark.parametrize(("name", "content", "message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_owasp_hostile_upload_refused_on_the_upload_field_and_nothing_stored(
    client, contractor, permit, name, content, message, settings
):
    client.force_login(contractor)
    response = post(client, permit, name, content)
    assert response.status_code == 400
    errors = " ".join(response.context["document_form"].errors["upload"])
    assert message in errors
    assert "OWASP File Upload Cheat Sheet" in errors
    assert errors.startswith("The uploaded file ")
    assert "File (PDF, JPEG or PNG, at most 10 MB)" in response.content.decode()  # the field's label, by its error
    assert not Document.objects.exists()
    assert stored_files(settings) == []
    assert not permit.events.filter(kind="document").exists()


@pytest.mark.parametrize(("name", "content", "message"), DAMAGED, ids=[d[0] for d in DAMAGED])
def test_damaged_file_refused_in_plain_words_and_nothing_stored(
    client, contractor, permit, name, content, message, settings
):
    client.force_login(contractor)
    response = post(client, permit, name, content)
    assert response.status_code == 400
    errors = " ".join(response.context["document_form"].errors["upload"])
    assert errors.startswith(message)
    assert "OWASP" not in errors
    assert not Document.objects.exists()
    assert stored_files(settings) == []


SERVICE_CASES = HOSTILE[:3] + HOSTILE[8:9] + HOSTILE[11:12] + DAMAGED[:1]


@pytest.mark.parametrize(("name", "content", "message"), SERVICE_CASES, ids=[h[0] for h in SERVICE_CASES])
def test_owasp_service_refuses_hostile_files_on_every_path(permit, contractor, settings, name, content, message):
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        upload_document(permit=permit, kind="insurance", upload=SimpleUploadedFile(name, content), by=contractor)
    assert not Document.objects.exists()
    assert stored_files(settings) == []


def test_owasp_inspection_photo_bomb_refused_on_the_photo_field(
    client, inspector, contractor, contractor_org, settings
):
    from tests.factories import PermitFactory
    from tests.permits.street_opening.field.conftest import add_detail, issue

    issued = PermitFactory(applicant=contractor, organization=contractor_org)
    add_detail(issued)
    issue(issued)
    client.force_login(inspector)
    url = reverse("permits:field_inspect", args=[issued.number, "backfill"])
    bomb = SimpleUploadedFile("lift.png", png_declaring(100_000, 100_000), content_type="image/png")
    response = client.post(url, {"largest_stone_inches": "9", "photo": bomb})
    assert response.status_code == 400
    assert "declares more than 50 megapixels (a decompression bomb)" in response.content.decode()
    assert not Document.objects.exists()
    assert stored_files(settings) == []


# --- good files still accepted, at the boundaries ------------------------------------------------------------------


GOOD = [
    ("plain.pdf", PLAIN_PDF, "application/pdf"),
    ("pypdf.pdf", real_pdf(), "application/pdf"),
    ("opens-at-page-1.pdf", PDF_OPEN_ACTION_GOTO, "application/pdf"),
    ("photo.jpg", JPEG, "image/jpeg"),
    ("photo.jpeg", real_image("JPEG", size=(640, 480), quality=85), "image/jpeg"),
    ("plan.png", PNG, "image/png"),
    ("exactly-50-megapixels.png", png_declaring(10_000, 5_000), "image/png"),
]


@pytest.mark.parametrize(("name", "content", "mime"), GOOD, ids=[g[0] for g in GOOD])
def test_owasp_good_pdf_jpeg_png_still_accepted(client, contractor, permit, name, content, mime, settings):
    client.force_login(contractor)
    response = post(client, permit, name, content)
    assert response.status_code == 302
    doc = Document.objects.get()
    assert doc.content_type == mime
    assert [p.read_bytes() for p in stored_files(settings)] == [content]


def test_owasp_limit_is_50_megapixels():
    assert MAX_IMAGE_PIXELS == 50_000_000 == 10_000 * 5_000
    assert Image.MAX_IMAGE_PIXELS == MAX_IMAGE_PIXELS


def test_owasp_html_marker_is_found_up_to_the_end_of_the_scanned_head():
    marker = b"<script"
    head = PLAIN_PDF.replace(b"%\xe2\xe3\xcf\xd3", b"%" + b"x" * (HTML_SCAN_BYTES - 40 - len(marker)) + marker, 1)
    assert head.index(marker) + len(marker) <= HTML_SCAN_BYTES
    with pytest.raises(ValidationError, match="contains HTML or script"):
        inspect_upload(SimpleUploadedFile("late.pdf", head))


@pytest.mark.parametrize("marker", [b"<SCRIPT", b"<!DOCTYPE HTML", b"<Html", b"<svg"])
def test_owasp_html_markers_refused_in_any_case(marker):
    content = PLAIN_PDF.replace(b"%\xe2\xe3\xcf\xd3", b"%" + marker + b">", 1)
    with pytest.raises(ValidationError, match="contains HTML or script"):
        inspect_upload(SimpleUploadedFile("x.pdf", content))


def test_owasp_password_protected_pdf_refused():
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.encrypt("secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(ValidationError, match="password-protected PDF"):
        inspect_upload(SimpleUploadedFile("locked.pdf", out.getvalue()))


# --- served as an attachment a browser neither sniffs nor runs ----------------------------------------------------


def test_owasp_document_served_as_a_sandboxed_attachment(client, contractor, permit):
    doc = upload_document(permit=permit, kind="insurance", upload=SimpleUploadedFile("c.pdf", PLAIN_PDF), by=contractor)
    client.force_login(contractor)
    response = client.get(doc.get_absolute_url())
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{doc.pk}.pdf"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "sandbox; default-src 'none'"
    assert b"".join(response.streaming_content) == PLAIN_PDF
