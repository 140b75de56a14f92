"""The readings chosen for § 303-15 where it can be read more than one way."""

from permits.readings import Reading

TOPIC = "Street use (§ 303-15)"
READINGS = (
    Reading(
        "§ 303-15F",
        TOPIC,
        "The Village keeps no register of adult residents: each address along the portion (from the parcel roll, a "
        "unit each) declares on the petition its residents over 18, and 75% of those declared must consent, each "
        "consent verified (a code to the household's email on file, or a paper page sworn by its circulator and "
        "accepted by the Clerk-Treasurer). An address with no declaration holds the count back.",
        otherwise="The Clerk-Treasurer prescribes the petition's form (§ 303-15F); an undeclared address is never "
        "counted as having no adults, which would let a petition pass by leaving addresses out.",
    ),
    Reading(
        "§ 303-15F",
        TOPIC,
        "The petition designates the area and the time of the use: once anyone has consented, and so after the "
        "grant, the street, the portion and the dates cannot be changed; a change needs a new petition.",
        otherwise="A different street, portion or time is applied for anew, with its own petition.",
    ),
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
