"""Edits of a filed permit's own fields (its street, place, work and dates): who may change which field in which
status, and the type's rules re-checked on the new values. One save path, `permits.services.edit_permit`, which the
back office's permit form calls (the API has no permit edit; the applicant edits only a draft, through its pages).

Each type's record (permits.kinds) holds its `edit_policy` (an EditPolicy: who edits, which fields stay open in each
status) and its `edit_rules` hook (the filing rules on the new values); a type without a policy gets DEFAULT_POLICY.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from permits import kinds
from permits.errors import Violation
from permits.models import Permit, Status
from permits.roles import Role, has_role

EDITABLE = ("street", "parcel", "location_description", "work_description", "start_date", "end_date")


@dataclass(frozen=True)
class EditPolicy:
    """Who may edit a permit of a type in the back office (`editors`, role names), which of its fields stay open in
    each status (`open_in`; a status not listed, such as a draft, a decided or a closed permit, has none), and the
    section that says so (`citation`, with `why_closed`: the sentence a refused field's message ends with)."""

    editors: tuple[str, ...]
    citation: str
    why_closed: str
    open_in: Mapping[str, frozenset[str]] = field(default_factory=dict)


BEFORE_DECISION = (Status.SUBMITTED, Status.UNDER_REVIEW)
ALL = frozenset(EDITABLE)

# A type without its own policy (none today: each type states its own): the application may be corrected while it is
# reviewed, by the Clerk-Treasurer; once decided it is the record of the decision.
DEFAULT_POLICY = EditPolicy(
    editors=(Role.CLERK,),
    citation="Chapter 303",
    why_closed="once decided, a permit is the record of its decision",
    open_in=dict.fromkeys(BEFORE_DECISION, ALL),
)


def policy_for(permit: Permit) -> EditPolicy:
    permit_type = kinds.get_type(permit.kind)
    return getattr(permit_type, "edit_policy", None) or DEFAULT_POLICY


def _key(value):
    return getattr(value, "pk", value)


def changed_fields(permit: Permit, values: Mapping) -> list[str]:
    """The editable fields whose value in `values` differs from the permit's (a related record compared by id)."""
    current = {
        "street": permit.street_id,
        "parcel": permit.parcel_id,
        **{name: getattr(permit, name) for name in EDITABLE if name not in ("street", "parcel")},
    }
    return [name for name in EDITABLE if name in values and _key(values[name]) != current[name]]


def _label(name: str) -> str:
    return str(Permit._meta.get_field(name).verbose_name)


def edit_scope_violations(
    *,
    number: str,
    title: str,
    status: str,
    status_label: str,
    changed: Iterable[str],
    may_edit: bool,
    policy: EditPolicy,
) -> list[Violation]:
    """The policy's section: the editor's role first (one message), then each changed field the permit's status
    closes (a message on that field)."""
    changed = list(changed)
    if not changed:
        return []
    if not may_edit:
        roles = " or the ".join(policy.editors) or "no one"
        message = f"Only the {roles} changes a {title.lower()} in the back office ({policy.citation})."
        return [Violation(None, "not_an_editor", policy.citation, message)]
    open_now = policy.open_in.get(status, frozenset())
    return [
        Violation(
            name,
            "closed_in_status",
            policy.citation,
            f"The {_label(name)} of {number} cannot change now that it is {status_label.lower()}: "
            f"{policy.why_closed} ({policy.citation}).",
        )
        for name in changed
        if name not in open_now
    ]


def scope_violations(permit: Permit, changed: Iterable[str], *, by) -> list[Violation]:
    """Who may change these fields of `permit` in its status (its type's EditPolicy). `by=None` is the system."""
    permit_type = kinds.get_type(permit.kind)
    policy = policy_for(permit)
    return edit_scope_violations(
        number=permit.number,
        title=permit_type.title if permit_type else "permit",
        status=permit.status,
        status_label=permit.get_status_display(),
        changed=changed,
        may_edit=by is None or has_role(by, *policy.editors),
        policy=policy,
    )


def date_order_violations(*, start_date, end_date, citation: str) -> list[Violation]:
    """The planned end cannot be before the planned start (the application's dates, e.g. § 303-4B)."""
    if start_date and end_date and end_date < start_date:
        return [
            Violation(
                "end_date",
                "before_start",
                citation,
                f"The end date cannot be before the start date ({citation})",
            )
        ]
    return []


def edit_violations(permit: Permit, values: dict, *, today: date, by=None) -> list[Violation]:
    """Every rule the edited permit must meet: its type's policy (who, which fields in this status), then the type's
    own rules on the new values (filing's rules) or, for a type without them, the order of its dates. Nothing
    changed: nothing to refuse."""
    changed = changed_fields(permit, values)
    if not changed:
        return []
    refused = scope_violations(permit, changed, by=by)
    if refused:
        return refused
    permit_type = kinds.get_type(permit.kind)
    hook = getattr(permit_type, "edit_rules", None)
    if hook is not None:
        return [v for v in hook(permit, values, today=today) if not v.warning]
    citation = permit_type.citation if permit_type else "Chapter 303"
    return date_order_violations(
        start_date=values.get("start_date"), end_date=values.get("end_date"), citation=citation
    )


def shown(value) -> str:
    if value in (None, ""):
        return "(empty)"
    if hasattr(value, "strftime"):
        return f"{value:%B %-d, %Y}"
    return str(value)
