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
    Reading(
        "§ 303-3C, § 303-3B(1)",
        TOPIC,
        "The walk is the abutting owner's to build and keep, so the permit is the owner's: it is filed by the owner of "
        "record, the owner's agent or the Village's contractor. The owner's standing is an account linked to the "
        "parcel (the Clerk-Treasurer approves the link against the tax roll). An agent is whoever the owner of record "
        "authorized in writing: the authorization is uploaded with the application and the Clerk-Treasurer accepts "
        "it before issue. The Village's contractor is one whose contract for the work the Clerk-Treasurer confirms in "
        "the Village's contract register (its number). Until the standing holds the permit is not issued.",
    ),
    Reading(
        "§ 303-3D(3)",
        TOPIC,
        '"Compacted and moistened immediately before the concrete is placed" is seen at the pour: the pour '
        "inspection asks both, and a no (or no answer) fails it.",
    ),
    Reading(
        "§ 303-3D(6)",
        TOPIC,
        '"Diagonal joints may be used only when approved by the Village Board": the approval is a motion of the '
        "Board that carried, recorded by the Clerk-Treasurer for one permit, adopted on or before the pour; an "
        "approval for another permit, or a box ticked by staff, is not one. An expansion joint is required wherever "
        "the walk meets another walk, a curb, a building or a driveway approach; a walk that meets none needs none.",
    ),
    Reading(
        "§ 303-3D(7)",
        TOPIC,
        '"A six-inch strip of street property left between the property line and the edge of the sidewalk" is read '
        "as at least six inches, measured when the forms are set: 6 inches passes, 5.9 fails. The section's "
        '"unless otherwise specifically indicated" is not yet recorded anywhere, so no exception is applied.',
    ),
    Reading(
        "§ 303-3D(9)",
        TOPIC,
        'The Board may waive the 35 °F and frozen-subgrade rule "upon emergency replacement situation": a waiver '
        "is for one emergency on one permit, with a last day. It excuses a pour on that permit from the day the "
        "Board adopted it through its last day, and nothing else: not a later pour, not another permit on the same "
        "parcel. A waiver recorded with no last day excuses nothing.",
    ),
    Reading(
        "§ 303-3D(11)",
        TOPIC,
        "The Board's higher standard binds the walk whenever it is asked about: at filing, again at issue (a standard "
        "adopted after the application refuses the issue until the permit meets it), and on the walk as built: the "
        "width between the forms and their depth at the forms inspection, the thickness across driveways at the pour.",
    ),
    Reading(
        "§ 303-8A",
        "Snow and ice (§ 303-8)",
        "A snow report is about a walk of the Village: an address on the parcel roll, or a street of the street "
        "register on which the roll has no lot at that number (the walk along it, for the DPW to match to a parcel "
        "or dismiss). Any other address is refused, with the closest addresses on the street named or the street "
        "names spelled like it, and nothing is kept. The reporter follows the report on a page behind an "
        "unguessable link that shows its status, the owner's deadline and the outcome, never the owner.",
    ),
    Reading(
        "§ 303-8",
        "Snow and ice (§ 303-8)",
        "§ 303-8 gives the snow duties to the owner or occupant and to the Village's crew (the Department of Public "
        "Works), and names no police power: the Chief of Police has no step on a snow case, and snow cases are not "
        "on the Chief's start page.",
    ),
)
