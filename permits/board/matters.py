"""What waits for the Village Board: one plain record per kind of matter the Board decides, read by the clerk's
Board queue, the agenda builder, the agenda packet and the vote recorder.

Each part that brings matters to the Board lists them in a `board_matters.py` module of its own (a tuple `MATTERS`),
found through permits.kinds.discover. When the clerk records the Board's motion on an agenda item whose
subject is a matter, the matter's `decide` applies the result to the subject (granted, denied, waived, adopted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from permits import kinds


@dataclass(frozen=True)
class Matter:
    clause: str  # a permits.board.clauses.Clause value
    title: str  # "Street use permits awaiting the Board (§ 303-15C)"
    model: str  # "app_label.ModelName" of the subjects (what AgendaItem.subject points at)
    # () -> the subjects waiting for the Board, oldest first: a queryset (the queue counts it, capped, and reads a
    # page of it), or a short list
    waiting: Callable[[], Iterable]
    # (subject) -> [(label, value), ...]: the facts the packet prints for the item (counts, grounds, recommendations)
    facts: Callable[[object], list[tuple[str, str]]]
    # (*, subject, motion, by) -> None: apply the carried or failed motion to the subject
    decide: Callable[..., None]
    # The URL name of the page where staff put a new matter of this kind to the Board ("" when the matter arises by
    # itself, as a permit application does)
    new_url: str = ""
    # (subjects) -> None: fetch, in a few queries for all of them, what `facts` reads of the subjects listed together
    # (the queue shows a page of them: no query per row). None: `facts` reads nothing beyond `waiting`'s joins.
    prepare: Callable[[list], None] | None = None

    @property
    def key(self) -> str:
        """The matter's name in a URL (the queue's page of one matter)."""
        return f"{self.clause}|{self.model}"


@cache
def matters() -> tuple[Matter, ...]:
    """Every part's matters (`<part>.board_matters.MATTERS`), in the order of the registry's parts."""
    return tuple(m for module in kinds.discover("board_matters") for m in module.MATTERS)


def matter_for(clause: str, model: str) -> Matter | None:
    return next((m for m in matters() if m.clause == clause and m.model == model), None)


def facts_of(matter: Matter, subjects: list) -> list[list[tuple[str, str]]]:
    """Each subject's facts, in order, with what they read fetched once for all of them."""
    if matter.prepare is not None and subjects:
        matter.prepare(subjects)
    return [matter.facts(s) for s in subjects]
