"""{% conflict_checks permit %}: the conflict checks at review (permits/streetmap/conflicts.py), one line in each
type's review page."""

from django import template
from django.utils import timezone

from permits.models import PermitKind, Status
from permits.roles import Role, has_role, is_village_staff

register = template.Library()

REVIEW_STATUSES = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED, Status.ACTIVE)


@register.inclusion_tag("permits/streetmap/_conflicts.html", takes_context=True)
def conflict_checks(context, permit):
    from permits.streetmap import conflicts, placement

    request = context.get("request")
    user = getattr(request, "user", None)
    if not is_village_staff(user) or permit.status not in REVIEW_STATUSES:
        return {"hidden": True}
    today = timezone.localdate()
    index = placement.SegmentIndex.load()
    listed = conflicts.conflicts_for(permit, today=today, index=index)
    segments = placement.segments_for(permit, index)
    return {
        "permit": permit,
        "conflicts": listed,
        "margin": conflicts.margin_days(today),
        "where": "; ".join(str(s) for s in segments),
        "last_review": permit.conflict_reviews.select_related("reviewed_by").first(),
        "may_record": has_role(user, Role.DPW_DIRECTOR),
        "may_place": True,
        "offers_acceptance": permit.kind == PermitKind.STREET_USE
        and any(c.kind == PermitKind.STREET_OPENING for c in listed),
        "next": request.get_full_path() if request else "",
        "csrf_token": context.get("csrf_token"),
    }
