"""Who may see what. Every view and API call fetches permits through these."""

from __future__ import annotations

from django.db.models import Q, QuerySet, Sum
from django.http import Http404

from .models import Permit
from .roles import is_village_staff


def permits_visible_to(user) -> QuerySet[Permit]:
    """Village staff see every permit; anyone else sees their own and their organizations' applications."""
    qs = Permit.objects.select_related("street", "organization", "applicant").annotate(paid_total=Sum("payments__amount"))
    if not getattr(user, "is_authenticated", False):
        return qs.none()
    if is_village_staff(user):
        return qs
    return qs.filter(Q(applicant=user) | Q(organization__memberships__user=user)).distinct()


def get_permit_for(user, number: str) -> Permit:
    """The permit `number` if `user` may see it; 404 otherwise (no hint that it exists)."""
    permit = permits_visible_to(user).filter(number=number).first()
    if permit is None:
        raise Http404("No such permit")
    return permit
