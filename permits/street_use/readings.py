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
        otherwise='"A law enforcement officer" is any sworn officer of the Village police (the Police Officer '
        "role), the Chief included; the Police Officer role holds this power only, none of the Chief's others.",
    ),
)
