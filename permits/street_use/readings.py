"""The readings chosen for § 303-15 where it can be read more than one way."""

from permits.readings import Reading

TOPIC = "Street use (§ 303-15)"
READINGS = (
    Reading(
        "§ 303-15H",
        TOPIC,
        "The Village President or a law enforcement officer may revoke a street use permit before its event, or "
        "terminate the event while it is in progress (its last minute included); once the event is over there is "
        "nothing left to end.",
        otherwise="The office records the Chief of Police as the Village's law enforcement officer; other sworn "
        "officers are not yet accounts of their own.",
    ),
)
