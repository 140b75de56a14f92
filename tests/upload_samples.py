"""Real, minimal PDF, JPEG and PNG files for tests that upload a document (permits/uploads.py parses the content:
a file that only begins with the right magic bytes is refused, OWASP File Upload Cheat Sheet)."""

import io

from PIL import Image

# A one-object-per-line PDF with a correct cross-reference table: parses with pypdf, carries no active content.
PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n"
    b"trailer<</Size 3/Root 1 0 R>>\nstartxref\n96\n%%EOF\n"
)


def _image(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (2, 2), "orange").save(out, fmt)
    return out.getvalue()


JPEG = _image("JPEG")
PNG = _image("PNG")
