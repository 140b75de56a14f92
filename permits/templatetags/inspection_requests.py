"""`{% inspection_requests %}` on the permit page: the permit's inspection requests, and for the permittee the form to
ask for one at an offered time, cancel or move one."""

from django import template
from django.utils import timezone

from permits import workflow
from permits.inspection_requests import services
from permits.inspection_requests.views import RequestForm
from permits.models import InspectionRequest

register = template.Library()


@register.inclusion_tag("permits/_inspection_requests.html", takes_context=True)
def inspection_requests(context, permit):
    kinds = services.kinds_for(permit)
    if not kinds:
        return {"shown": False}
    user = context["request"].user
    now = timezone.now()
    permittee = workflow.is_applicant_side(user, permit)
    asked = list(
        InspectionRequest.objects.filter(permit=permit).select_related("slot", "slot__inspector").order_by("-id")[:20]
    )
    form = RequestForm(permit=permit, now=now) if permittee and permit.status in services.rules.INSPECTABLE else None
    return {
        "shown": True,
        "permit": permit,
        "asked": asked,
        "form": form,
        "permittee": permittee,
        "now": now,
        "csrf_token": context.get("csrf_token"),
    }
