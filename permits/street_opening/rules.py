"""Chapter 303 rules for street openings (§ 303-1C, § 303-4, § 303-5) and Wis. Stat. § 182.0175.

Every rule is a small pure function: dates, datetimes, Decimals and plain values in, no clock and no database (the
one exception: Chapter 303's business days read the Village's office-closure calendar, cached, permits.business_days).
A rule returns a list of `Violation`s (empty when the rule is met), or a plain value (a date, a bool).
The services gather the facts from the database and read the clock once; the web form and the API turn each
violation into an error naming its field and citing its section. Ambiguous text is interpreted once, here.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from permits.business_days import add_working_days, next_business_day, shift
from permits.errors import Violation
from permits.time import days_before, last_day

# --- Constants, each citing its clause -------------------------------------------------------------------------

VALIDITY = timedelta(days=30)  # § 303-4D: valid for 30 days from the date of approval
RENEWAL_PERIOD = timedelta(days=30)  # § 303-4E: a thirty-day renewal
MIN_INSURANCE = Decimal(500000)  # § 303-4G: per person, per accident and property damage, each
REVOCATION_YEARS = 1  # § 303-4H(2): one-year revocation of the right to obtain a permit
BOARD_DECISION_LEAD = timedelta(days=30)  # § 303-5I: decided not less than 30 days before the work
EXCAVATION_DEADLINE_AFTER_NOTICE = timedelta(days=30)  # § 303-5I: excavation completed within 30 days
MORATORIUM_YEARS = 5  # § 303-5I: no permit for five years after the repaving
DIGGERS_WORKING_DAYS = 3  # Wis. Stat. § 182.0175: locate requested at least 3 working days before excavating
DIGGERS_STALE_DAYS = 10  # Diggers Hotline policy: a ticket is stale 10 calendar days after its legal start
UNDERGROUND_MIN_DEPTH_FEET = Decimal(3)  # § 303-1C(1): top of grade to top of construction

SURFACES = ("bituminous", "concrete", "gravel", "sidewalk", "terrace")
PAVED_SURFACES = ("bituminous", "concrete", "sidewalk")

# § 303-4H(1): the signed statement. One checkbox per undertaking; all must be ticked.
UNDERTAKINGS: dict[str, str] = {
    "indemnify": "I will indemnify and save harmless the Village of Theresa and its officers from all liability "
    "for accidents and damage caused by any of the work covered by this permit.",
    "fill_excavations": "I will fill up and place in good and safe condition all excavations and openings I make.",
    "restore_pavement": "I will replace and restore the pavement over any opening as near as can be to the state "
    "and condition in which I found it.",
    "maintain_one_year": "I will keep and maintain the restoration, normal wear and tear excepted, to the "
    "satisfaction of the Village Board for one year.",
    "pay_fines": "I will pay all fines or forfeitures imposed for any violation of the rules, regulations or "
    "ordinances governing street openings or drainlaying.",
    "repair_damage": "I will repair any damage done to existing improvements during the excavation.",
    "pay_village_repair": "If the Village elects to make the street repair, I will pay all its costs and the cost "
    "of maintaining it for one year.",
}


def _error(field, code, citation, message) -> Violation:
    return Violation(field, code, citation, f"{message} ({citation})")


def _warning(field, code, citation, message) -> Violation:
    return Violation(field, code, citation, f"{message} ({citation})", warning=True)


def _add_years(day: date, years: int) -> date:
    # February 29 plus a year is taken as February 28: the anniversary never lands after the true one.
    year = day.year + years
    if not date.min.year <= year <= date.max.year:  # past the calendar (year 9999 + 1): held at its end
        return date.max if years > 0 else date.min
    try:
        return day.replace(year=year)
    except ValueError:
        return day.replace(year=year, day=28)


def _days(start: date, end: date):
    day = start
    while day <= end:
        yield day
        if day == date.max:
            return
        day += timedelta(days=1)


# --- § 303-4A/B, § 303-4C: the application -----------------------------------------------------------------------


def application_violations(
    *, street: str, location_description: str, work_description: str, method: str
) -> list[Violation]:
    """§ 303-4A/B: a written application naming the street, the location in it, the nature and the method of work."""
    required = [
        ("street", street, "Choose the street to be opened"),
        ("location_description", location_description, "Describe where on the street (address range or cross streets)"),
        ("work_description", work_description, "Describe the nature of the work"),
        ("method", method, "Describe the method you will use to do the work"),
    ]
    return [_error(f, "required", "§ 303-4B", msg) for f, value, msg in required if not (value or "").strip()]


def permit_required(*, village_work: bool) -> bool:
    """§ 303-4C: Village excavation work directed by the Village Board or the DPW needs no permit."""
    return not village_work


VILLAGE_WORK_EXEMPTION = (
    "Village excavation work done under the direction of the Village Board or the Director of Public Works needs "
    "no street opening permit (§ 303-4C)."
)


def date_violations(*, start_date: date | None, end_date: date | None) -> list[Violation]:
    """§ 303-4B: the planned start and end dates are part of the information the application gives."""
    out = []
    if start_date is None:
        out.append(_error("start_date", "required", "§ 303-4B", "Give the planned start date"))
    if end_date is None:
        out.append(_error("end_date", "required", "§ 303-4B", "Give the planned end date"))
    if start_date and end_date and end_date < start_date:
        out.append(_error("end_date", "before_start", "§ 303-4B", "The end date cannot be before the start date"))
    return out


def pavement_violations(*, surface: str, existing_pavement_inches: Decimal | None) -> list[Violation]:
    """§ 303-5G(2)/(3): the replacement depth depends on the existing pavement, so a paved surface gives its depth."""
    if surface not in SURFACES:
        return [_error("surface", "invalid", "§ 303-4B", f"Choose the surface to be opened: {', '.join(SURFACES)}")]
    if surface in PAVED_SURFACES and (existing_pavement_inches is None or existing_pavement_inches <= 0):
        citation = "§ 303-5G(3)" if surface == "concrete" else "§ 303-5G(2)"
        return [
            _error(
                "existing_pavement_inches",
                "required",
                citation,
                "Give the existing pavement thickness in inches: the replacement must be at least as deep",
            )
        ]
    return []


# --- § 303-4D/E: validity and renewal ---------------------------------------------------------------------------


def expiry_date(approved_on: date) -> date:
    """§ 303-4D: valid 30 days from the date of approval.

    Read as Wis. Stat. § 990.001(4) computes time (permits.time): the day of approval is excluded and the 30th day
    after it is included. Approved June 1, the permit is valid through July 1 and is expired on July 2; a 30th day on
    a Sunday or legal holiday moves to the next secular day.
    """
    return last_day(approved_on, VALIDITY.days)


def is_expired(expires_on: date, today: date) -> bool:
    """§ 303-4D: a permit is valid through its expiry date and lapsed the day after."""
    return today > expires_on


def renewal_violations(*, status: str, work_begun: bool, expires_on: date | None, today: date) -> list[Violation]:
    """§ 303-4E: a 30-day renewal if operations have begun under an approved permit that has not yet lapsed.

    "Will continue beyond the thirty-day validation period" is read as: the request comes before the permit lapses
    (an expired permit is not renewed; the permittee applies anew). Granting stays at the discretion of the clerk
    or the DPW: meeting this rule makes a renewal possible, not owed.
    """
    out = []
    if status not in ("approved", "issued", "active"):
        out.append(_error(None, "not_renewable", "§ 303-4E", "Only an approved or issued permit can be renewed"))
    if not work_begun:
        out.append(
            _error(
                "work_begun_on",
                "work_not_begun",
                "§ 303-4E",
                "A renewal is possible only if work has begun under the permit",
            )
        )
    if expires_on is not None and is_expired(expires_on, today):
        out.append(
            _error(
                None,
                "expired",
                "§ 303-4E",
                f"The permit lapsed on {shift(expires_on, 1):%B %-d, %Y}; apply for a new permit",
            )
        )
    return out


def renewed_expiry(expires_on: date) -> date:
    """§ 303-4E: a renewal adds 30 days to the current validity (counted as Wis. Stat. § 990.001(4) counts days)."""
    return last_day(expires_on, RENEWAL_PERIOD.days)


# --- § 303-4G: insurance -------------------------------------------------------------------------------------------


def insurance_violations(
    *,
    per_person: Decimal | None,
    per_accident: Decimal | None,
    property_damage: Decimal | None,
    expires: date | None,
    covered_through: date | None,
) -> list[Violation]:
    """§ 303-4G: at least $500,000 per person, per accident and for property damage, in force while the permit is.

    `covered_through` is the last day the permit may be in effect: the planned end date at application, the
    expiry date at approval, the renewed expiry date at renewal.
    """
    out = []
    for field, amount, label in (
        ("insurance_per_person", per_person, "per person"),
        ("insurance_per_accident", per_accident, "per accident"),
        ("insurance_property_damage", property_damage, "for property damage"),
    ):
        if amount is None or amount < MIN_INSURANCE:
            out.append(
                _error(field, "insurance_too_low", "§ 303-4G", f"Liability insurance must be at least $500,000 {label}")
            )
    if expires is None:
        out.append(_error("insurance_expires", "required", "§ 303-4G", "Give the date the insurance expires"))
    elif covered_through is not None and expires < covered_through:
        out.append(
            _error(
                "insurance_expires",
                "insurance_lapses",
                "§ 303-4G",
                f"The insurance expires {expires:%B %-d, %Y}, before the permit period ends "
                f"{covered_through:%B %-d, %Y}; it must be in force for the whole period",
            )
        )
    return out


def insurance_certificate_violations(*, certificate_filed: bool, rejected_reason: str = "") -> list[Violation]:
    """§ 303-4G: "satisfactory written evidence" of the insurance: the certificate is on file before approval (one
    the Clerk-Treasurer rejected is not on file: `rejected_reason` says why)."""
    if certificate_filed:
        return []
    if rejected_reason:
        message = (
            f"The certificate of insurance was rejected: {rejected_reason}. Upload a new one on the permit page: it "
            "is needed before approval"
        )
    else:
        message = "Upload the certificate of insurance on the permit page: it is needed before approval"
    return [_error("insurance_certificate", "certificate_missing", "§ 303-4G", message)]


# --- § 303-4H: statement, bond, revocation ------------------------------------------------------------------------


def statement_violations(*, signed_by: str, undertakings, signed_at: datetime | None) -> list[Violation]:
    """§ 303-4H(1): the applicant signs (types its full name), accepting every undertaking; the time is kept."""
    out = []
    name = (signed_by or "").strip()
    if len(name.split()) < 2:
        out.append(
            _error(
                "statement_signed_by",
                "signature_required",
                "§ 303-4H(1)",
                "Sign the indemnity and guarantee statement by typing your full name",
            )
        )
    missing = [key for key in UNDERTAKINGS if key not in set(undertakings or ())]
    if missing:
        out.append(
            _error(
                "statement_undertakings",
                "undertakings_missing",
                "§ 303-4H(1)",
                "Accept every undertaking of the indemnity and guarantee statement",
            )
        )
    if signed_at is None:
        out.append(
            _error(
                "statement_signed_by",
                "signature_time_missing",
                "§ 303-4H(1)",
                "The time of signing must be kept with the statement",
            )
        )
    return out


def annual_bond_covers(bond_year: int, day: date) -> bool:
    """§ 303-4H(5): an annual bond covers work from January 1 to December 31 of the year it was given for.

    "For one year beginning January 1" is read as the calendar year, not a year from the date it was filed.
    """
    return day.year == bond_year


def bond_amount_counts(amount, required) -> bool:
    """§ 303-4H(3), (5): a bond counts only at or above the amount the Village Board determined and has in force on
    the day; one cent below does not count. It fails closed: with no amount in force (the Board has determined none)
    or no amount recorded for the bond, nothing shows the bond is enough, so it does not count yet."""
    if required is None or amount is None:
        return False
    return Decimal(amount) >= Decimal(required)


def _bond_shortfall(kind: str, amount, required) -> str:
    """Why a bond does not count (bond_amount_counts is False), in words that say who can clear it."""
    if required is None:
        return (
            f"The Village Board has not determined the amount of the {kind} in force: the bond cannot be "
            "accepted until it does (the Clerk-Treasurer records the Board's motion)"
        )
    if amount is None:
        return (
            f"The amount of the {kind} is not recorded: the Clerk-Treasurer or the Director of Public Works records "
            "it from the bond document on the permit's Village actions page"
        )
    return (
        f"The {kind} on file is ${Decimal(amount):,.2f}, below the ${Decimal(required):,.2f} the Village Board "
        "determined: it does not count"
    )


def bond_violations(
    *,
    annual_bond: bool,
    annual_bond_years,
    per_permit_bond_filed: bool,
    start_date: date | None,
    end_date: date | None,
    at_approval: bool,
    annual_bond_amounts: dict | None = None,
    annual_required=None,
    per_permit_bond_amount=None,
    guarantee_required=None,
    per_permit_bond_rejected: str = "",
) -> list[Violation]:
    """§ 303-4H(3)/(5): a bond for this permit, or an annual bond covering every day of the planned work, each at
    least the amount the Village Board determined (in force on the day checked). A bond the Clerk-Treasurer rejected
    is not filed: `per_permit_bond_rejected` says why.

    At application a per-permit bond may still be uploaded later (a warning); at approval it must be on file.
    `annual_bond_amounts` ({year: amount}) are the annual bonds on file; `annual_bond_years` lists their years.
    """
    if annual_bond:
        if start_date is None or end_date is None:
            return []
        amounts = (
            dict(annual_bond_amounts) if annual_bond_amounts is not None else {y: None for y in annual_bond_years or ()}
        )
        needed_years = sorted({d.year for d in (start_date, end_date)})
        errors = []
        uncovered = [y for y in needed_years if y not in amounts]
        short = [y for y in needed_years if y in amounts and not bond_amount_counts(amounts[y], annual_required)]
        if annual_bond_amounts is None:
            short = []
        if uncovered:
            errors.append(
                _error(
                    "annual_bond",
                    "no_annual_bond",
                    "§ 303-4H(5)",
                    f"No annual bond is on file for {', '.join(map(str, uncovered))}; file one with the "
                    "Clerk-Treasurer or give a bond for this permit",
                )
            )
        for year in short:
            # Below the Board's amount, the bond is refused at once; an amount not yet determined holds approval.
            undetermined = annual_required is None or amounts[year] is None
            make = _warning if undetermined and not at_approval else _error
            errors.append(
                make(
                    "annual_bond",
                    "annual_bond_below_amount",
                    "§ 303-4H(5)",
                    f"{year}: " + _bond_shortfall("annual bond", amounts[year], annual_required),
                )
            )
        return errors
    if per_permit_bond_filed:
        if bond_amount_counts(per_permit_bond_amount, guarantee_required):
            return []
        make = _error if at_approval else _warning
        return [
            make(
                "annual_bond",
                "guarantee_bond_below_amount",
                "§ 303-4H(3)",
                _bond_shortfall("bond for this permit", per_permit_bond_amount, guarantee_required),
            )
        ]
    if per_permit_bond_rejected:
        message = (
            f"The bond for this permit was rejected: {per_permit_bond_rejected}. Upload a new one on the permit "
            "page: it is needed before approval"
        )
        return [(_error if at_approval else _warning)("annual_bond", "bond_missing", "§ 303-4H(3)", message)]
    if at_approval:
        return [
            _error(
                "annual_bond",
                "bond_missing",
                "§ 303-4H(3)",
                "A bond for this permit must be filed before it is approved",
            )
        ]
    return [
        _warning(
            "annual_bond",
            "bond_missing",
            "§ 303-4H(3)",
            "Upload the bond for this permit on the permit page: it is needed before approval",
        )
    ]


def revocation_ends(revoked_on: date) -> date:
    """§ 303-4H(2): a one-year revocation; the right returns on the anniversary of the revocation."""
    return _add_years(revoked_on, REVOCATION_YEARS)


def revocation_violations(*, revoked_until: date | None, today: date, revoked_subject: str = "") -> list[Violation]:
    """§ 303-4H(2): an applicant whose right to permits was revoked cannot obtain one until the revocation ends.

    The revocation binds the permittee and the people applying for it (permits.street_opening.services.
    active_revocation): `revoked_subject` names whose right was revoked, when known."""
    if revoked_until is not None and today < revoked_until:
        whose = f"The right of {revoked_subject}" if revoked_subject else "Your right"
        return [
            _error(
                None,
                "applicant_revoked",
                "§ 303-4H(2)",
                f"{whose} to obtain street opening permits is revoked until {revoked_until:%B %-d, %Y} "
                "for failing to correct deficiencies; it binds the company and the people who apply for it, in "
                "their own names or for another organization",
            )
        ]
    return []


# --- § 303-5A: frozen ground ---------------------------------------------------------------------------------------


def in_frozen_ground_season(day: date) -> bool:
    """§ 303-5A: no openings "between November 15 and April 1".

    Read inclusively: November 15 and April 1 are both closed. The clause protects frozen ground, the dates it
    names are the ones it prohibits, and the Board (or its designee) can still allow an emergency on either day.
    So November 14 and April 2 are open; November 15 through April 1 are closed.
    """
    return (day.month, day.day) >= (11, 15) or (day.month, day.day) <= (4, 1)


def season_start_after(day: date) -> date:
    """§ 303-5A: the first day of the frozen-ground season after `day` (November 15 of its year, or of the next
    year once that one has passed)."""
    start = date(day.year, 11, 15)
    if day >= start:
        start = date(min(day.year + 1, date.max.year), 11, 15)
    return start


def approved_valid_through(approved_on: date, *, emergency_determined: bool) -> date:
    """§ 303-4D with § 303-5A: valid 30 days from approval (expiry_date), but an approval given before the
    frozen-ground season does not carry the opening into it: without the Board's (or its designee's) emergency
    determination it is valid only through November 14. Approved November 1 it is valid through November 14, not
    December 1, and an excavation on November 17 is refused as outside the permit's validity. An approval within the
    season needs the determination anyway (winter_violations)."""
    valid_through = expiry_date(approved_on)
    if emergency_determined or in_frozen_ground_season(approved_on):
        return valid_through
    return min(valid_through, shift(season_start_after(approved_on), -1))


def winter_violations(
    *, start_date: date | None, end_date: date | None, emergency: bool, determination_recorded: bool, at_approval: bool
) -> list[Violation]:
    """§ 303-5A: no opening from November 15 to April 1 unless the Board or its designee determines an emergency."""
    if start_date is None or end_date is None:
        return []
    if not any(in_frozen_ground_season(d) for d in _days(start_date, min(end_date, shift(start_date, 366)))):
        return []
    if determination_recorded:
        return []
    if not emergency:
        return [
            _error(
                "start_date",
                "frozen_ground",
                "§ 303-5A",
                "No openings are permitted from November 15 to April 1 except emergency excavations",
            )
        ]
    if at_approval:
        return [
            _error(
                "emergency",
                "emergency_not_determined",
                "§ 303-5A",
                "A winter opening needs the Village Board or its designee to determine it an emergency",
            )
        ]
    return [
        _warning(
            "emergency",
            "emergency_not_determined",
            "§ 303-5A",
            "This is a winter opening: the Village Board or its designee must determine it an emergency "
            "before the permit is approved",
        )
    ]


# --- § 303-5H: emergency excavation ------------------------------------------------------------------------------


def emergency_filing_deadline(work_began_on: date) -> date:
    """§ 303-5H: emergency work may begin without a permit; the application is due by the next business day.

    "Not later than the next business day" is the first business day after the day the work began: weekends and the
    days the Village office is closed (the office-closure calendar the Clerk-Treasurer keeps, seeded from Wis. Stat.
    § 995.20) are not business days. Work begun Friday is filed by Monday, or Tuesday after a closed Monday.
    """
    return next_business_day(work_began_on)


def is_late_emergency_filing(*, work_began_on: date, filed_on: date) -> bool:
    """§ 303-5H: filed after the next business day."""
    return filed_on > emergency_filing_deadline(work_began_on)


def emergency_violations(*, emergency: bool, work_began_on: date | None, filed_on: date) -> list[Violation]:
    """§ 303-5H: a late emergency application is accepted and flagged to the Clerk-Treasurer, never refused. The day
    the emergency work began is required: defaulting it to the filing day would hide a late filing."""
    if emergency and work_began_on is None:
        message = "Give the day the emergency work began: the application is due by the next business day after it"
        return [_error("emergency_began_on", "required", "§ 303-5H", message)]
    if emergency and work_began_on and is_late_emergency_filing(work_began_on=work_began_on, filed_on=filed_on):
        deadline = emergency_filing_deadline(work_began_on)
        return [
            _warning(
                "emergency_began_on",
                "late_emergency_filing",
                "§ 303-5H",
                f"The application was due by {deadline:%A, %B %-d, %Y}, the next business day after the "
                "emergency work began; the Clerk-Treasurer is told it was filed late",
            )
        ]
    if emergency and work_began_on and work_began_on > filed_on:
        return [
            _error(
                "emergency_began_on",
                "future_emergency",
                "§ 303-5H",
                "An emergency already under way cannot have begun in the future",
            )
        ]
    return []


def emergency_claimant_violations(*, emergency: bool, for_organization: bool, utility_facilities) -> list[Violation]:
    """§ 303-5H: only "any person, firm or corporation owning or controlling any sewer, gas main, water main, conduit
    or other utility in or under any public street" (and its agents and employees) may begin emergency measures
    without a permit. The Clerk-Treasurer records on the organization what it owns or controls; an application in a
    person's own name, or for an organization with nothing recorded, cannot claim an emergency (a resident cannot).
    Agents and employees apply for the utility, as its staff in the portal."""
    if not emergency or (for_organization and utility_facilities):
        return []
    if not for_organization:
        message = (
            "Only a utility that owns or controls a sewer, gas main, water main, conduit or other utility in the "
            "street may claim an emergency: apply for the utility you work for, or apply for a regular permit"
        )
    else:
        message = (
            "This organization is not recorded as owning or controlling a sewer, gas main, water main, conduit or "
            "other utility in Village streets, so it cannot claim an emergency: the Clerk-Treasurer records that"
        )
    return [_error("emergency", "emergency_not_utility", "§ 303-5H", message)]


# --- § 303-5I: improved or repaved streets -------------------------------------------------------------------------


def board_decision_violations(*, decided_on: date, work_begins_on: date) -> list[Violation]:
    """§ 303-5I: the Board decides to improve or repave a street not less than 30 days before the work begins."""
    if decided_on > days_before(work_begins_on, BOARD_DECISION_LEAD.days):
        return [
            _error(
                "work_begins_on",
                "decision_too_late",
                "§ 303-5I",
                "The Board's decision must be made at least 30 days before the improvement or repaving begins",
            )
        ]
    return []


def excavation_deadline_after_notice(notified_on: date) -> date:
    """§ 303-5I: the Clerk-Treasurer's written notice says excavation in the street must be completed within 30 days:
    counted from the day the notices were given (the last of them, a mailed one presumed received three days after
    mailing: permits.notices), as Wis. Stat. § 990.001(4) counts days. Not from the Board's decision: a person cannot
    be held to a period that ran before they were told of it."""
    return last_day(notified_on, EXCAVATION_DEADLINE_AFTER_NOTICE.days)


def moratorium_ends(repaved_on: date) -> date:
    """§ 303-5I: no permit for five years after the date of improvement or repaving; the anniversary is open."""
    return _add_years(repaved_on, MORATORIUM_YEARS)


def is_in_moratorium(*, repaved_on: date | None, day: date) -> bool:
    """§ 303-5I: `day` falls within five years after the repaving (the repaving day itself included)."""
    return repaved_on is not None and repaved_on <= day < moratorium_ends(repaved_on)


def moratorium_violations(
    *,
    repaved_on: date | None,
    planned_repaving: tuple[date, date] | None,
    start_date: date | None,
    end_date: date | None,
    exception_recorded: bool,
    at_approval: bool,
) -> list[Violation]:
    """§ 303-5I: five years without openings after a repaving unless the Board or its designee records why the
    permit is absolutely essential; and a street the Board decided to repave must be finished within 30 days.

    At application these are warnings (the applicant may ask for the exception); at approval the moratorium refuses.
    `planned_repaving` is (notified_on, work_begins_on) of a Board decision whose work has not yet been done, where
    notified_on is the day its written notices were all given (None until then). Past the 30 days after the notice,
    an application is warned and an approval refused.
    """
    out = []
    if (
        start_date
        and repaved_on
        and not exception_recorded
        and (
            is_in_moratorium(repaved_on=repaved_on, day=start_date)
            or (end_date and is_in_moratorium(repaved_on=repaved_on, day=end_date))
        )
    ):
        message = (
            f"This street was repaved on {repaved_on:%B %-d, %Y}: no opening until "
            f"{moratorium_ends(repaved_on):%B %-d, %Y} unless the Village Board or its designee records why "
            "it is absolutely essential"
        )
        make = _error if at_approval else _warning
        out.append(make("street", "moratorium", "§ 303-5I", message))
    if planned_repaving and end_date:
        notified_on, begins_on = planned_repaving
        if notified_on is None:
            out.append(
                _warning(
                    "end_date",
                    "repaving_planned",
                    "§ 303-5I",
                    f"The Village Board decided to repave this street (work begins {begins_on:%B %-d, %Y}): "
                    "excavation must be completed within 30 days of the Village's written notice",
                )
            )
        elif end_date > (deadline := excavation_deadline_after_notice(notified_on)):
            make = _error if at_approval else _warning
            out.append(
                make(
                    "end_date",
                    "repaving_planned",
                    "§ 303-5I",
                    f"The Village Board decided to repave this street (work begins {begins_on:%B %-d, %Y}) and its "
                    f"written notice was given: excavation must be completed by {deadline:%B %-d, %Y}",
                )
            )
    return out


# --- § 303-5C(2): nearby patches and openings ---------------------------------------------------------------------


def nearby_openings_violations(*, near_existing_patch: bool, nearby_openings: str) -> list[Violation]:
    """§ 303-5C(2): an opening within, next to or close to a patch, or one of several nearby openings, lists them."""
    if near_existing_patch and not (nearby_openings or "").strip():
        return [
            _error(
                "nearby_openings",
                "required",
                "§ 303-5C(2)",
                "Identify and locate the existing patches or additional openings nearby",
            )
        ]
    return []


# --- Wis. Stat. § 182.0175 and § 303-5E(3): Diggers Hotline -------------------------------------------------------


def diggers_legal_start(requested_on: date) -> date:
    """Wis. Stat. § 182.0175: excavation may start 3 working days after the locate request (the request day is not
    counted; weekends and the legal holidays of Wis. Stat. § 995.20 are not working days). A request on Friday,
    October 9, 2026 starts on Thursday, October 15 (Monday, October 12 is the 2nd Monday in October)."""
    return add_working_days(requested_on, DIGGERS_WORKING_DAYS)


def diggers_ticket_stale_after(legal_start: date) -> date:
    """Diggers Hotline policy: the last day a ticket holds is 10 calendar days after its legal start."""
    return shift(legal_start, DIGGERS_STALE_DAYS)


TICKET_TIMING = (
    "Request the locate from Diggers Hotline (811) at least 3 working days before the work; the ticket is needed "
    "before the permit is approved, and it goes stale 10 days after its legal start, so request it close to the "
    "planned start"
)


def diggers_ticket_violations(
    *,
    ticket_number: str,
    requested_at: datetime | None,
    legal_start: date | None,
    start_date: date | None,
    emergency: bool,
    at_approval: bool,
    now: datetime | None = None,
    today: date | None = None,
) -> list[Violation]:
    """§ 303-5E(3) and Wis. Stat. § 182.0175: a Diggers Hotline ticket before approval and before excavation.

    Not needed at filing: a contractor applies weeks ahead and a ticket goes stale 10 days after its legal start, so
    the ticket belongs before approval and before work. No permit is approved without one; an emergency may add it
    after filing. A request time after `now` is refused (a locate not yet requested is no ticket). The legal start
    is at least three working days after the request; planned work may not start before it. Work starting more than
    10 calendar days after the legal start, or a ticket already stale on `today`, gets a warning (Diggers Hotline
    treats the ticket as expired): warn, do not block. `requested_at` is an aware datetime; its local date counts.
    """
    citation = "Wis. Stat. § 182.0175"
    if not (ticket_number or "").strip():
        if at_approval:
            return [
                _error(
                    "diggers_hotline_ticket",
                    "ticket_missing",
                    citation,
                    "A Diggers Hotline ticket is required before the permit is approved: the applicant adds it on the "
                    "permit page",
                )
            ]
        if emergency:
            return []
        return [
            _warning(
                "diggers_hotline_ticket",
                "ticket_missing",
                citation,
                f"No Diggers Hotline ticket yet. {TICKET_TIMING}",
            )
        ]
    out = []
    if requested_at is None:
        out.append(
            _error(
                "diggers_hotline_requested_at",
                "required",
                citation,
                "Give the time the locate was requested, or leave the ticket number empty and add the ticket on the "
                "permit page before approval",
            )
        )
        return out
    if now is not None and requested_at > now:
        out.append(
            _error(
                "diggers_hotline_requested_at",
                "requested_in_future",
                citation,
                "The locate request time cannot be in the future: enter the time Diggers Hotline took the request",
            )
        )
        return out
    earliest = diggers_legal_start(requested_at.date())
    if legal_start is not None and legal_start < earliest:
        out.append(
            _error(
                "diggers_hotline_legal_start",
                "legal_start_too_early",
                citation,
                f"The legal start must be at least 3 working days after the request: "
                f"{earliest:%B %-d, %Y} at the earliest",
            )
        )
    legal = legal_start or earliest
    stale_after = diggers_ticket_stale_after(legal)
    if start_date and not emergency and start_date < legal:
        out.append(
            _error(
                "start_date",
                "before_legal_start",
                citation,
                f"Work cannot start before the ticket's legal start, {legal:%B %-d, %Y}",
            )
        )
    if today is not None and today > stale_after:
        out.append(
            _warning(
                "diggers_hotline_ticket",
                "ticket_stale_now",
                citation,
                f"The Diggers Hotline ticket went stale after {stale_after:%B %-d, %Y} (10 days after its legal start, "
                f"{legal:%B %-d, %Y}): request a new locate before work starts",
            )
        )
    elif start_date and start_date > stale_after:
        out.append(
            _warning(
                "start_date",
                "ticket_stale",
                citation,
                f"Work starts more than 10 days after the ticket's legal start ({legal:%B %-d, %Y}): "
                "Diggers Hotline may treat the ticket as expired; request a new locate",
            )
        )
    return out


# --- § 303-1C(1)-(3): underground utility construction -----------------------------------------------------------


def underground_violations(
    *,
    underground_utility: bool,
    depth_feet: Decimal | None,
    plans_filed: bool,
    plans_approved: bool,
    at_approval: bool,
    emergency: bool = False,
) -> list[Violation]:
    """§ 303-1C: underground construction at least 3 feet below the established grade (top of grade to top of the
    construction), its complete plans filed with and approved by the DPW before construction, and its location
    approved by the DPW (given with the approval of the permit). In an emergency the work may proceed without the
    prior plan approval (§ 303-1C(7)); the DPW approves the work afterwards (emergency_underground_violations)."""
    if not underground_utility:
        return []
    out = []
    if depth_feet is None:
        out.append(
            _error(
                "underground_depth_feet",
                "required",
                "§ 303-1C(1)",
                "Give the depth of the top of the construction below the established grade",
            )
        )
    elif depth_feet < UNDERGROUND_MIN_DEPTH_FEET:
        out.append(
            _error(
                "underground_depth_feet",
                "too_shallow",
                "§ 303-1C(1)",
                "Underground construction must be at least 3 feet below the established grade",
            )
        )
    if emergency:
        return out  # § 303-1C(7): no prior plan approval in an emergency
    if not plans_filed:
        make = _error if at_approval else _warning
        out.append(
            make(
                "plans",
                "plans_missing",
                "§ 303-1C(3)",
                "File complete plans of the underground construction (upload them on the permit page)",
            )
        )
    elif at_approval and not plans_approved:
        out.append(
            _error(
                "plans",
                "plans_not_approved",
                "§ 303-1C(3)",
                "The Director of Public Works must approve the plans before construction",
            )
        )
    return out


def is_emergency_underground(*, emergency: bool, underground_utility: bool) -> bool:
    """§ 303-1C(7): underground construction begun in an emergency, to protect life or property."""
    return emergency and underground_utility


def emergency_underground_violations(
    *, emergency: bool, underground_utility: bool, work_approved: bool
) -> list[Violation]:
    """§ 303-1C(7): in an emergency a utility may proceed with underground construction, subject to obtaining the
    DPW's approval of the work as soon as reasonably possible afterwards. Until the DPW has approved the work, the
    permit cannot be completed."""
    if not is_emergency_underground(emergency=emergency, underground_utility=underground_utility) or work_approved:
        return []
    return [
        _error(
            None,
            "emergency_work_not_approved",
            "§ 303-1C(7)",
            "The Director of Public Works must approve the emergency underground construction before the "
            "work can be completed",
        )
    ]


# --- § 303-5B(3): traffic lanes ----------------------------------------------------------------------------------

TRAFFIC_CONTROLS = ("none", "flagman", "temporary_signal")
MIN_LANES_EACH_WAY = 1  # § 303-5B(3)


def lanes_violations(
    *, lanes_open_each_way: int | None, traffic_control: str, closure_approved: bool, at_approval: bool
) -> list[Violation]:
    """§ 303-5B(3): at least one lane of traffic in each direction kept open unless the DPW approves otherwise;
    with fewer lanes, a flagman or a temporary traffic signal. At application a closure is a warning (the DPW has
    not yet decided); at approval it is refused unless the DPW approves it, and then traffic control is required."""
    lanes = MIN_LANES_EACH_WAY if lanes_open_each_way is None else lanes_open_each_way
    if lanes >= MIN_LANES_EACH_WAY:
        return []
    controlled = traffic_control in ("flagman", "temporary_signal")
    if not at_approval:
        out = [
            _warning(
                "lanes_open_each_way",
                "lanes_closed",
                "§ 303-5B(3)",
                "No lane open in each direction needs the approval of the Director of Public Works",
            )
        ]
        if not controlled:
            out.append(
                _warning(
                    "traffic_control",
                    "traffic_control_required",
                    "§ 303-5B(3)",
                    "With no lane open in each direction, a flagman or a temporary traffic signal is required",
                )
            )
        return out
    if not closure_approved:
        return [
            _error(
                "lanes_open_each_way",
                "lanes_closed",
                "§ 303-5B(3)",
                "At least one lane of traffic in each direction must be kept open unless the Director of "
                "Public Works approves otherwise",
            )
        ]
    if not controlled:
        return [
            _error(
                "traffic_control",
                "traffic_control_required",
                "§ 303-5B(3)",
                "With no lane open in each direction, a flagman or a temporary traffic signal is required",
            )
        ]
    return []


# --- § 303-4G, § 303-4H(5): what the permit page and the Clerk-Treasurer record after filing ----------------------


def insurance_renewal_violations(
    *, expires: date | None, on_file: date, covered_through: date | None
) -> list[Violation]:
    """§ 303-4G: a renewed certificate of insurance moves the expiry on file later, and keeps the insurance in force
    through `covered_through` (the last day the permit may be in effect: its expiry once approved, else its planned
    end). An expiry no later than the one on file renews nothing."""
    if expires is None:
        return [_error("insurance_expires", "required", "§ 303-4G", "Give the date the renewed insurance expires")]
    if expires <= on_file:
        return [
            _error(
                "insurance_expires",
                "insurance_not_renewed",
                "§ 303-4G",
                f"The insurance on file already runs to {on_file:%B %-d, %Y}: give the later expiry of the renewed "
                "certificate",
            )
        ]
    if covered_through is not None and expires < covered_through:
        return [
            _error(
                "insurance_expires",
                "insurance_lapses",
                "§ 303-4G",
                f"The renewed insurance expires {expires:%B %-d, %Y}, before the permit period ends "
                f"{covered_through:%B %-d, %Y}; it must be in force for the whole period",
            )
        ]
    return []


def annual_bond_record_violations(*, amount: Decimal, required: Decimal | None) -> list[Violation]:
    """§ 303-4H(5): an annual bond below the amount the Village Board determined is refused when recorded. With no
    amount determined yet it is recorded, and approvals wait for the Board (bond_violations says so)."""
    if required is not None and not bond_amount_counts(amount, required):
        return [
            _error(
                "amount",
                "annual_bond_below_amount",
                "§ 303-4H(5)",
                f"The annual bond is ${Decimal(amount):,.2f}, below the ${Decimal(required):,.2f} the Village Board "
                "determined (§ 303-4H(5)): record a bond of at least that amount",
            )
        ]
    return []


def annual_bond_amount_day(year: int, today: date) -> date:
    """§ 303-4H(5): the day whose Board amount an annual bond for `year` is held to. The bond covers January 1 to
    December 31; one recorded ahead (in December, for next year) meets the amount in force on January 1, one recorded
    during its year the amount in force that day (the amount approvals are checked against)."""
    return max(today, date(year, 1, 1))
