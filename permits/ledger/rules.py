"""Rules of the special-charge ledger and the special-charges tax roll (Wis. Stat. § 66.0627, §§ 70.65, 74.03).

Each rule is a small pure function: dates, datetimes, Decimals and plain values in; no clock, no database. The
docstring begins with its section; the messages users see cite it too.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from permits.errors import Violation
from permits.notices import MAIL_RECEIPT_DAYS
from permits.time import last_day, last_day_at_office

# --- Due dates, delinquency, installments (Wis. Stat. § 66.0627) ----------------------------------------------

# § 66.0627(4): a special charge unpaid "within the time determined by the governing body" is delinquent. That time
# is the Board's, recorded as data (permits.ledger.models.PaymentPeriod): callers pass the period in force.
# § 303-6F(1): an obstruction-removal bill is payable within 10 calendar days from receipt. A mailed bill is presumed
# received MAIL_RECEIPT_DAYS after mailing (permits.notices); an emailed one the day it is sent.
OBSTRUCTION_PAYMENT_DAYS = 10


def charge_due_on(given_on: date, source: str, payment_days: int) -> date:
    """§ 66.0627(4) / § 303-6F(1): the day by which a billed special charge must be paid in full at the
    Clerk-Treasurer's office, counted from the day the bill was given: `payment_days`, the period the Board set, or
    for an obstruction bill the ordinance's own 10 days from its presumed receipt (MAIL_RECEIPT_DAYS later), as
    Wis. Stat. § 990.001(4) counts days (permits.time): that day excluded, and a last day on a Sunday, a legal
    holiday or a day the office is closed moves to the next day it is open."""
    if source == "obstruction_removal":
        return last_day_at_office(last_day(given_on, MAIL_RECEIPT_DAYS), OBSTRUCTION_PAYMENT_DAYS)
    return last_day_at_office(given_on, payment_days)


def payment_period_errors(days) -> list[Violation]:
    """Wis. Stat. § 66.0627(4): the Board's time for payment is a whole number of days, at least one and at most a
    year (a longer period would let a charge miss the tax roll it is meant for)."""
    cite = "Wis. Stat. § 66.0627(4)"
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 366:
        return [Violation("days", "days_range", cite, f"The time for payment is 1 to 366 days ({cite}).")]
    return []


def is_delinquent(due_on: date | None, today: date) -> bool:
    """§ 66.0627(4): unpaid after the due date, the charge is delinquent (the due date itself is still on time)."""
    return due_on is not None and today > due_on


def payment_errors(amount: Decimal, balance: Decimal) -> list[Violation]:
    """§ 66.0627(2): a special charge is not payable in installments: a payment settles the whole balance."""
    if amount <= 0:
        return [Violation("amount", "not_positive", "", "The amount must be more than $0.00.")]
    if amount != balance:
        message = (
            f"A special charge is not payable in installments (Wis. Stat. § 66.0627(2)): the payment must be the "
            f"full balance of ${balance}."
        )
        return [Violation("amount", "installment", "Wis. Stat. § 66.0627(2)", message)]
    return []


# --- The hearing before a sidewalk-repair charge (Wis. Stat. § 66.0627(3)(b)) --------------------------------

PUBLISHED_NOTICE_DAYS = 20  # § 66.0627(3)(b)1: class 1 notice published at least 20 days before the hearing
MAILED_NOTICE_DAYS = 10  # § 66.0627(3)(b)2: copy mailed at least 10 days before the hearing
SOURCES_NEEDING_HEARING = frozenset({"sidewalk_repair", "street_tarring"})


def needs_hearing(source: str) -> bool:
    """§ 66.0627(3)(b): sidewalk, curb or gutter repair and street tarring are charged only after a Board hearing."""
    return source in SOURCES_NEEDING_HEARING


def hearing_notice_field_errors(hearing_on: date, published_on: date, mailed_on: date) -> dict[str, str]:
    """§ 66.0627(3)(b): the class 1 notice is published at least 20 days, and a copy mailed at least 10 days, before
    the hearing. "At least 20 days before" counts whole days between the two dates: published on the 1st for a
    hearing on the 21st is 20 days and suffices; on the 2nd (19 days) does not. Keyed by the form field at fault."""
    errors = {}
    if (hearing_on - published_on).days < PUBLISHED_NOTICE_DAYS:
        errors["published_on"] = (
            f"The class 1 notice was published {(hearing_on - published_on).days} days before the hearing; "
            f"Wis. Stat. § 66.0627(3)(b) requires at least {PUBLISHED_NOTICE_DAYS}."
        )
    if (hearing_on - mailed_on).days < MAILED_NOTICE_DAYS:
        errors["mailed_on"] = (
            f"The notice was mailed {(hearing_on - mailed_on).days} days before the hearing; "
            f"Wis. Stat. § 66.0627(3)(b) requires at least {MAILED_NOTICE_DAYS}."
        )
    return errors


def hearing_notice_errors(hearing_on: date, published_on: date, mailed_on: date) -> list[str]:
    """§ 66.0627(3)(b): the same rule as hearing_notice_field_errors, as a list of messages."""
    return list(hearing_notice_field_errors(hearing_on, published_on, mailed_on).values())


def certification_errors(source: str, hearings: list[tuple[date, date, date]], today: date) -> list[str]:
    """§ 66.0627(3)(b): a charge needing a hearing may be certified only after a held hearing (on or before today)
    whose notices were timely. `hearings` are (hearing_on, published_on, mailed_on) of the hearings covering it."""
    if not needs_hearing(source):
        return []
    held = [h for h in hearings if h[0] <= today]
    if any(not hearing_notice_errors(*h) for h in held):
        return []
    if not held:
        return ["No Board hearing has been held on this charge (Wis. Stat. § 66.0627(3)(b))."]
    return hearing_notice_errors(*held[0])


def billing_errors(source: str, hearings: list[tuple[date, date, date]], today: date) -> list[str]:
    """Wis. Stat. § 66.0627(3)(b): a sidewalk-repair (or street-tarring) charge is not made, so not billed, not due and
    never delinquent, before the Board has HELD its hearing (on or before `today`) with the class 1 notice published at
    least 20 days and the copy mailed at least 10 days before it. The same test as certification: no charge exists in
    law before the hearing, so none can be billed, fall due, go delinquent or reach the roll."""
    return certification_errors(source, hearings, today)


# --- Special assessments (Wis. Stat. § 66.0703, named by § 303-3B(2)) ------------------------------------------

SPECIAL_ASSESSMENT_ROUTE = "special_assessment_66_0703"
ASSESSMENT_MAILED_DAYS = 10  # § 66.0703(7)(a): a copy mailed at least 10 days before the hearing
ASSESSMENT_HEARING_MIN_DAYS = 10  # § 66.0703(7)(a): the hearing not less than 10 days after publication (verify)
ASSESSMENT_HEARING_MAX_DAYS = 40  # § 66.0703(7)(a): nor more than 40 days after it (verify)


def needs_assessment_proceeding(route: str) -> bool:
    """§ 303-3B(2), Wis. Stat. § 66.0703: a special assessment is levied only by the Board's final resolution after
    the engineer's report, the notice and the public hearing; its own route replaces the § 66.0627(3)(b) hearing."""
    return route == SPECIAL_ASSESSMENT_ROUTE


def assessment_notice_field_errors(
    *, preliminary_on: date | None, report_filed_on: date | None, hearing_on: date, published_on: date, mailed_on: date
) -> dict[str, str]:
    """Wis. Stat. § 66.0703(7)(a): the notice follows the preliminary resolution and the engineer's report (it says
    the report may be inspected at the Clerk-Treasurer's office); the hearing is 10 to 40 days after the class 1
    notice is published (10 days after: in time; 9 days or 41 days: not), and a copy is mailed at least 10 days before
    the hearing. Keyed by the form field at fault."""
    cite = "Wis. Stat. § 66.0703(7)(a)"
    errors = {}
    if preliminary_on is None:
        errors["published_on"] = "The Board has not adopted its preliminary resolution (Wis. Stat. § 66.0703(4))."
    elif published_on < preliminary_on:
        errors["published_on"] = "The notice cannot come before the Board's preliminary resolution (§ 66.0703(4))."
    if report_filed_on is None or report_filed_on > published_on:
        errors.setdefault(
            "published_on",
            "File the engineer's report for public inspection before the notice is published (Wis. Stat. "
            "§ 66.0703(5), (7)(a)).",
        )
    days = (hearing_on - published_on).days
    if days < ASSESSMENT_HEARING_MIN_DAYS or days > ASSESSMENT_HEARING_MAX_DAYS:
        errors["hearing_on"] = (
            f"The hearing is {days} days after the notice was published; {cite} requires "
            f"{ASSESSMENT_HEARING_MIN_DAYS} to {ASSESSMENT_HEARING_MAX_DAYS} days."
        )
    if (hearing_on - mailed_on).days < ASSESSMENT_MAILED_DAYS:
        errors["mailed_on"] = (
            f"The notice was mailed {(hearing_on - mailed_on).days} days before the hearing; {cite} requires at "
            f"least {ASSESSMENT_MAILED_DAYS}."
        )
    return errors


def levy_errors(proceedings: list[dict], today: date) -> list[str]:
    """Wis. Stat. § 66.0703(8), § 303-3B(2): a special-assessment charge is not levied, so not billed, due, delinquent
    or on the roll, before a proceeding covering it has its final resolution adopted (on or before `today`) after
    a timely noticed hearing. `proceedings` are dicts of preliminary_on, report_filed_on, published_on, mailed_on,
    hearing_on, final_on."""
    problems = []
    for p in proceedings:
        if p["final_on"] is None or p["final_on"] > today or p["hearing_on"] is None:
            continue
        notice = assessment_notice_field_errors(
            preliminary_on=p["preliminary_on"],
            report_filed_on=p["report_filed_on"],
            hearing_on=p["hearing_on"],
            published_on=p["published_on"],
            mailed_on=p["mailed_on"],
        )
        if not notice and p["final_on"] >= p["hearing_on"]:
            return []
        problems += list(notice.values())
    return problems or [
        "The Board has not levied this special assessment by its final resolution after the public hearing "
        "(Wis. Stat. § 66.0703(8); § 303-3B(2))."
    ]


# --- The tax roll (Wis. Stat. §§ 70.65, 74.03) -------------------------------------------------------------------

TRANSFER_MONTH_DAY = (12, 8)  # § 74.03: the clerk delivers the roll to the treasurer by December 8


def tax_roll_cutoff(year: int, setting: str) -> date:
    """§§ 70.65, 74.03: no statute fixes the day special charges are certified; the village's cutoff is the setting
    TAX_ROLL_CUTOFF ("MM-DD", default "11-15"). A malformed setting fails loudly."""
    try:
        month, day = (int(part) for part in setting.split("-"))
        return date(year, month, day)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"TAX_ROLL_CUTOFF must look like MM-DD (e.g. 11-15), not {setting!r}") from exc


def roll_year_for(delinquent_on: date, setting: str) -> int:
    """§ 66.0627(4): a delinquent charge goes on the current or the next tax roll: on this year's when it was
    delinquent by the cutoff, otherwise on next year's."""
    cutoff = tax_roll_cutoff(delinquent_on.year, setting)
    return delinquent_on.year if delinquent_on <= cutoff else delinquent_on.year + 1


# § 303-6F(1): "Within 60 days after such costs and expenses are incurred and remain unpaid, the Clerk-Treasurer
# shall enter those charges onto the tax roll." Read with § 303-6F(1)'s 10 days from receipt: the owner keeps the
# bill's whole term, and the charge is entered on the roll only once it has stayed unpaid 60 days after the Village
# incurred the cost (removed May 1: unpaid on June 30, the 60th day after, it may be entered; June 29 it may not).
# How the 60 days meet the roll cutoff (TAX_ROLL_CUTOFF, default November 15): the charge goes on the first roll
# whose cutoff falls on or after the later of the day it became delinquent and the 60th day; incurred by
# September 16 it reaches that year's roll (September 16 + 60 = November 15), incurred September 17 or later the
# next year's. § 303-6F(2): a bill never mailed or never received does not hold it back (charge_due_on and
# permits.ledger.services.bill_charge give it a due date either way).
OBSTRUCTION_ROLL_DAYS = 60


def waits_sixty_days(source: str, citation: str = "§ 303-6F(1)") -> bool:
    """§ 303-6F(1): a removal of an obstruction (§ 303-6) waits its 60 days. The Village's removal of a lawfully
    obstructed sidewalk under § 303-7F goes on "the next annual tax roll" with no such wait."""
    return source == "obstruction_removal" and not citation.startswith("§ 303-7F")


def roll_ready_on(source: str, incurred_on: date, delinquent_on: date, citation: str = "§ 303-6F(1)") -> date:
    """§ 66.0627(4) / § 303-6F(1): the first day a delinquent charge may be entered on the tax roll: the day it became
    delinquent, and for an obstruction removal not before the 60th day after the costs were incurred."""
    if waits_sixty_days(source, citation):
        return max(delinquent_on, incurred_on + timedelta(days=OBSTRUCTION_ROLL_DAYS))
    return delinquent_on


def roll_wait_errors(source: str, incurred_on: date, today: date, citation: str = "§ 303-6F(1)") -> list[str]:
    """§ 303-6F(1): an obstruction-removal charge waits 60 days after the costs were incurred before the roll."""
    if not waits_sixty_days(source, citation):
        return []
    ready = incurred_on + timedelta(days=OBSTRUCTION_ROLL_DAYS)
    if today >= ready:
        return []
    return [
        f"An obstruction-removal charge goes on the tax roll only when unpaid 60 days after the costs were incurred "
        f"({incurred_on:%B %-d, %Y}): from {ready:%B %-d, %Y} (§ 303-6F(1))."
    ]


def transfer_deadline(year: int) -> date:
    """§ 74.03 / § 70.65: the roll with its special charges goes to the treasurer by December 8 (a year past the
    calendar, 0 or 10000, is held at its end rather than raising)."""
    return date(min(max(year, date.min.year), date.max.year), *TRANSFER_MONTH_DAY)


ROLL_BUILD_WINDOW_DAYS = 30


def is_roll_build_window(today: date, setting: str) -> bool:
    """§§ 70.65, 74.03: the nightly job drafts the year's roll during the 30 days up to and including the village's
    certification cutoff (TAX_ROLL_CUTOFF), so the clerk reviews a current draft before certifying."""
    cutoff = tax_roll_cutoff(today.year, setting)
    return cutoff - timedelta(days=ROLL_BUILD_WINDOW_DAYS) <= today <= cutoff
