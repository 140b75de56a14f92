"""The readings the Village has chosen where Chapter 303, or a statute it leans on, can be read more than one way,
published on the public rules page (/rules/) so that an applicant, an owner and the Village attorney read the same
words the code enforces.

A reading lives beside the rule it decides: `permits.time.READINGS` for how time is counted, and a part's
`readings.py` (`READINGS`, found by `permits.kinds.discover`) for its own clauses. Each says where the attorney or
the Board may decide otherwise, and, when a setting holds that decision, what it is set to now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    section: str  # the clause or statute it reads: "Wis. Stat. § 990.001(4)(a)"
    topic: str  # the heading it is listed under
    text: str  # the reading, in plain words
    otherwise: str = ""  # who may decide otherwise, and how
    in_force: Callable[[], str] | None = None  # the setting's present value, in words, where a setting holds it

    def in_force_now(self) -> str:
        return self.in_force() if self.in_force else ""


def all_readings() -> list[Reading]:
    """The core's readings first (how time is counted), then each part's, in the order of permits.kinds.PACKAGES."""
    from permits import fees, kinds, notices, time

    found = [*time.READINGS, *notices.READINGS, *fees.READINGS]
    for module in kinds.discover("readings"):
        found.extend(module.READINGS)
    return found


def readings_by_topic() -> list[tuple[str, list[Reading]]]:
    grouped: dict[str, list[Reading]] = {}
    for reading in all_readings():
        grouped.setdefault(reading.topic, []).append(reading)
    return list(grouped.items())
