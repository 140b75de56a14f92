"""Uploaded documents: PDF, JPEG or PNG only, judged by content, at most 10 MB.

The first bytes only say what a file claims to be (``filetype``); a file is accepted only if it *is* that
(OWASP File Upload Cheat Sheet, "File Content Validation"):

- no HTML or script markers (``<script``, ``<html``, ``<!doctype html``, ``<svg``) in its first 64 KB, whatever
  its magic bytes: a JPEG or PDF carrying HTML is a polyglot a browser may render;
- an image opens with Pillow as the format it claims, its declared dimensions are at most ``MAX_IMAGE_PIXELS``
  (50 megapixels; a decompression bomb declares far more), and it passes ``verify()``;
- a PDF parses with pypdf and carries no active content: no ``/JavaScript`` or ``/JS``, no ``/Launch``, no
  ``/OpenAction`` running JavaScript, no ``/AA`` (additional actions), no embedded files (``/EmbeddedFile``,
  ``/EmbeddedFiles``, ``/EF``), no XFA forms, no ``/RichMedia``; an encrypted PDF that does not open with an
  empty password is refused too (its content cannot be checked).

Every refusal is a ValidationError the forms put on their upload field; nothing is stored (services.upload_document
calls inspect_upload before writing anything).
"""

from __future__ import annotations

import io
import warnings

import filetype
from django.core.exceptions import ValidationError
from PIL import Image, UnidentifiedImageError

from permits.errors import Violation, field_error

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
ALLOWED_TYPES = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}
NAME_EXTENSIONS = {"pdf": {"pdf"}, "jpg": {"jpg", "jpeg"}, "png": {"png"}}
PILLOW_FORMATS = {"jpg": "JPEG", "png": "PNG"}

# A phone photo is 12 to 48 megapixels; a scanned page at 600 dpi about 35. A decompression bomb declares
# hundreds of megapixels or more in a few bytes (OWASP File Upload Cheat Sheet).
MAX_IMAGE_PIXELS = 50_000_000
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

# HTML or script markers refused in the first HTML_SCAN_BYTES, whatever the magic bytes say.
HTML_SCAN_BYTES = 64 * 1024
HTML_MARKERS = (b"<script", b"<html", b"<!doctype html", b"<svg")

# Name keys and values of active content in a PDF (OWASP File Upload Cheat Sheet; ISO 32000-1 §§ 12.6, 7.11.4).
PDF_ACTIVE_KEYS = {
    "/JavaScript": "JavaScript (/JavaScript)",
    "/JS": "JavaScript (/JS)",
    "/AA": "automatic actions (/AA)",
    "/Launch": "a launch action (/Launch)",
    "/EmbeddedFiles": "an embedded file (/EmbeddedFiles)",
    "/EmbeddedFile": "an embedded file (/EmbeddedFile)",
    "/EF": "an embedded file (/EF)",
    "/XFA": "an XFA form, which may carry scripts (/XFA)",
    "/RichMedia": "rich media (/RichMedia)",
}
PDF_ACTIVE_VALUES = {
    "/JavaScript": "JavaScript (/JavaScript)",
    "/Launch": "a launch action (/Launch)",
    "/EmbeddedFile": "an embedded file (/EmbeddedFile)",
    "/RichMedia": "rich media (/RichMedia)",
}
PDF_MAX_OBJECTS = 200_000  # a 10 MB PDF has at most a few tens of thousands; more is an attack on the checker
CITATION = "OWASP File Upload Cheat Sheet"


def _refuse(message: str, code: str):
    raise field_error(Violation(None, code, CITATION, f"The uploaded file {message} ({CITATION})."))


def _damaged(what: str, fix: str, code: str):
    """A file that is not what its first bytes claim is damaged, not an attack: say plainly what is wrong and how to
    fix it, without sending the applicant to a security guide."""
    raise field_error(Violation(None, code, "", f"The file is not a readable {what}: {fix}."))


def inspect_upload(upload) -> tuple[str, str]:
    """Return (content_type, extension) of an allowed upload, or raise ValidationError naming the rule."""
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"The file is {upload.size / 1024 / 1024:.1f} MB; uploads are limited to 10 MB."
        raise field_error(Violation(None, "too_large", CITATION, message))
    if upload.size == 0:
        raise field_error(Violation(None, "empty", CITATION, "The file is empty."))
    upload.seek(0)
    content = upload.read(MAX_UPLOAD_BYTES + 1)
    upload.seek(0)
    kind = filetype.guess(content[:8192])
    mime = kind.mime if kind else None
    if mime not in ALLOWED_TYPES:
        message = "Only PDF, JPEG and PNG files are accepted, and this file's content is none of these."
        raise field_error(Violation(None, "bad_type", CITATION, message))
    extension = ALLOWED_TYPES[mime]
    name_ext = upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
    if name_ext not in NAME_EXTENSIONS[extension]:
        message = (
            f"The file is named .{name_ext or '(none)'} but its content is {extension.upper()}: rename it or upload "
            "the right file."
        )
        raise field_error(Violation(None, "name_mismatch", CITATION, message))
    check_no_html(content)
    if extension == "pdf":
        check_pdf(content)
    else:
        check_image(content, extension)
    return mime, extension


def check_no_html(content: bytes) -> None:
    """Refuse HTML or script markers near the start of the file, whatever its magic bytes (a polyglot)."""
    head = content[:HTML_SCAN_BYTES].lower()
    found = sorted((head.find(marker), marker) for marker in HTML_MARKERS if marker in head)
    for _position, marker in found[:1]:  # the first in the file
        _refuse(
            f"contains HTML or script ({marker.decode()}...) as well as its PDF or image content, and is refused: "
            'upload the document as saved by a scanner, camera or "Save as PDF"',
            code="html_content",
        )


def check_image(content: bytes, extension: str) -> None:
    """Open the image with Pillow: the format it claims, at most MAX_IMAGE_PIXELS declared, verify() passes."""
    expected = PILLOW_FORMATS[extension]
    label = extension.upper()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # checked below, with its size
            with Image.open(io.BytesIO(content)) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    _too_many_pixels(width, height)
                if image.format != expected:
                    _damaged(f"{label} image", "take the photo or scan again and upload that", code="bad_image")
                image.verify()
    except Image.DecompressionBombError:  # more than twice the limit: Pillow refuses to open it
        _refuse(
            f"declares more than {MAX_IMAGE_PIXELS // 1_000_000} megapixels (a decompression bomb) and is refused",
            code="image_too_large",
        )
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError):
        _damaged(f"{label} image", "it may be damaged; take the photo or scan again and upload that", code="bad_image")


def _too_many_pixels(width: int, height: int):
    _refuse(
        f"declares {width} x {height} pixels, more than the {MAX_IMAGE_PIXELS // 1_000_000} megapixels accepted "
        "(a decompression bomb, or a scan at too high a resolution: scan at 300 dpi)",
        code="image_too_large",
    )


def check_pdf(content: bytes) -> None:
    """Parse the PDF with pypdf and refuse active content anywhere reachable from its trailer."""
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    pypdf_logger = logging.getLogger("pypdf")
    previous = pypdf_logger.level
    pypdf_logger.setLevel(logging.ERROR)  # pypdf warns on every repaired flaw of a broken file
    try:
        try:
            reader = PdfReader(io.BytesIO(content), strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                _refuse(
                    "is a password-protected PDF whose content cannot be checked: upload a copy without a password",
                    code="pdf_encrypted",
                )
            found = _pdf_active_content(reader)
        except ValidationError:
            raise
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, OSError):
            _damaged(
                "PDF",
                'it may be damaged; open it and save it again as PDF ("Save as PDF"), then upload that',
                "bad_pdf",
            )
    finally:
        pypdf_logger.setLevel(previous)
    if found:
        _refuse(
            f"is a PDF containing {found}, and PDFs with scripts, actions or embedded files are refused: print it to a "
            'new PDF ("Save as PDF" or "Microsoft Print to PDF") and upload that',
            code="pdf_active_content",
        )


def _pdf_active_content(reader) -> str | None:
    """Walk every dictionary and array reachable from the trailer; return what active content was found, if any."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

    seen: set[tuple[int, int]] = set()
    stack = [reader.trailer]
    visited = 0
    while stack:
        obj = stack.pop()
        if isinstance(obj, IndirectObject):
            key = (obj.idnum, obj.generation)
            if key in seen:
                continue
            seen.add(key)
            obj = obj.get_object()
        visited += 1
        if visited > PDF_MAX_OBJECTS:
            raise ValueError("too many objects")
        if isinstance(obj, DictionaryObject):  # a StreamObject is one too: its data is not executed, its keys are
            for name, value in obj.items():
                if name in PDF_ACTIVE_KEYS:
                    return PDF_ACTIVE_KEYS[name]
                if name in ("/S", "/Type", "/Subtype") and isinstance(value, NameObject) and value in PDF_ACTIVE_VALUES:
                    return PDF_ACTIVE_VALUES[value]
                if isinstance(value, (DictionaryObject, ArrayObject, IndirectObject)):
                    stack.append(value)
        elif isinstance(obj, ArrayObject):
            stack.extend(item for item in obj if isinstance(item, (DictionaryObject, ArrayObject, IndirectObject)))
    return None


def store_upload(upload, *, kind: str, by, **owner):
    """A Document for an upload checked by content and size (inspect_upload), stored under a generated name; `owner`
    is its permit or its draft (Document's check constraint: exactly one)."""
    from permits.models import Document

    content_type, extension = inspect_upload(upload)
    document = Document(
        kind=kind,
        original_name=upload.name[:255],
        content_type=content_type,
        extension=extension,
        size=upload.size,
        uploaded_by=by,
        **owner,
    )
    document.file.save("upload", upload, save=False)
    document.save()
    return document
