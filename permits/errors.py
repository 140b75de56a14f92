"""The one shape every Chapter 303 rule reports a broken rule in, and the errors every permit type raises.

- `Violation`: one broken rule, with the field it concerns, a stable code, its section and the message a person reads.
- `RulesBroken`: every broken rule at once (a Django ValidationError, so forms, the admin and the API show it the
  same way); nothing was stored.
- `IllegalTransition`: a status change the status table, the actor's authority or a concurrent change forbids.

Services and rules refuse only with `RulesBroken`; a page shows it through `permits.forms.add_service_errors` (each
message on its field), the API through `permits.api.errors.rules_broken_response` (the documented error body).
`violations_of` is the one reading of any other ValidationError (a model's `full_clean`, an upload check) as
violations, so those adapters treat both alike.
"""

from __future__ import annotations

import re
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


CITATION = re.compile(r"(?:Wis\. Stat\. )?§\s?\d+[-.]\d+[A-Z]?(?:\(\w+\))*")


def citation_of(message) -> str:
    """The first section a message cites ("§ 303-3D(4)", "Wis. Stat. § 66.0627"), or ""."""
    match = CITATION.search(str(message))
    return match.group(0) if match else ""


class RulesBroken(ValidationError):
    """Raised with every broken rule at once; nothing was stored."""

    def __init__(self, violations):
        self.violations = [v for v in violations if not v.warning]
        by_field: dict[str, list[ValidationError]] = {}
        for v in self.violations:
            by_field.setdefault(v.field or NON_FIELD_ERRORS, []).append(ValidationError(v.message, code=v.code))
        super().__init__(by_field)

    @classmethod
    def one(cls, field: str | None, code: str, citation: str, message: str) -> RulesBroken:
        """A refusal for one broken rule: `raise RulesBroken.one("amount", "not_a_number", "", "...")`."""
        return cls([Violation(field, code, citation, message)])

    def __str__(self) -> str:
        return "; ".join(v.message for v in self.violations)


def field_error(violation: Violation) -> ValidationError:
    """The plain ValidationError Django's own protocol asks for where one value is checked alone (a form field's
    validator or `clean_<field>`, where a RulesBroken's by-field shape is refused): the violation's message and
    code, on the field being checked."""
    return ValidationError(violation.message, code=violation.code)


def violations_of(error: ValidationError) -> list[Violation]:
    """Any refusal as violations: a RulesBroken's own, or each message of a plain ValidationError (a model's
    `full_clean`, an upload check) on the field it names, with its code and the section its text cites."""
    if isinstance(error, RulesBroken):
        return list(error.violations)
    if hasattr(error, "error_dict"):
        pairs = [(field, e) for field, errors in error.error_dict.items() for e in errors]
    else:
        pairs = [(None, e) for e in error.error_list]
    found = []
    for field, e in pairs:
        message = str(e.message % e.params if e.params else e.message)
        found.append(
            Violation(None if field == NON_FIELD_ERRORS else field, e.code or "invalid", citation_of(message), message)
        )
    return found


def errors_only(violations) -> list[Violation]:
    return [v for v in violations if not v.warning]


def raise_if_broken(violations) -> None:
    """Raise RulesBroken when any of `violations` refuses (warnings do not)."""
    errors = errors_only(violations)
    if errors:
        raise RulesBroken(errors)


class IllegalTransition(Exception):
    """A status change the table, the actor's role or a concurrent change does not allow."""
