"""Rules every application to work a street, alley or sidewalk meets whatever its permit type, kept by the apps whose
registers decide them (the Clerk-Treasurer's grade register and the Board's higher sidewalk standards:
obstructions/registers, § 303-1A(1), § 303-3D(11)).

Each part that keeps such a register has a `street_work_checks.py` module (found through permits.kinds.discover) with
`work_violations(*, kind, street, parcel, today, fields, emergency) -> list[Violation]`. The sidewalk and street
opening services call `work_violations` from the one check their form, API and service share.
"""

from __future__ import annotations

from datetime import date
from functools import cache

from permits import kinds


@cache
def _modules():
    return tuple(kinds.discover("street_work_checks"))


def work_violations(*, kind: str, street, today: date, parcel=None, fields: dict | None = None, emergency=False):
    """Every registered rule an application of `kind` (a PermitKind value) on `street` breaks."""
    found = []
    for module in _modules():
        found += module.work_violations(
            kind=kind, street=street, parcel=parcel, today=today, fields=fields or {}, emergency=emergency
        )
    return found


def load_demo() -> None:
    """The demo village's facts in those registers (each module's optional `load_demo`), after the streets, the
    accounts and the Board: without its grades no demo street could be worked (§ 303-1A(1))."""
    for module in _modules():
        if hasattr(module, "load_demo"):
            module.load_demo()
