"""The readings chosen for the special-charge ledger (Wis. Stat. § 66.0627) where it can be read more than one way."""

from django.utils import timezone

from permits.readings import Reading

TOPIC = "Special charges (Wis. Stat. § 66.0627)"


def _period_in_force() -> str:
    from permits.ledger.services import payment_period_in_force

    row = payment_period_in_force(timezone.localdate())
    if row is None:
        return "no period on record"
    if row.motion_id is None:
        return f"{row.days} days (the starting period; the Board has not recorded its own)"
    return f"{row.days} days, from {row.effective_from:%B %-d, %Y} (Board motion of {row.motion.held_on:%B %-d, %Y})"


READINGS = (
    Reading(
        "Wis. Stat. § 66.0627(4)",
        TOPIC,
        "A special charge is due within the time the Village Board determines, counted from the day its bill is given "
        "(emailed, or its letter recorded as mailed); the period in force on that day counts, so a later change by "
        "the Board does not move a bill already given. Until the Board records a determination, the Village's "
        "starting period of 30 days stands.",
        otherwise="The Board, by a carried motion under § 66.0627(4), recorded by the Clerk-Treasurer.",
        in_force=_period_in_force,
    ),
)
