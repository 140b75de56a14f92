"""The readings chosen for the enforcement clauses where Chapter 303 can be read more than one way."""

from permits.readings import Reading

TOPIC = "Obstructions, terraces and notices (§ 303-6, § 303-9)"
READINGS = (
    Reading(
        "§ 303-6D, § 303-6E",
        TOPIC,
        "A notice served by mail or email is the Village's own letter or email: it is served when emailed, or when "
        "the Clerk-Treasurer records the letter as mailed (presumed received three days later), and the 24 hours "
        "run from then. A notice handed over or posted is served at the time the official records.",
    ),
    Reading(
        "§ 303-9B",
        TOPIC,
        'An area of a terrace is "specifically approved" only by a recorded approval of the Village Board (a '
        "motion) or of its designee for § 303-9; the register of terrace approvals holds them, and a covered terrace "
        "is excepted only by one standing on the day it was seen. Objects are never approved.",
    ),
    Reading(
        "§ 303-6B(2)",
        TOPIC,
        '"Building materials for the period authorized by the Building Inspector" are excepted only from the first '
        "through the last day of his recorded authorization (both included), on the street it names; the day before "
        "and the day after they are an obstruction. He authorizes at most half of the sidewalk and a third of the "
        "traveled portion of the street as the street register records them (exactly half and exactly a third "
        "pass); with no width on record he cannot authorize until the Clerk-Treasurer or the Director of Public "
        "Works records one.",
    ),
)
