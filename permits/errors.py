"""The one shape every Chapter 303 rule reports a broken rule in, and the errors every permit type raises.

- `Violation`: one broken rule, with the field it concerns, a stable code, its section and the message a person reads.
- `RulesBroken`: every broken rule at once (a Django ValidationError, so forms, the admin and the API show it the
  same way); nothing was stored.
- `IllegalTransition`: a status change the status table, the actor's authority or a concurrent change forbids.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


@dataclass(frozen=True)
class Violation:
    """One broken rule: the field it concerns, a stable code, the section, and the message a person reads."""

    field: str | None
    code: str
    citation: str
    message: str
    warning: bool = False  # a warning is shown (and must be acknowledged on the form) but does not refuse

    def as_dict(self) -> dict:
        return {"field": self.field, "code": self.code, "citation": self.citation, "message": self.message}


class RulesBroken(ValidationError):
    """Raised with every broken rule at once; nothing was stored."""

    def __init__(self, violations):
        self.violations = [v for v in violations if not v.warning]
        by_field: dict[str, list[ValidationError]] = {}
        for v in self.violations:
            by_field.setdefault(v.field or NON_FIELD_ERRORS, []).append(ValidationError(v.message, code=v.code))
        super().__init__(by_field)

    def __str__(self) -> str:
        return "; ".join(v.message for v in self.violations)


def errors_only(violations) -> list[Violation]:
    return [v for v in violations if not v.warning]


def raise_if_broken(violations) -> None:
    """Raise RulesBroken when any of `violations` refuses (warnings do not)."""
    errors = errors_only(violations)
    if errors:
        raise RulesBroken(errors)


class IllegalTransition(Exception):
    """A status change the table, the actor's role or a concurrent change does not allow."""
