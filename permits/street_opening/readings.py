"""The readings chosen for the street opening clauses where Chapter 303 can be read more than one way (the public
rules page, permits.readings)."""

from permits.readings import Reading

TOPIC = "Street openings (§ 303-4, § 303-5)"
READINGS = (
    Reading(
        "§ 303-5I",
        TOPIC,
        "When the Board decides to repave a street, excavation there must be completed within 30 days of the "
        "Clerk-Treasurer's written notice, counted from the day the last of the notices was given (a mailed one "
        "presumed received three days after mailing), not from the Board's decision. Until every notice is given the "
        "30 days have not started; after them, an opening that would end later is not approved.",
    ),
    Reading(
        "§ 303-4H(3), (5)",
        TOPIC,
        "A bond counts only when it is at least the amount the Village Board determined and has in force. While the "
        "Board has determined no amount, or the amount of a bond filed for one permit is not recorded, no bond can be "
        "shown to be enough, so approval waits.",
        otherwise="The Board sets the amounts by motion; the Clerk-Treasurer records them.",
    ),
    Reading(
        "§ 303-4A, § 303-5H",
        TOPIC,
        "A permit is obtained before the work: an application whose work starts before today is refused, except an "
        "emergency excavation begun before the application § 303-5H requires by the next business day. The day the "
        "emergency work began must be given.",
    ),
    Reading(
        "§ 303-4H(2), (4)",
        TOPIC,
        "Faulty work or materials found while the work is under way are the Director of Public Works' to notice "
        "(§ 303-4H(2)). Once the DPW has confirmed completion, work that has become defective within the year is the "
        "Village Board's alone to find (§ 303-4H(4)): a carried motion on that permit at a meeting held on or before "
        "the notice; no designee finds it. Either notice, uncorrected by its deadline, leads to the Village's repair "
        "billed with 20% and the one-year revocation (§ 303-4H(2)).",
    ),
    Reading(
        "§ 303-5B(1)",
        TOPIC,
        'The warning lights clause reads "from sunrise to sunset". At an inspection the DPW records whether the '
        "warning lights the site needs are on and working, whatever the hour; lights off fail the inspection.",
    ),
    Reading(
        "§ 303-4F(2)",
        TOPIC,
        '"Plus actual Village expenses" is part of the permit fee: what the Village spent on the opening (labor, '
        "equipment, materials, the last two shown by their receipt or invoice) is added to the permit's fee and "
        "paid to the Clerk-Treasurer, who receipts it. It is owed by the permittee, so it is not a special charge "
        "on a parcel's owner, and no administration percentage is added (that is § 303-4H(2)'s).",
    ),
    Reading(
        "§ 303-1C(4)",
        TOPIC,
        "The Director's request to check construction before it is covered applies to underground utility "
        "construction under way. It holds every record of covering (backfill, compaction, pavement, the final "
        "inspection, temporary or permanent pavement, completion) until the DPW logs its underground inspection; that "
        "inspection is the check, whatever it finds: construction covered before it fails it.",
    ),
)
