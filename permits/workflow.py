"""The permit status table and transition(): the only code that writes Permit.status.

Every entry point (views, admin actions, the API, Celery tasks, the shell) goes through transition(). It checks the
table, asks the permit type's record (permits.kinds) who may act and what its rules refuse, updates the row only if
its status is still the one it read (two clerks cannot both approve), stamps the dates the type asks for, and writes
the timeline row, all in one transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from permits import kinds, notices
from permits.errors import IllegalTransition, RulesBroken, Violation
from permits.kinds import APPLICANT
from permits.models import Permit, PermitEvent, Status
from permits.roles import Role, has_role
from permits.state import actor_label

__all__ = ["IllegalTransition", "RulesBroken", "transition", "may_transition", "allowed_targets", "blockers_for"]

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

# Who may move a permit INTO each status, for a type whose record sets no authority of its own (the office-only
# types). The applicant means the applicant or a member of its organization.
AUTHORITY: dict[str, frozenset[str]] = {
    Status.SUBMITTED: frozenset({APPLICANT}),
    Status.WITHDRAWN: frozenset({APPLICANT, Role.CLERK}),
    Status.UNDER_REVIEW: frozenset({Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR}),
    Status.APPROVED: frozenset({Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR, Role.BOARD}),
    Status.DENIED: frozenset({Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR, Role.BOARD}),
    Status.ISSUED: frozenset({Role.CLERK}),
    Status.ACTIVE: frozenset({APPLICANT, Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR}),
    Status.COMPLETED: frozenset(
        {APPLICANT, Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR}
    ),
    Status.CLOSED: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    Status.EXPIRED: frozenset(),  # the system only: the expiry job, once the validity has ended (blockers_for)
    Status.REVOKED: frozenset(
        {Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR, Role.POLICE_CHIEF, Role.BOARD, Role.PRESIDENT}
    ),
}

DATE_STAMPS = {
    Status.APPROVED: "approved_on",
    Status.ISSUED: "issued_on",
    Status.COMPLETED: "completed_on",
    Status.CLOSED: "closed_on",
}


def is_applicant_side(user, permit: Permit) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if permit.applicant_id == user.pk:
        return True
    if permit.organization_id is None:
        return False
    return permit.organization.memberships.filter(user=user).exists()


def authority_for(permit: Permit) -> dict[str, frozenset[str]]:
    permit_type = kinds.get_type(permit.kind)
    return dict(permit_type.authority) if permit_type and permit_type.authority else AUTHORITY


def may_transition(user, permit: Permit, to: str) -> bool:
    """Whether the table and the type's authority let `user` move `permit` to `to` now (its rules aside).
    `user=None` is the system (a scheduled job)."""
    if to not in TRANSITIONS.get(permit.status, set()):
        return False
    if user is None:
        return True
    allowed = authority_for(permit).get(to, frozenset())
    if APPLICANT in allowed and is_applicant_side(user, permit):
        return True
    roles = allowed - {APPLICANT}
    return bool(roles) and has_role(user, *roles)


def allowed_targets(user, permit: Permit) -> list[str]:
    return [to for to in Status.values if may_transition(user, permit, to)]


def expiry_violations(*, number: str, title: str, citation: str, validity: str, expires_on, today) -> list[Violation]:
    """The type's validity section (§ 303-4D, § 303-7E): a permit expires only after its last valid day
    (`expires_on`), and a permit of a type with no validity (`validity` "") never does. Ending a permit sooner is a
    revocation, with its own section and authority."""
    if not validity:
        message = f"Chapter 303 sets no validity period for a {title.lower()} ({citation}): {number} never expires."
        return [Violation(None, "no_validity", citation, message)]
    if expires_on is None:
        message = f"{number} has no validity yet ({validity}): only a permit whose validity has ended expires."
        return [Violation("expires_on", "no_validity_yet", validity, message)]
    if today <= expires_on:
        message = (
            f"{number} is valid through {expires_on:%B %-d, %Y} ({validity}): it expires after that day, by the "
            "nightly expiry job, never sooner. A permit ended sooner is revoked under its own rules."
        )
        return [Violation("expires_on", "still_valid", validity, message)]
    return []


def blockers_for(permit: Permit, to: str, *, today=None) -> list[Violation]:
    """What the permit type's rules refuse about moving `permit` to `to` now (empty when nothing does): its validity
    for an expiry (expiry_violations), then its own blockers."""
    permit_type = kinds.get_type(permit.kind)
    if permit_type is None:
        return []
    today = today or timezone.localdate()
    found = []
    if to == Status.EXPIRED:
        found = expiry_violations(
            number=permit.number,
            title=permit_type.title,
            citation=permit_type.citation,
            validity=permit_type.validity,
            expires_on=permit.expires_on,
            today=today,
        )
    if permit_type.blockers is not None:
        found += permit_type.blockers(permit, Status(to), today=today)
    return [v for v in found if not v.warning]


def transition(permit: Permit, to: str, *, by, reason: str = "", today=None, extra: dict | None = None) -> Permit:
    """Move `permit` to status `to`, as `by` (None for the system), recording why.

    Raises IllegalTransition when the table or the type's authority forbids it, or when someone else changed the
    permit first; RulesBroken (every reason at once, each citing its section) when the type's rules refuse it.
    `extra` holds other Permit fields to write in the same update.
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
    old = permit.status
    with transaction.atomic():
        broken = blockers_for(permit, to, today=today)
        if broken:
            raise RulesBroken(broken)
        changes = _changes_for(permit, to, today=today, extra=extra)
        if to == Status.SUBMITTED:
            changes["submitted_at"] = now
        updated = Permit.objects.filter(pk=permit.pk, status=old).update(**changes)
        if updated != 1:
            raise IllegalTransition(f"{permit.number} was changed by someone else just now; reload and try again.")
        _event(permit, old, to, by=by, at=now, reason=reason).save(force_insert=True)
        notices.notify_step(permit, to=to, by=by, reason=reason)  # the applicant is told of each step
    for field, value in changes.items():
        setattr(permit, field, value)
    permit._loaded_status = permit.status
    return permit


def _changes_for(permit: Permit, to: Status, *, today, extra: dict | None = None) -> dict:
    """The fields a step to `to` writes: the status, the type's stamps, `extra`, and the day the status is reached."""
    permit_type = kinds.get_type(permit.kind)
    changes = {"status": to}
    if permit_type is not None and permit_type.stamps is not None:
        changes.update(permit_type.stamps(permit, to, today=today))
    changes.update(extra or {})
    stamp = DATE_STAMPS.get(to)
    if stamp:
        changes[stamp] = today
    return changes


def _event(permit: Permit, old: str, to: Status, *, by, at, reason: str) -> PermitEvent:
    """The timeline's row for one step (not yet saved)."""
    return PermitEvent(
        permit=permit,
        kind=PermitEvent.Kind.TRANSITION,
        from_status=old,
        to_status=to,
        actor=by,
        actor_label=actor_label(by),
        at=at,
        reason=reason,
    )


def transition_many(
    permits,
    to: str,
    *,
    by,
    reason_for,
    where=None,
    today=None,
    prepare=None,
    after=None,
    chunk_size: int = 1000,
) -> int:
    """transition() for a job's many permits, set-based: per chunk, the rows still in their status are
    locked, each is asked the same questions as transition() asks (the table, the type's authority and blockers,
    its stamps), the allowed ones change by one conditional UPDATE per (from status, changes) group, and their
    timeline events are inserted in one statement. `where` (a Q) is the job's condition, checked again under the
    lock: a permit changed meanwhile (renewed, closed), or refused, is skipped. `prepare` turns the locked queryset
    into one that carries what the type's questions and the job read (select_related, annotations), so that asking
    them costs no statement per permit; `after(moved)` is the job's own work on the chunk's changed permits (their
    fields already set as transition() sets them), in the chunk's transaction. Returns how many changed."""
    to = Status(to)
    if str(to) in notices.STEP_TEMPLATES:  # transition() tells the applicant of these steps; this has no bulk path
        raise ValueError(f"transition_many does not send the {to.label.lower()} step's notice: use transition().")
    today = today or timezone.localdate()
    ids = [p.pk for p in permits]
    done = 0
    for start in range(0, len(ids), chunk_size):
        now = timezone.now()
        with transaction.atomic():
            locked = Permit.objects.select_for_update(of=("self",)).filter(pk__in=ids[start : start + chunk_size])
            if prepare is not None:
                locked = prepare(locked)
            rows = list((locked.filter(where) if where is not None else locked).order_by("pk"))
            groups: dict[tuple, list[Permit]] = {}
            for permit in rows:
                if not may_transition(by, permit, to) or blockers_for(permit, to, today=today):
                    continue
                changes = _changes_for(permit, to, today=today)
                key = (permit.status, tuple(sorted(changes.items())))
                groups.setdefault(key, []).append(permit)
            events = []
            for (old, changes), members in groups.items():
                updated = Permit.objects.filter(pk__in=[p.pk for p in members], status=old).update(**dict(changes))
                if updated != len(members):  # cannot happen under the row locks; refuse rather than guess
                    raise IllegalTransition("Permits changed while a job was changing them; run it again.")
                for permit in members:
                    events.append(_event(permit, old, to, by=by, at=now, reason=reason_for(permit)))
                    for field, value in changes:  # as transition() leaves its permit
                        setattr(permit, field, value)
                    permit._loaded_status = permit.status
            PermitEvent.objects.bulk_create(events)
            if after is not None and events:
                after([event.permit for event in events])
            done += len(events)
    return done
