"""Who may do what: the one role guard and the one way to fetch a permit for a user (404 for anyone who may not see
it, so nobody learns that it exists)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from permits.models import Permit
from permits.roles import has_role, is_village_staff
from permits.selectors import permits_visible_to


def require_role(user, *roles, action: str) -> None:
    """PermissionDenied unless `user` holds one of `roles`; `action` completes "You may not ..."."""
    if user is None or not getattr(user, "is_authenticated", False) or not has_role(user, *roles):
        raise PermissionDenied(f"You may not {action}.")


def require_staff(user, *, action: str = "open Village staff pages") -> None:
    if not is_village_staff(user):
        raise PermissionDenied(f"You may not {action}.")


def get_permit_for(user, number: str, *, kind: str | None = None) -> Permit:
    """The permit `number` (of `kind`, when given) if `user` may see it; 404 otherwise."""
    qs = permits_visible_to(user).filter(number=number)
    if kind is not None:
        qs = qs.filter(kind=kind)
    permit = qs.first()
    if permit is None:
        raise Http404("No such permit")
    return permit
