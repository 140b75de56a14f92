"""PDF documents rendered with WeasyPrint from templates/pdf/."""

from django.conf import settings
from django.template.loader import render_to_string


def render_pdf(template_name: str, context: dict) -> bytes:
    from weasyprint import HTML  # importing WeasyPrint takes about a second: only when a PDF is asked for

    from permits.village_office import office_facts  # the module imports the forms layer: not at import time

    html = render_to_string(
        template_name,
        {
            "VILLAGE_NAME": settings.VILLAGE_NAME,
            "VILLAGE_OFFICE": office_facts(),  # the record the clerk keeps; renders as its address
            "SITE_URL": settings.SITE_URL,
            **context,
        },
    )
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()
