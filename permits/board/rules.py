"""How the Village Board decides: plain functions of the counts, each citing its source. The counts come from the
roster and the attendance (permits.board.services), never typed in.

Quorum: Wis. Stat. § 61.32 makes the village board the president and the trustees, and (in the statute, not quoted in
wisconsin.md) "a majority of the members-elect shall constitute a quorum". Our reading: members-elect are the seats of
the entire Board on the meeting date, vacant ones included, so Theresa's quorum is 4 of 7.
"""

from __future__ import annotations


def votes_needed_for_three_fourths(seats: int) -> int:
    """§ 303-3D(8)(c): ayes needed for three-fourths of the entire Board: ceil(3/4 x seats), 6 of 7."""
    return -(-3 * seats // 4)  # integer ceiling: no floating point near the boundary


def is_three_fourths_of_entire_board(*, ayes: int, seats: int) -> bool:
    """§ 303-3D(8)(c): "a three-fourths vote of the entire Board": every seat counts, vacant or absent."""
    return seats > 0 and ayes >= votes_needed_for_three_fourths(seats)


def quorum(seats: int) -> int:
    """Wis. Stat. § 61.32: a majority of the members-elect (read: of the seats) constitutes a quorum: 4 of 7."""
    return seats // 2 + 1


def has_quorum(*, present: int, seats: int) -> bool:
    """Wis. Stat. § 61.32: the Board acts only with a quorum present."""
    return seats > 0 and present >= quorum(seats)


def votes_needed_for_majority_of_present(present: int) -> int:
    """A majority of those present: more than half of the members present (4 of 7 present, 3 of 5, 3 of 4)."""
    return present // 2 + 1


def is_majority_of_present(*, ayes: int, present: int) -> bool:
    """A motion carries by a majority of those present unless the ordinance requires more."""
    return present > 0 and ayes >= votes_needed_for_majority_of_present(present)


THREE_FOURTHS_CLAUSES = ("303-3D(8)(c)",)  # § 303-3D(8)(c): "by a three-fourths vote of the entire Board"


def vote_rule_for(clause: str) -> str:
    """§ 303-3D(8)(c): the width and thickness waiver needs three-fourths of the entire Board; every other matter a
    majority of those present. The clerk never picks the rule: the clause of the agenda item decides it."""
    return "three_fourths_entire" if clause in THREE_FOURTHS_CLAUSES else "majority_present"
