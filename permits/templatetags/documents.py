"""The application form's checklist of the documents a permit type's rules require (PermitType.required_documents)."""

from django import template

from permits import kinds
from permits.models import Document

register = template.Library()


@register.inclusion_tag("permits/_required_documents.html")
def required_documents(kind: str):
    permit_type = kinds.get_type(kind)
    labels = dict(Document.Kind.choices)
    items = [
        {"document": d, "upload_as": labels.get(d.kind, d.kind)}
        for d in (permit_type.required_documents if permit_type else ())
    ]
    return {"items": items}
