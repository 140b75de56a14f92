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
    Reading(
        "§ 303-3A, § 303-3B(2)",
        TOPIC,
        "Curb and gutter are ordered, served and done as sidewalk orders are (§ 303-3A names them together): the "
        "owner may do the work within the period after service, then the Village may. The owner's share of the "
        'Village\'s cost is charged "as a special assessment" as § 303-3B(2) says, so under Wis. Stat. § 66.0703 '
        "(preliminary resolution, engineer's report, notice, hearing, final resolution) rather than as a § 66.0907 "
        "special tax; it is not billed before the final resolution. The 50% Village share is only for work the "
        "clerk records as part of the Highland Avenue / Theresa Lane project, never inferred from a street name.",
    ),
    Reading(
        "§ 303-3B(3)",
        TOPIC,
        "Minor repairs (Wis. Stat. § 66.0907): the Board's resolution requiring them, and the most one may cost, are "
        "recorded as data (the statute's older text says $100: verify). A repair costing exactly the limit is "
        "minor; a cent more needs the Board's order. No notice is required before the repair; afterwards the owner "
        "of record is told in writing what was repaired, under what authority and at what cost, and the cost is "
        "billed at once as a special tax (no § 66.0627(3)(b) hearing: it is not a special charge). Unpaid, it goes on "
        "the tax roll.",
    ),
)
