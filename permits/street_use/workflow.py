"""Street use permits in the core workflow: who may move one into each status, and what refuses it. permits.workflow
.transition() asks these on every path (pages, admin, API, the Board's matter registry, shell), so the back office
refuses exactly what the street use verbs refuse."""

from __future__ import annotations

from datetime import date

from permits.errors import Violation
from permits.kinds import APPLICANT, Clearer
from permits.models import Permit, Status
from permits.roles import Role
from permits.street_use import rules

AUTHORITY = {
    Status.SUBMITTED: frozenset({APPLICANT}),
    Status.WITHDRAWN: frozenset({APPLICANT, Role.CLERK}),
    Status.UNDER_REVIEW: frozenset({Role.CLERK}),  # § 303-15F: the clerk verifies the petition
    # § 303-15C: the Board grants or denies; the Clerk-Treasurer records its recorded vote
    Status.APPROVED: frozenset({Role.CLERK}),
    Status.DENIED: frozenset({Role.CLERK}),
    Status.ISSUED: frozenset({Role.CLERK}),  # § 303-15A
    Status.COMPLETED: frozenset({Role.CLERK}),
    Status.CLOSED: frozenset({Role.CLERK}),
    # § 303-15H: the Village President or a law enforcement officer, and nobody else
    Status.REVOKED: frozenset({Role.PRESIDENT, Role.POLICE_CHIEF, Role.POLICE_OFFICER}),
}


def _detail(permit: Permit):
    from permits.street_use.models import StreetUse

    return StreetUse.objects.filter(permit=permit).first()  # what the verb wrote in this transaction, never stale


def _no_application(permit: Permit) -> list[Violation]:
    return [Violation(None, "no_application", "§ 303-15B", f"{permit.number} has no street use application on file")]


def _not_started(permit: Permit, *, today: date) -> list[Violation]:
    """§ 303-15B(4): the clerk may mark the event completed early once it has begun, never before its first day."""
    if permit.start_date is None or today >= permit.start_date:
        return []
    first = f"{permit.start_date:%B %-d, %Y}"
    return [
        Violation(
            None,
            "event_not_started",
            "§ 303-15B(4)",
            f"The event has not begun: it is completed on or after its first day, {first} (§ 303-15B(4))",
        )
    ]


def blockers(permit: Permit, to: str, *, today: date) -> list[Violation]:
    """The street use rules that refuse moving `permit` to `to` on `today`."""
    from permits.street_use import services

    if to == Status.COMPLETED:
        return _not_started(permit, today=today)
    if to not in (Status.UNDER_REVIEW, Status.APPROVED, Status.DENIED, Status.ISSUED, Status.REVOKED):
        return []
    su = _detail(permit)
    if su is None:
        return _no_application(permit)
    if to == Status.UNDER_REVIEW:
        count = services.petition_count(su, on=today)
        return services.area_violations(permit) + rules.petition_violations(
            counted=count.counted,
            roster_size=count.roster_size,
            verified=su.petition_verified_at is not None,
            addresses=count.addresses,
            undeclared=count.undeclared,
            over=count.over,
        )
    if to in (Status.APPROVED, Status.DENIED):
        from permits.streetmap.services import street_use_blockers

        errors = services.decision_violations(su, su.decision_motion, grant=to == Status.APPROVED)
        return errors + (street_use_blockers(permit, today=today) if to == Status.APPROVED else [])
    if to == Status.ISSUED:
        errors = rules.guarantee_violations(
            required=su.required_guarantees, on_file=services.guarantees_on_file(permit)
        )
        due = permit.balance_due_as_stored()
        if due > 0:
            errors.append(
                Violation(None, "fee_unpaid", "§ 303-15E", f"The fee is not paid: ${due:.2f} is due (§ 303-15E)")
            )
        return errors
    if su.terminated_at is None:  # REVOKED
        return [
            Violation(
                None,
                "no_termination",
                "§ 303-15H",
                "A street use permit is ended only by a termination recorded with who, when and why (§ 303-15H)",
            )
        ]
    return []


_UPLOAD = Clearer((APPLICANT,), "permits:detail", "uploads what the Board required on the permit page")
_PETITION = Clearer((Role.CLERK,), "permits:street_use_manage", "records the declarations, consents and pages")
_BOARD = Clearer((Role.CLERK,), "permits:street_use_manage", "records the Board's recorded vote and decision")

# Who clears each blocker above and on which page (the permit page's checklist and its test read it).
CLEARED_BY: dict[str, Clearer] = {
    "no_application": Clearer((APPLICANT,), "permits:street_use_apply", "files the application"),
    "segment_off_street": Clearer(
        (APPLICANT,), "permits:street_use_apply", "the form refuses a portion off the street"
    ),
    "empty_roster": _PETITION,
    "no_addresses": _PETITION,
    "undeclared_address": _PETITION,
    "more_consents_than_declared": _PETITION,
    "petition_short": _PETITION,
    "petition_unverified": Clearer((Role.CLERK,), "permits:street_use_manage", "verifies the petition"),
    "applicant_absent": Clearer((Role.CLERK,), "permits:street_use_manage", "records the applicant present"),
    "no_motion": _BOARD,
    "motion_failed": _BOARD,
    "future_motion": _BOARD,
    "wrong_clause": _BOARD,
    "wrong_subject": _BOARD,
    "street_use_over_street_opening": Clearer(
        (Role.DPW_DIRECTOR,), "permits:detail", "accepts the closure over the street opening work"
    ),
    "indemnity_missing": _UPLOAD,
    "insurance_missing": _UPLOAD,
    "bond_missing": _UPLOAD,
    "fee_unpaid": Clearer((Role.CLERK,), "permits:street_use_manage", "records the payment (§ 303-15E)"),
    "event_not_started": Clearer((Role.CLERK,), "permits:detail", "marks it completed from the event's first day"),
    "no_termination": Clearer(
        (Role.PRESIDENT, Role.POLICE_CHIEF, Role.POLICE_OFFICER), "permits:street_use_terminate", "terminates it"
    ),
}


def fix_link(permit: Permit, violation: Violation) -> tuple[str, str] | None:
    """§ 303-15F: while the petition is open, the applicant clears its count by sharing the petition page with the
    neighbours (each household declares its adults and consents there); the clerk names the area and verifies."""
    from django.urls import reverse

    su = _detail(permit)
    open_petition = su is not None and permit.status == Status.SUBMITTED and su.petition_verified_at is None
    if open_petition and violation.code in ("undeclared_address", "empty_roster", "petition_short"):
        return reverse("permits:street_use_petition", args=[permit.public_token]), "Share the petition page"
    return None
