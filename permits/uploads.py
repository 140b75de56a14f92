"""Uploaded documents: PDF, JPEG or PNG only, judged by content (magic bytes), at most 10 MB."""

from __future__ import annotations

import filetype
from django.core.exceptions import ValidationError

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
ALLOWED_TYPES = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}
NAME_EXTENSIONS = {"pdf": {"pdf"}, "jpg": {"jpg", "jpeg"}, "png": {"png"}}


def inspect_upload(upload) -> tuple[str, str]:
    """Return (content_type, extension) of an allowed upload, or raise ValidationError naming the rule."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError(
            f"The file is {upload.size / 1024 / 1024:.1f} MB; uploads are limited to 10 MB.", code="too_large"
        )
    if upload.size == 0:
        raise ValidationError("The file is empty.", code="empty")
    head = upload.read(8192)
    upload.seek(0)
    kind = filetype.guess(head)
    mime = kind.mime if kind else None
    if mime not in ALLOWED_TYPES:
        raise ValidationError(
            "Only PDF, JPEG and PNG files are accepted, and this file's content is none of these.", code="bad_type"
        )
    extension = ALLOWED_TYPES[mime]
    name_ext = upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
    if name_ext not in NAME_EXTENSIONS[extension]:
        raise ValidationError(
            f"The file is named .{name_ext or '(none)'} but its content is {extension.upper()}: rename it or upload "
            "the right file.",
            code="name_mismatch",
        )
    return mime, extension
