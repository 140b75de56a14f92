"""The readings chosen for § 303-3 where it can be read more than one way (the public rules page)."""

from permits.readings import Reading

TOPIC = "Sidewalks (§ 303-3)"
READINGS = (
    Reading(
        "§ 303-3C",
        TOPIC,
        "Work under contract with the Village needs no sidewalk permit; work under a permit needs the permit three "
        "days before. A Village contract is the Village's record, not something an applicant declares, so an "
        "application cannot use it to shorten the three days.",
    ),
    Reading(
        "§ 303-3D(8)(a), § 303-3F",
        TOPIC,
        "A residential walk that existed when § 303-3 took effect may be repaired or replaced at its own width, so a "
        "walk narrower than four feet that predates the section is not illegal for its width (its thickness and "
        "material still count). Commercial and industrial walks have no such proviso.",
    ),
    Reading(
        "§ 303-3B(3)",
        TOPIC,
        "The Board orders sidewalk work only as a body: an order is adopted by a carried motion of a meeting that "
        "was held, with its resolution number, never by a number typed into the system.",
    ),
)
