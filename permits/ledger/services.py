"""The special-charge ledger: the one way any enforcement path bills the Village's work to a parcel.

CONTRACT (other code relies on it; change it only together with its callers)
-------------------------------------------------------------------------------
    from permits.ledger.services import add_charge, record_hearing
    from permits.ledger.models import SpecialCharge, ChargeHearing

    add_charge(*, parcel, source, route, amount, incurred_on, description, citation,
               work_record=None, by, bill_now=True, today=None) -> SpecialCharge
        parcel       permits.models.Parcel the charge is levied against
        source       SpecialCharge.Source: snow_ice, rubbish, sidewalk_repair, obstruction_removal, permit_deficiency,
                     sidewalk_minor_repair
        route        SpecialCharge.Route: special_charge_66_0627, special_tax_66_0907, special_assessment_66_0703
        amount       Decimal >= 0 (a database constraint refuses a negative amount)
        incurred_on  date the Village did the work
        description  what was done, as the owner and the tax roll read it (at most 280 characters)
        citation     section authorising the charge, e.g. "§ 303-8B", "§ 303-3B(1); Wis. Stat. § 66.0907"
        work_record  any model instance the charge came from (generic foreign key), or None
        by           the user recording it (Village staff), or None for the system
        bill_now     True: billed today (due date set, bill emailed to the owner of record where an email is known);
                     False: recorded as "pending" and billed later with bill_charge(charge, by=..., today=...).
                     A charge needing a Board hearing (sidewalk_repair, Wis. Stat. § 66.0627(3)(b)) is always
                     recorded as "pending": it is billed when a held hearing with timely notices covers it
                     (record_hearing bills it then, or the nightly bill_charges_after_hearings job).
        today        the service reads timezone.localdate() when not given
    Raises permits.errors.RulesBroken (field, code, section, message) for bad input, PermissionDenied for non-staff.

    Every change of a charge's status goes through permits.state.change_state (a StateChange row: who, when, from,
    to, why; the charge page shows them); permits.errors.IllegalTransition when the charge changed meanwhile.

    record_hearing(*, hearing_on, published_on, mailed_on, charges, by, place="", notes="") -> ChargeHearing
        Wis. Stat. § 66.0627(3)(b): the Board's hearing on sidewalk-repair (or street-tarring) charges. Any dates are
        recorded as they happened, but a sidewalk_repair charge is certified to the tax roll only when covered by a
        held hearing whose class 1 notice was published >= 20 days and mailed >= 10 days before it
        (permits.ledger.rules.hearing_notice_errors / certification_errors). Clerk only.

    charges_for_work(work_record) -> QuerySet[SpecialCharge]: the charges that came from a work record.
-------------------------------------------------------------------------------
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.ledger import rules as charge_rules
from permits.ledger.models import ChargeHearing, ChargePayment, PaymentPeriod, SpecialCharge, TaxRollLine
from permits.roles import Role
from permits.services import next_number, notify_owner, notify_owners
from permits.state import change_state, change_state_many

S = SpecialCharge.Status
CHARGE_CHUNK = 1000  # charges per statement of the set-based jobs
DESCRIPTION_MAX = 280  # the roll line adds " (SC-YYYY-NNNN)" within its 300 characters


# Who may put a charge on a parcel: the Clerk-Treasurer, to whom every clause returns the costs, and the officials
# the clause names as doing the work and keeping its account. § 303-8B, § 303-2: the Village (its DPW) clears or
# removes and returns the costs; § 303-6F(1): "any Village enforcement official shall cause the removal ..., keeping
# an account of the expense"; § 303-3: the Director of Public Works oversees sidewalk work; § 303-4H(2): the Village
# repairs a permittee's deficient work (the DPW). No other role (the Board's members, the Chief of Police outside
# § 303-6) bills a parcel.
CHARGE_RECORDERS: dict[str, tuple[str, ...]] = {
    SpecialCharge.Source.SNOW_ICE: (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR),
    SpecialCharge.Source.RUBBISH: (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR),
    SpecialCharge.Source.SIDEWALK_REPAIR: (Role.CLERK, Role.DPW_DIRECTOR),
    SpecialCharge.Source.OBSTRUCTION_REMOVAL: (
        Role.CLERK,
        Role.DPW_DIRECTOR,
        Role.DPW_INSPECTOR,
        Role.BUILDING_INSPECTOR,
        Role.POLICE_CHIEF,
    ),
    SpecialCharge.Source.PERMIT_DEFICIENCY: (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR),
    # § 303-3B(3), Wis. Stat. § 66.0907: the Director of Public Works makes minor repairs where the Board so requires.
    SpecialCharge.Source.SIDEWALK_MINOR_REPAIR: (Role.CLERK, Role.DPW_DIRECTOR),
}


def add_charge(
    *,
    parcel,
    source: str,
    route: str,
    amount,
    incurred_on: date,
    description: str,
    citation: str,
    work_record=None,
    by,
    bill_now: bool = True,
    today: date | None = None,
) -> SpecialCharge:
    """Record a charge against `parcel` for the Village's work (see the contract above)."""
    today = today or timezone.localdate()
    if by is not None:
        roles = CHARGE_RECORDERS.get(source, (Role.CLERK,))
        require_role(
            by,
            *roles,
            action=f"record special charges for {SpecialCharge.Source(source).label}"
            if source in SpecialCharge.Source.values
            else "record special charges",
        )
    errors = []
    try:
        amount = Decimal(str(amount)).quantize(Decimal("0.01"))
    except (InvalidOperation, ValueError):
        errors.append(Violation("amount", "not_a_number", "", "The amount must be a number of dollars."))
    else:
        if amount < 0:
            message = "The amount of a special charge cannot be negative."
            errors.append(Violation("amount", "negative_amount", "", message))
    if source not in SpecialCharge.Source.values:
        errors.append(Violation("source", "unknown_source", "", f"Unknown source {source!r}."))
    if route not in SpecialCharge.Route.values:
        errors.append(Violation("route", "unknown_route", "", f"Unknown statutory route {route!r}."))
    if not description.strip():
        message = "Say what the Village did: it is printed on the bill and the tax roll."
        errors.append(Violation("description", "required", "", message))
    elif len(description.strip()) > DESCRIPTION_MAX:
        message = f"Keep the description to {DESCRIPTION_MAX} characters: it is printed on the tax roll."
        errors.append(Violation("description", "too_long", "", message))
    if not citation.strip():
        errors.append(Violation("citation", "required", "", "Cite the section that authorises the charge."))
    raise_if_broken(errors)
    with transaction.atomic():
        charge = SpecialCharge(
            number=next_number("SC", today.year),
            parcel=parcel,
            source=source,
            route=route,
            amount=amount,
            incurred_on=incurred_on,
            description=description.strip(),
            citation=citation.strip(),
            created_by=by,
            status=S.PENDING,
        )
        if work_record is not None:
            charge.work_content_type = ContentType.objects.get_for_model(work_record)
            charge.work_object_id = work_record.pk
        charge.save()
        # § 66.0627(3)(b): no sidewalk-repair charge is billed before its hearing is held; it waits as "pending".
        if bill_now and not _gate_errors(charge, [], [], today):
            bill_charge(charge, by=by, today=today)
    return charge


def _bill_due_on(charge: SpecialCharge, today: date, payment_days: int | None = None) -> date | None:
    """A bill is given when emailed or mailed: emailed, it falls due from today; to an owner without email it is a
    letter, and falls due from the day the Clerk-Treasurer mails it (None until then: permits.ledger.notice_clocks).
    § 303-6F(2) is the exception: an obstruction bill falls due whether or not it was mailed or received; mailed
    later, its due date moves to 10 days after its presumed receipt."""
    if not charge.parcel.owner_email and charge.source != SpecialCharge.Source.OBSTRUCTION_REMOVAL:
        return None
    return due_on_when_given(charge, today, payment_days)


def payment_period_in_force(on: date) -> PaymentPeriod | None:
    """Wis. Stat. § 66.0627(4): the period the Board determined, in force on `on`, with the motion that set it (the
    installation's starting period has none); None when nothing is on record."""
    periods = PaymentPeriod.objects.filter(effective_from__lte=on).select_related("motion__item__meeting")
    return periods.order_by("-effective_from", "-pk").first()


def payment_days_in_force(on: date) -> int:
    """Wis. Stat. § 66.0627(4): the time for payment the Board determined, in force on `on` (the day the bill is
    given). The installation's starting period (PaymentPeriod without a motion) stands until the Board records one."""
    row = payment_period_in_force(on)
    if row is None:
        cite = "Wis. Stat. § 66.0627(4)"
        raise RulesBroken([Violation("days", "no_period", cite, f"No time for payment is on record ({cite})")])
    return row.days


def due_on_when_given(charge: SpecialCharge, given_on: date, payment_days: int | None = None) -> date:
    """§ 66.0627(4) / § 303-6F(1): the due date of `charge`'s bill given on `given_on`, under the period in force
    that day (`payment_days`, when the caller has read it once for many bills)."""
    if charge.source == SpecialCharge.Source.OBSTRUCTION_REMOVAL:
        return charge_rules.charge_due_on(given_on, charge.source, None)
    return charge_rules.charge_due_on(given_on, charge.source, payment_days or payment_days_in_force(given_on))


def set_payment_period(*, days, effective_from: date, motion, by) -> PaymentPeriod:
    """Wis. Stat. § 66.0627(4): record the time for payment the Village Board determined by `motion` (a carried
    motion under that section, at a meeting held on or before `effective_from`). Bills given from that day fall due
    under it; a bill already given keeps its due date."""
    require_role(by, *board.BOARD_CLERKS, action="record the Board's time for payment (the Clerk-Treasurer does)")
    errors = board.board_action_errors(motion, clause=Clause.PAYMENT_PERIOD, on=effective_from)
    errors += charge_rules.payment_period_errors(days)
    raise_if_broken(errors)
    return PaymentPeriod.objects.create(
        days=days, effective_from=effective_from, motion=motion, recorded_by=by, recorded_at=timezone.now()
    )


def _bill_reason(due_on: date | None, payment_days: int) -> str:
    if due_on:
        return f"Billed to the owner of record, due {due_on:%B %-d, %Y} (Wis. Stat. § 66.0627(4))"
    days = payment_days
    return (
        f"Billed to the owner of record by letter: due {days} days after the letter is mailed (Wis. Stat. § 66.0627(4))"
    )


def bill_charge(charge: SpecialCharge, *, by, today: date | None = None) -> SpecialCharge:
    """Bill a pending charge to the owner of record: due date set (§ 66.0627(4)), bill emailed where an email is
    known. The PDF bill is at ledger:charge_bill_pdf. § 303-6F(2): a bill that is not mailed or not received does
    not stop the charge from going on the roll."""
    today = today or timezone.localdate()
    # § 66.0627(3)(b): a sidewalk-repair charge is billed only after a held hearing with timely notices covers it.
    problems = hearing_errors_for(charge, today)
    if problems:
        raise RulesBroken(
            Violation(
                "hearing",
                "no_hearing",
                "Wis. Stat. § 66.0627(3)(b)",
                f"Charge {charge.number} cannot be billed yet: {problem}",
            )
            for problem in problems
        )
    payment_days = payment_days_in_force(today)
    due_on = _bill_due_on(charge, today, payment_days)
    with transaction.atomic():
        # Two clerks cannot both bill it: change_state raises IllegalTransition when it is no longer pending.
        change_state(
            charge,
            to=S.BILLED,
            from_states={S.PENDING},
            by=by,
            reason=_bill_reason(due_on, payment_days),
            billed_on=today,
            due_on=due_on,
        )
        notify_owner(
            charge.parcel,
            template="special_charge_bill",
            context={"charge": charge, "parcel": charge.parcel},
            record=charge,
        )
    return charge


def charges_for_work(work_record) -> QuerySet[SpecialCharge]:
    return SpecialCharge.objects.filter(
        work_content_type=ContentType.objects.get_for_model(work_record), work_object_id=work_record.pk
    )


def record_hearing(
    *,
    hearing_on: date,
    published_on: date,
    mailed_on: date,
    charges,
    by,
    place: str = "",
    notes: str = "",
    today: date | None = None,
) -> ChargeHearing:
    """Record the Board's § 66.0627(3)(b) hearing on the charges it covered."""
    require_role(by, Role.CLERK, action="record Board hearings (the Clerk-Treasurer records them)")
    errors = []
    if published_on > hearing_on:
        message = "The notice cannot be published after the hearing (Wis. Stat. § 66.0627(3)(b))."
        errors.append(Violation("published_on", "published_after_hearing", "Wis. Stat. § 66.0627(3)(b)", message))
    if mailed_on > hearing_on:
        message = "The notice cannot be mailed after the hearing (Wis. Stat. § 66.0627(3)(b))."
        errors.append(Violation("mailed_on", "mailed_after_hearing", "Wis. Stat. § 66.0627(3)(b)", message))
    charges = list(charges)
    for charge in charges:
        if charge_rules.needs_assessment_proceeding(charge.route):
            message = (
                f"{charge.number} is a special assessment: its hearing is on the Wis. Stat. § 66.0703 route "
                "(§ 303-3B(2)), not a special-charge hearing."
            )
            errors.append(Violation("charges", "special_assessment", "Wis. Stat. § 66.0703", message))
    raise_if_broken(errors)
    with transaction.atomic():
        hearing = ChargeHearing.objects.create(
            hearing_on=hearing_on,
            published_on=published_on,
            mailed_on=mailed_on,
            place=place,
            notes=notes,
            recorded_by=by,
        )
        hearing.charges.set(list(charges))
        # § 66.0627(3)(b): a hearing already held with timely notices lets its pending charges be billed now.
        bill_charges_after_hearings(today=today or timezone.localdate(), by=by, charges=hearing.charges.all())
    return hearing


def bill_charges_after_hearings(*, today: date | None = None, by=None, charges=None) -> tuple[int, int]:
    """Wis. Stat. § 66.0627(3)(b): bill every pending charge that needed a hearing and is now covered by a held one with
    timely notices (the nightly job, and record_hearing for the charges it covers). Idempotent. Returns
    (items_total, items_done)."""
    today = today or timezone.localdate()
    if charges is None:
        charges = SpecialCharge.objects.all()
    candidates = list(
        charges.filter(status=S.PENDING)
        .filter(Q(source__in=charge_rules.SOURCES_NEEDING_HEARING) | Q(route=charge_rules.SPECIAL_ASSESSMENT_ROUTE))
        .select_related("parcel")
        .prefetch_related("hearings")
        .order_by("pk")
    )
    prefetch_assessments(candidates)
    due = [charge for charge in candidates if not hearing_errors_for(charge, today)]
    # Set-based, as bill_charge() bills one (the same due date and reason): a chunk at a time, the charges
    # still pending are moved by one conditional UPDATE per due date (billed meanwhile by a clerk: left alone), their
    # state changes and the owners' bills inserted in one statement each.
    done = 0
    payment_days = payment_days_in_force(today) if due else 0
    for start in range(0, len(due), CHARGE_CHUNK):
        groups: dict[date | None, dict] = {}
        for charge in due[start : start + CHARGE_CHUNK]:
            groups.setdefault(_bill_due_on(charge, today, payment_days), {})[charge.pk] = charge
        with transaction.atomic():
            billed = []
            for due_on, chunk in groups.items():
                moved = change_state_many(
                    SpecialCharge,
                    dict.fromkeys(chunk, _bill_reason(due_on, payment_days)),
                    to=S.BILLED,
                    from_states={S.PENDING},
                    by=by,
                    billed_on=today,
                    due_on=due_on,
                )
                for pk in moved:
                    charge = chunk[pk]
                    charge.status, charge.billed_on, charge.due_on = S.BILLED, today, due_on
                    billed.append(charge)
            billed.sort(key=lambda c: c.pk)
            notify_owners([(c.parcel, "special_charge_bill", {"charge": c, "parcel": c.parcel}, c) for c in billed])
        done += len(billed)
    return len(candidates), done


def hearing_errors_for(charge: SpecialCharge, today: date) -> list[str]:
    """Why `charge` may not be billed, fall due, go delinquent or reach the roll yet: a special assessment
    (§ 303-3B(2)) before the Board's final resolution after its noticed hearing (Wis. Stat. § 66.0703); a
    sidewalk-repair special charge before its § 66.0627(3)(b) hearing. [] when nothing holds it back."""
    if charge_rules.needs_assessment_proceeding(charge.route):
        return _gate_errors(charge, [], [_proceeding_facts(p) for p in charge.assessment_proceedings.all()], today)
    hearings = [(h.hearing_on, h.published_on, h.mailed_on) for h in charge.hearings.all()]
    return _gate_errors(charge, hearings, [], today)


def prefetch_assessments(charges: list[SpecialCharge]) -> None:
    """Fetch, in one query, the § 66.0703 proceedings hearing_errors_for reads of the special assessments among
    `charges` (none: no query)."""
    from django.db.models import Prefetch, prefetch_related_objects

    from permits.ledger.models import AssessmentProceeding

    assessed = [c for c in charges if charge_rules.needs_assessment_proceeding(c.route)]
    if assessed:
        proceedings = AssessmentProceeding.objects.select_related(
            "preliminary_motion__item__meeting", "final_motion__item__meeting"
        )
        prefetch_related_objects(assessed, Prefetch("assessment_proceedings", queryset=proceedings))


def _gate_errors(charge: SpecialCharge, hearings: list, proceedings: list[dict], today: date) -> list[str]:
    if charge_rules.needs_assessment_proceeding(charge.route):
        return charge_rules.levy_errors(proceedings, today)
    return charge_rules.certification_errors(charge.source, hearings, today)


def _proceeding_facts(proceeding) -> dict:
    """What the § 66.0703 rules read of a proceeding (permits.ledger.rules.levy_errors)."""
    preliminary, final = proceeding.preliminary_motion, proceeding.final_motion
    return {
        "preliminary_on": preliminary.held_on if preliminary else None,
        "report_filed_on": proceeding.report_filed_on,
        "published_on": proceeding.published_on,
        "mailed_on": proceeding.mailed_on,
        "hearing_on": proceeding.hearing_on,
        "final_on": final.held_on if final else None,
    }


def record_charge_payment(
    *, charge: SpecialCharge, amount, method: str, reference: str = "", by, today: date | None = None
) -> ChargePayment:
    """The Clerk-Treasurer receives the full balance (§ 66.0627(2): no installments) and issues receipt RC-YYYY-NNNN.
    Paid before the roll is certified, the charge leaves the draft roll; paid after, it is "paid on roll"."""
    require_role(by, Role.CLERK, action="record payments of special charges (the Clerk-Treasurer records them)")
    today = today or timezone.localdate()
    try:
        amount = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        raise RulesBroken.one("amount", "not_a_number", "", "The amount must be a number of dollars.") from None
    now = timezone.now()
    with transaction.atomic():
        # Money is recorded once (Wis. Stat. § 66.0627(2)): lock the charge's row, then decide on the charge as it is
        # now, so simultaneous payments are decided one after the other and the later ones find nothing due.
        SpecialCharge.objects.select_for_update().filter(pk=charge.pk).values_list("pk", flat=True).first()
        charge.refresh_from_db()
        errors = []
        if not charge.is_open or charge.status == S.PENDING:
            message = f"Charge {charge.number} is {charge.get_status_display().lower()}: nothing is due."
            receipt = charge.payments.values_list("receipt_number", flat=True).first()
            if receipt:
                message += f" It was paid on receipt {receipt} (Wis. Stat. § 66.0627(2))."
            errors.append(Violation("amount", "nothing_due", "Wis. Stat. § 66.0627(2)", message))
        else:
            errors += charge_rules.payment_errors(amount, charge.balance_due)
        if method in {ChargePayment.Method.CHECK, ChargePayment.Method.CARD} and not reference.strip():
            message = "A check number or card reference is required for a check or card payment."
            errors.append(Violation("reference", "reference_required", "", message))
        raise_if_broken(errors)
        on_roll = charge.status in {S.CERTIFIED, S.ON_ROLL}
        receipt_number = next_number("RC", today.year)
        # A clerk and the nightly job (or two clerks) cannot both move it: IllegalTransition if it changed meanwhile.
        change_state(
            charge,
            to=S.PAID_ON_ROLL if on_roll else S.PAID,
            from_states={S.CERTIFIED, S.ON_ROLL} if on_roll else {S.BILLED, S.DELINQUENT},
            by=by,
            reason=(
                f"Paid in full{' on the tax roll' if on_roll else ''}: ${amount:.2f}, receipt {receipt_number} "
                "(Wis. Stat. § 66.0627(2))"
            ),
            paid_on=today,
        )
        if not on_roll:
            # Paid before certification: off the draft roll (a certified roll is never touched).
            TaxRollLine.objects.filter(charge=charge, batch__state="draft").delete()
        payment = ChargePayment.objects.create(
            charge=charge,
            amount=amount,
            method=method,
            reference=reference.strip(),
            receipt_number=receipt_number,
            received_by=by,
            received_at=now,
        )
    return payment


def mark_delinquent_charges(*, today: date | None = None) -> tuple[int, int]:
    """§ 66.0627(4): every billed charge unpaid after its due date becomes delinquent (a lien as of that date), and
    the owner of record is told, where an email is known, that it goes on the tax roll. Idempotent: a second run
    finds nothing to do. Returns (items_total, items_done)."""
    today = today or timezone.localdate()
    candidates = list(
        SpecialCharge.objects.filter(status=S.BILLED, due_on__lt=today)
        .select_related("parcel")
        .prefetch_related("hearings")
        .order_by("pk")
    )
    prefetch_assessments(candidates)
    due = [
        charge
        for charge in candidates
        if charge_rules.is_delinquent(charge.due_on, today)
        # § 66.0627(3)(b): billed before its hearing (older records): it never goes delinquent
        and not hearing_errors_for(charge, today)
    ]
    # Set-based (not statements per charge): a chunk at a time, the charges still billed are moved
    # by one conditional UPDATE (paid, or moved, since the job read them: left alone), their state changes and
    # notices inserted in one statement each. The day after the due date is the day it became delinquent.
    done = 0
    for start in range(0, len(due), CHARGE_CHUNK):
        chunk = {charge.pk: charge for charge in due[start : start + CHARGE_CHUNK]}
        with transaction.atomic():
            moved = change_state_many(
                SpecialCharge,
                {
                    pk: f"Delinquent: unpaid after {c.due_on:%B %-d, %Y} (Wis. Stat. § 66.0627(4))"
                    for pk, c in chunk.items()
                },
                to=S.DELINQUENT,
                from_states={S.BILLED},
                by=None,
                delinquent_on=F("due_on") + timedelta(days=1),
            )
            charges = [chunk[pk] for pk in moved]
            for charge in charges:
                charge.status, charge.delinquent_on = S.DELINQUENT, charge.due_on + timedelta(days=1)
            notify_owners(
                [(c.parcel, "special_charge_delinquent", {"charge": c, "parcel": c.parcel}, c) for c in charges]
            )
        done += len(moved)
    return len(candidates), done
