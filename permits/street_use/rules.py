"""Street use permits (§ 303-15): the rules, as pure functions of plain values. Services read the clock and the
database once and pass what they read in; nothing here reads either."""

from __future__ import annotations

from datetime import datetime

from permits.errors import Violation

# § 303-15D(5): "a period for the use of the street in excess of three days" is denied.
MAX_DAYS = 3

# § 303-15F: "not less than 75%" of the adult residents along the portion.
PETITION_SHARE_NUMERATOR, PETITION_SHARE_DENOMINATOR = 3, 4

# § 303-15B: the seven items of the application, each with its clause. Item (2) is asked only when the use is for an
# organization (organization_name given).
ITEMS: dict[str, tuple[str, str]] = {
    "applicant_name": ("the applicant's name", "§ 303-15B(1)"),
    "applicant_address": ("the applicant's address", "§ 303-15B(1)"),
    "applicant_phone": ("the applicant's telephone number", "§ 303-15B(1)"),
    "responsible_name": ("the name of the person responsible for conducting the use", "§ 303-15B(3)"),
    "responsible_address": ("the address of the person responsible", "§ 303-15B(3)"),
    "responsible_phone": ("the telephone number of the person responsible", "§ 303-15B(3)"),
    "starts_at": ("the date and time the use begins", "§ 303-15B(4)"),
    "ends_at": ("the date and time the use ends", "§ 303-15B(4)"),
    "street": ("the street", "§ 303-15B(5)"),
    "portion_description": ("an accurate description of the portion of the street", "§ 303-15B(5)"),
    "expected_attendance": ("the approximate number of persons", "§ 303-15B(6)"),
    "proposed_use": ("the proposed use, described in detail", "§ 303-15B(7)"),
}
ORGANIZATION_ITEMS: dict[str, tuple[str, str]] = {
    "organization_address": ("the address of the organization's headquarters", "§ 303-15B(2)"),
    "organization_phone": ("the telephone number of the organization's headquarters", "§ 303-15B(2)"),
    "organization_heads": ("the organization's authorizing responsible heads", "§ 303-15B(2)"),
}


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def missing_item_violations(data: dict) -> list[Violation]:
    """§ 303-15D(4): an application without the information § 303-15B requires is denied, each missing item named
    with its clause. The organization items (§ 303-15B(2)) are required only for a use by or for an organization."""
    wanted = dict(ITEMS)
    if not _blank(data.get("organization_name")):
        wanted |= ORGANIZATION_ITEMS
    errors = []
    for name, (label, clause) in wanted.items():
        if _blank(data.get(name)):
            errors.append(
                Violation(
                    name,
                    "missing_item",
                    "§ 303-15D(4)",
                    f"Give {label} ({clause}, § 303-15D(4))",
                )
            )
    attendance = data.get("expected_attendance")
    if isinstance(attendance, int) and attendance < 1:
        errors.append(
            Violation(
                "expected_attendance",
                "missing_item",
                "§ 303-15D(4)",
                "Give the approximate number of persons, at least 1 (§ 303-15B(6), § 303-15D(4))",
            )
        )
    return errors


def days_of_use(starts_at: datetime, ends_at: datetime) -> int:
    """§ 303-15D(5): how many days the use takes, counted as the calendar days it touches, first and last included.

    Reading: "a period ... in excess of three days" counts days, not 72-hour blocks: a Friday 08:00 to Sunday 23:00
    block party uses three days (Friday, Saturday, Sunday) and passes; Friday to Monday uses four and is denied, even
    when it is shorter than 72 hours. Pass local times (the Village's days)."""
    return (ends_at.date() - starts_at.date()).days + 1


def period_violations(*, starts_at: datetime | None, ends_at: datetime | None) -> list[Violation]:
    """§ 303-15D(5): a period in excess of three days is denied; § 303-15B(4): the use ends after it begins."""
    if starts_at is None or ends_at is None:
        return []  # reported as missing items (§ 303-15D(4))
    if ends_at <= starts_at:
        return [
            Violation("ends_at", "ends_before_start", "§ 303-15B(4)", "The use must end after it begins (§ 303-15B(4))")
        ]
    days = days_of_use(starts_at, ends_at)
    if days > MAX_DAYS:
        return [
            Violation(
                "ends_at",
                "more_than_three_days",
                "§ 303-15D(5)",
                f"The use takes {days} days ({starts_at:%A %B %-d} to {ends_at:%A %B %-d}): a period in excess of "
                f"{MAX_DAYS} days is denied (§ 303-15D(5))",
            )
        ]
    return []


def is_chapter_245_event(chapter_245_permit: str) -> bool:
    """§ 303-15B: parades, races and other events under a Chapter 245 permit need no street use permit."""
    return not _blank(chapter_245_permit)


def chapter_245_violations(chapter_245_permit: str) -> list[Violation]:
    """§ 303-15B: an event holding a Chapter 245 permit is not charged for, nor given, a street use permit."""
    if not is_chapter_245_event(chapter_245_permit):
        return []
    return [
        Violation(
            "chapter_245_permit",
            "chapter_245_event",
            "§ 303-15B",
            f"An event operating under Chapter 245 permit {chapter_245_permit.strip()} needs no street use permit "
            "(§ 303-15B): nothing is filed and nothing is charged",
        )
    ]


def signatures_required(roster_size: int) -> int:
    """§ 303-15F: not less than 75% of the adult residents, rounded up: 15 of 20, 6 of 7."""
    return -(-PETITION_SHARE_NUMERATOR * roster_size // PETITION_SHARE_DENOMINATOR)  # integer ceiling


def _some(addresses) -> str:
    shown = list(addresses)[:5]
    more = len(addresses) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def petition_violations(
    *,
    counted: int,
    roster_size: int,
    verified: bool = True,
    addresses: int | None = None,
    undeclared: tuple[str, ...] = (),
    over: tuple[str, ...] = (),
) -> list[Violation]:
    """§ 303-15F: the verified petition is signed by not less than 75% of the residents over 18 along the portion.

    Reading: the Village keeps no register of adult residents, so the petition declares them address by address
    (as the paper form does) and `roster_size` is the sum of those declarations; an address with no declaration
    blocks the count (it cannot be counted as none), and so does an address with more consents than adults
    declared (one of the two is wrong). A portion declaring no adult at all is refused: nobody could consent.
    `addresses` is how many addresses the petition lists (None: not asked)."""
    if addresses == 0:
        return [
            Violation(
                "petition",
                "no_addresses",
                "§ 303-15F",
                "The petition lists no address: the clerk names the portion of the street first (§ 303-15F)",
            )
        ]
    errors = []
    if undeclared:
        errors.append(
            Violation(
                "petition",
                "undeclared_address",
                "§ 303-15F",
                f"No residents over 18 are declared at {_some(undeclared)}: every address along the portion is "
                "declared before the petition is counted; each household declares on the petition page as it "
                "consents, or the Clerk-Treasurer records it from a paper page (§ 303-15F)",
            )
        )
    if over:
        errors.append(
            Violation(
                "petition",
                "more_consents_than_declared",
                "§ 303-15F",
                f"More consents than residents over 18 declared at {_some(over)}: the clerk corrects the declaration "
                "or the consents (§ 303-15F)",
            )
        )
    if not undeclared and roster_size <= 0:
        errors.append(
            Violation(
                "petition",
                "empty_roster",
                "§ 303-15F",
                "No residents over 18 are declared along the portion: nobody can consent (§ 303-15F)",
            )
        )
    needed = signatures_required(roster_size)
    if roster_size > 0 and counted < needed:
        errors.append(
            Violation(
                "petition",
                "petition_short",
                "§ 303-15F",
                f"The petition has {counted} of the {needed} verified consents needed: 75% of the {roster_size} "
                "residents over 18 declared along the portion (§ 303-15F)",
            )
        )
    if not verified:
        errors.append(
            Violation(
                "petition",
                "petition_unverified",
                "§ 303-15F",
                "The Clerk-Treasurer has not verified the neighbours' petition yet (§ 303-15F)",
            )
        )
    return errors


def petition_edit_violations(*, signed: bool, changed: list[str]) -> list[Violation]:
    """§ 303-15F: the petition designates "the proposed area of the street to be used and time for said proposed
    use". Reading: once anyone has consented (and so through the grant and after), the street, the portion and the
    dates are what they consented to: changing one needs a new petition, i.e. a new application."""
    if not signed or not changed:
        return []
    return [
        Violation(
            name,
            "new_petition_needed",
            "§ 303-15F",
            f"The {label} cannot change: the neighbours consented to this street, portion and time. Apply again "
            "with a new petition (§ 303-15F)",
        )
        for name, label in (
            ("street", "street"),
            ("location_description", "portion of the street"),
            ("start_date", "start date"),
            ("end_date", "end date"),
        )
        if name in changed
    ]


def is_in_progress(*, starts_at: datetime, ends_at: datetime, now: datetime) -> bool:
    """§ 303-15H: "an event in progress": from its start to its end, both included."""
    return starts_at <= now <= ends_at


def termination_violations(*, starts_at: datetime, ends_at: datetime, now: datetime, reason: str) -> list[Violation]:
    """§ 303-15H: the Village President or a law enforcement officer "has the authority to revoke a permit or
    terminate an event in progress": before the event the permit is revoked, during it the event is terminated (its
    last moment included); once the event is over there is nothing left to end. The officer says why."""
    errors = []
    if now > ends_at:
        errors.append(
            Violation(
                None,
                "event_over",
                "§ 303-15H",
                "The event is over: a permit is revoked before its event or terminated while it is in progress "
                f"(§ 303-15H); this one ran {starts_at:%b %-d %-I:%M %p} to {ends_at:%b %-d %-I:%M %p}",
            )
        )
    if _blank(reason):
        errors.append(
            Violation(
                "reason",
                "reason_required",
                "§ 303-15H",
                "Say why: the public's health, safety or welfare endangered, or the conditions or ordinances violated "
                "(§ 303-15H)",
            )
        )
    return errors


GUARANTEES = {
    "indemnity": "an indemnity and hold-harmless agreement",
    "insurance": "a certificate of comprehensive general liability insurance",
    "bond": "a performance bond",
}


def guarantee_violations(*, required: set[str], on_file: set[str]) -> list[Violation]:
    """§ 303-15G: what the Board required (indemnity, insurance certificate, performance bond) is on file before the
    permit is issued."""
    return [
        Violation(
            "documents",
            f"{kind}_missing",
            "§ 303-15G",
            f"The Board required {GUARANTEES[kind]}: it is not on file, so the permit is not issued (§ 303-15G)",
        )
        for kind in ("indemnity", "insurance", "bond")
        if kind in required and kind not in on_file
    ]


def event_has_ended(*, end_date, today) -> bool:
    """§ 303-15B(4): the permit covers the street for the event's days, its last day included: the event has ended
    from the day after its last day, never on it."""
    return end_date is not None and today > end_date
