"""The issued permit as a PDF, the same way for every permit type: the one its holder keeps on site."""

from django.http import Http404, HttpResponse

from permits.pdf import render_pdf


def issued_permit_pdf(permit, template_name: str, context_of) -> HttpResponse:
    """The permit rendered inline from `template_name`, with `permit` and `context_of(permit)` in the context; 404
    until it is issued."""
    if permit.issued_on is None:
        raise Http404("The permit is not issued yet")
    pdf = render_pdf(template_name, {"permit": permit, **context_of(permit)})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{permit.number}.pdf"'
    return response
