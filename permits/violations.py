"""The one shape every Chapter 303 rule reports a broken rule in, shared by all permit types."""

from dataclasses import dataclass


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
