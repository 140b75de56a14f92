"""The permit status table and transition(): the only code that writes Permit.status.

Every entry point (views, admin actions, the API, Celery tasks, the shell) goes through transition(): it checks the
table and who may act, updates the row only if its status is still the one it read (two clerks cannot both approve),
stamps the dates and writes the timeline row, all in one transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from permits.models import Permit, PermitEvent, Status
from permits.roles import Role, has_role

TRANSITIONS: dict[str, set[str]] = {
    Status.DRAFT: {Status.SUBMITTED, Status.WITHDRAWN},
    Status.SUBMITTED: {Status.UNDER_REVIEW, Status.DENIED, Status.WITHDRAWN},
    Status.UNDER_REVIEW: {Status.APPROVED, Status.DENIED, Status.WITHDRAWN},
    Status.APPROVED: {Status.ISSUED, Status.WITHDRAWN, Status.EXPIRED, Status.REVOKED},
    Status.ISSUED: {Status.ACTIVE, Status.COMPLETED, Status.EXPIRED, Status.REVOKED},
    Status.ACTIVE: {Status.COMPLETED, Status.EXPIRED, Status.REVOKED},
    Status.COMPLETED: {Status.CLOSED},
    Status.CLOSED: set(),
    Status.DENIED: set(),
    Status.WITHDRAWN: set(),
    Status.EXPIRED: {Status.CLOSED},
    Status.REVOKED: {Status.CLOSED},
}

APPLICANT = "applicant"
# Who may move a permit INTO each status. The applicant means the applicant or a member of its organization.
AUTHORITY: dict[str, set[str]] = {
    Status.SUBMITTED: {APPLICANT},
    Status.WITHDRAWN: {APPLICANT, Role.CLERK},
    Status.UNDER_REVIEW: {Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR},
    Status.APPROVED: {Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR, Role.BOARD},
    Status.DENIED: {Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR, Role.BOARD},
    Status.ISSUED: {Role.CLERK},
    Status.ACTIVE: {APPLICANT, Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR},
    Status.COMPLETED: {APPLICANT, Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR},
    Status.CLOSED: {Role.CLERK, Role.DPW_DIRECTOR},
    Status.EXPIRED: {Role.CLERK},
    Status.REVOKED: {
        Role.CLERK,
        Role.DPW_DIRECTOR,
        Role.BUILDING_INSPECTOR,
        Role.POLICE_CHIEF,
        Role.BOARD,
        Role.PRESIDENT,
    },
}

DATE_STAMPS = {
    Status.APPROVED: "approved_on",
    Status.ISSUED: "issued_on",
    Status.COMPLETED: "completed_on",
    Status.CLOSED: "closed_on",
}


class IllegalTransition(Exception):
    """A status change the table, the actor's role or a concurrent change does not allow."""


def is_applicant_side(user, permit: Permit) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if permit.applicant_id == user.pk:
        return True
    if permit.organization_id is None:
        return False
    return permit.organization.memberships.filter(user=user).exists()


def may_transition(user, permit: Permit, to: str) -> bool:
    """Whether `user` may move `permit` to `to` now. `user=None` is the system (a scheduled job)."""
    if to not in TRANSITIONS.get(permit.status, set()):
        return False
    if user is None:
        return True
    allowed = AUTHORITY.get(to, set())
    if APPLICANT in allowed and is_applicant_side(user, permit):
        return True
    return has_role(user, *(allowed - {APPLICANT}))


def allowed_targets(user, permit: Permit) -> list[str]:
    return [to for to in Status.values if may_transition(user, permit, to)]


def actor_label(user) -> str:
    if user is None:
        return "Theresa Permits (scheduled job)"
    full = user.get_full_name()
    return f"{full} ({user.username})" if full else user.username


def transition(permit: Permit, to: str, *, by, reason: str = "", today=None, extra: dict | None = None) -> Permit:
    """Move `permit` to status `to`, as `by` (None for the system), recording why.

    `extra` holds other Permit fields to write in the same update (e.g. expires_on on approval).
    Raises IllegalTransition when the table or the actor's role forbids it, or when someone else changed the permit
    first.
    """
    to = Status(to)
    if not may_transition(by, permit, to):
        if to not in TRANSITIONS.get(permit.status, set()):
            raise IllegalTransition(
                f"{permit.number} is {permit.get_status_display().lower()}; it cannot become {to.label.lower()}."
            )
        raise IllegalTransition(f"You may not mark {permit.number} {to.label.lower()}.")
    now = timezone.now()
    today = today or timezone.localdate()
    changes = {"status": to, **(extra or {})}
    if to == Status.SUBMITTED:
        changes["submitted_at"] = now
    stamp = DATE_STAMPS.get(to)
    if stamp:
        changes[stamp] = today
    old = permit.status
    with transaction.atomic():
        updated = Permit.objects.filter(pk=permit.pk, status=old).update(**changes)
        if updated != 1:
            raise IllegalTransition(f"{permit.number} was changed by someone else just now; reload and try again.")
        PermitEvent.objects.create(
            permit=permit,
            kind=PermitEvent.Kind.TRANSITION,
            from_status=old,
            to_status=to,
            actor=by,
            actor_label=actor_label(by),
            at=now,
            reason=reason,
        )
    for field, value in changes.items():
        setattr(permit, field, value)
    permit._loaded_status = permit.status
    return permit
