"""Snow and ice (§ 303-8) and rubbish (§ 303-2): the DPW's records and the Village's work, billed through the
special-charge ledger (permits.ledger.services.add_charge)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.fees import FeeNotConfigured, fee_in_force
from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge
from permits.letters import notices_about
from permits.models import Parcel, Street
from permits.roles import Role, is_village_staff
from permits.services import next_number, notify_owner, send_notice
from permits.state import change_state
from sidewalks.models import RubbishCase, SnowCase, Snowfall
from sidewalks.snow import rules as snow_rules

DPW_ROLES = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)


def find_parcel(address: str) -> Parcel | None:
    """The parcel at a typed address (case and spacing ignored), if exactly one matches."""
    normalized = " ".join(address.split())
    matches = list(Parcel.objects.filter(site_address__iexact=normalized)[:2])
    return matches[0] if len(matches) == 1 else None


def match_address(address: str) -> tuple[Parcel | None, Street | None]:
    """§ 303-8A: the parcel (from the parcel roll) or the street (from the street register) a report is about.

    An address on the roll is its parcel. Otherwise a street of the register with no lot of the roll at the number
    typed is the walk along that street (no owner yet: DPW staff match it to a parcel or dismiss it); a number the
    roll lacks on a street that has lots on the roll, or a street the register lacks, is refused with the closest
    addresses or street names (RulesBroken on "address"), and nothing is stored."""
    parcel = find_parcel(address)
    if parcel is not None:
        return parcel, parcel.street
    number, street_name = snow_rules.split_address(address)
    street = Street.objects.filter(name__iexact=street_name).first()
    on_street = [
        a
        for a in Parcel.objects.filter(site_address__iendswith=f" {street_name}").values_list("site_address", flat=True)
        if snow_rules.split_address(a)[1].lower() == street_name.lower()
    ]
    if on_street and number is not None:
        suggestions = snow_rules.closest_addresses(number, on_street)
        raise RulesBroken([snow_rules.unknown_address_violation(address, suggestions, on_street=True)])
    if street is not None:
        return None, street
    if on_street:  # a street named on the roll only, without a number: the closest lots on it
        raise RulesBroken([snow_rules.unknown_address_violation(address, sorted(on_street)[:3], on_street=True)])
    suggestions = snow_rules.close_street_names(street_name, list(Street.objects.values_list("name", flat=True)))
    raise RulesBroken([snow_rules.unknown_address_violation(address, suggestions, on_street=False)])


def snowfall_at(at: datetime) -> Snowfall | None:
    """The latest snowfall that had stopped by `at`: the one an uncleared walk reported at `at` is about."""
    return Snowfall.objects.filter(stopped_at__lte=at).order_by("-stopped_at").first()


def clock_snowfall(case: SnowCase, at: datetime, *, latest: Snowfall | None = None) -> Snowfall | None:
    """§ 303-8A: the snowfall the owner's 24 hours run from at `at`: the case's own, or a later one that had stopped by
    then (it restarts them). `latest`, the latest snowfall stopped by `at`, may be passed in by a list page that read it
    once for every case."""
    if case.snowfall_id is None:
        return None
    if latest is None:
        latest = snowfall_at(at)
    start = snow_rules.clock_start(case.snowfall.stopped_at, latest.stopped_at if latest else None)
    return latest if latest is not None and start == latest.stopped_at else case.snowfall


# --- Snow and ice (§ 303-8) -------------------------------------------------------------------------------------


def record_snowfall(*, stopped_at: datetime, by, inches=None, notes: str = "") -> Snowfall:
    """§ 303-8A: the DPW records when the snow ceased to fall; the owners' 24 hours run from then."""
    require_role(by, *DPW_ROLES, action="record snowfalls (DPW does, § 303-8A)")
    if stopped_at > timezone.now():
        message = "The time the snow stopped cannot be in the future (§ 303-8A)."
        raise RulesBroken.one("stopped_at", "in_future", "§ 303-8A", message)
    return Snowfall.objects.create(stopped_at=stopped_at, inches=inches, notes=notes, recorded_by=by)


def report_snow_case(
    *,
    address: str,
    by=None,
    parcel: Parcel | None = None,
    details: str = "",
    contact: str = "",
    at: datetime | None = None,
    unoccupied: bool = False,
) -> SnowCase:
    """A report of an uncleared walk (§ 303-8A), by staff (`by`) or by the public (`by=None`, the public form).

    A second report of a walk already open for the same snowfall returns the open case (one case, one charge). The
    owner of record is given written notice (emailed where an email is known) when the case is opened (§ 303-8B),
    except for an unoccupied lot or abandoned property, which DPW staff may flag (`unoccupied=True`) when they open
    the case: no written notice need be given for it (§ 303-8B). The crew waits the 24 hours either way.

    The address must be of the Village (match_address): one that is not is refused with suggestions, nothing stored.
    The case gets an unguessable follow token: the reporter's link to its status page (no owner's data on it)."""
    if unoccupied:
        require_role(by, *DPW_ROLES, action="flag a lot as unoccupied or abandoned (DPW does, § 303-8B)")
    at = at or timezone.now()
    address = " ".join(address.split())
    if not address:
        raise RulesBroken.one("address", "address_required", "§ 303-8A", "Give the address of the uncleared sidewalk.")
    staff = by is not None and is_village_staff(by)
    street = parcel.street if parcel is not None else None
    if parcel is None:
        parcel, street = match_address(address)
    snowfall = snowfall_at(at)
    if parcel is not None:
        # One open case per walk: a report after a later snowfall is the same uncleared walk, whose 24 hours that
        # snowfall restarted (§ 303-8A); a second case would bill one clearing twice.
        existing = SnowCase.objects.filter(parcel=parcel, status=SnowCase.Status.OPEN).first()
        if existing is not None:
            return existing
    with transaction.atomic():
        case = SnowCase.objects.create(
            number=next_number("SN", timezone.localdate(at).year),
            snowfall=snowfall,
            parcel=parcel,
            reported_address=parcel.site_address if parcel else address,
            details=details.strip(),
            reported_via=SnowCase.ReportedVia.STAFF if staff else SnowCase.ReportedVia.PUBLIC,
            reported_by=by if by is not None and by.is_authenticated else None,
            reporter_contact=contact.strip(),
            reported_at=at,
            unoccupied=unoccupied,
            street=street,
            follow_token=secrets.token_urlsafe(24),
        )
        if parcel is not None:
            _notify_owner(case)
    return case


def _notify_owner(case: SnowCase) -> None:
    """§ 303-8B: the written notice to the owner, unless the lot is unoccupied or abandoned (or already noticed).
    Emailed where an email is on file: given now. Otherwise a letter for the Clerk-Treasurer to mail: the notice is
    "not yet given" (owner_notified_at stays empty, the crew may not clear) until the mailing is recorded."""
    if not snow_rules.written_notice_required(case.unoccupied) or case.owner_notified_at is not None:
        return
    if notices_about(case).filter(template="snow_case_notice").exists():
        return  # a letter is already waiting to be mailed
    parcel = case.parcel
    deadline = snow_rules.owner_clearing_deadline(case.snowfall.stopped_at) if case.snowfall else None
    notice = notify_owner(
        parcel,
        template="snow_case_notice",
        context={
            "case": case,
            "parcel": parcel,
            "deadline": deadline,
            "walks": snow_rules.walks_owner_must_clear(parcel.corner_lot, parcel.crosswalk_adjacent),
        },
        record=case,
    )
    if notice is not None and notice.is_given:  # emailed: sidewalks.notice_clocks stamped the case
        case.owner_notified_at = SnowCase.objects.values_list("owner_notified_at", flat=True).get(pk=case.pk)


def set_unoccupied(*, case: SnowCase, by, unoccupied: bool) -> SnowCase:
    """§ 303-8B: DPW staff, assessing an open case, record whether the lot is unoccupied or abandoned. Flagged, no
    written notice need be given; unflagged again before any notice went out, the owner is given it now."""
    require_role(by, *DPW_ROLES, action="flag a lot as unoccupied or abandoned (DPW does, § 303-8B)")
    with transaction.atomic():
        if SnowCase.objects.filter(pk=case.pk, status=SnowCase.Status.OPEN).update(unoccupied=unoccupied) != 1:
            raise RulesBroken.one("unoccupied", "case_not_open", "§ 303-8B", f"Case {case.number} is no longer open.")
        case.refresh_from_db()
        if case.parcel_id is not None:
            _notify_owner(case)
    return case


def assign_case(*, case: SnowCase, by, parcel: Parcel | None = None, snowfall: Snowfall | None = None) -> SnowCase:
    """Staff match a report to its parcel and snowfall when the form's address did not match exactly."""
    require_role(by, *DPW_ROLES, action="assign snow cases (DPW does)")
    fields = {}
    if parcel is not None:
        fields.update(parcel=parcel, reported_address=parcel.site_address, street=parcel.street)
    if snowfall is not None:
        fields["snowfall"] = snowfall
    had_parcel = case.parcel_id is not None
    with transaction.atomic():
        SnowCase.objects.filter(pk=case.pk, status=SnowCase.Status.OPEN).update(**fields)
        case.refresh_from_db()
        if parcel is not None and not had_parcel:
            _notify_owner(case)
    return case


def close_snow_case(*, case: SnowCase, by, status: str, at: datetime | None = None, notes: str = "") -> SnowCase:
    """The walk was found cleared by the owner, or the report dismissed: no charge."""
    require_role(by, *DPW_ROLES, action="close snow cases (DPW does)")
    if status not in {SnowCase.Status.OWNER_CLEARED, SnowCase.Status.DISMISSED}:
        raise RulesBroken.one("status", "close_status", "", "Close a case as cleared by the owner or dismissed.")
    at = at or timezone.now()
    why = "Cleared by the owner (§ 303-8A): no charge" if status == SnowCase.Status.OWNER_CLEARED else "Dismissed"
    return change_state(
        case,
        to=status,
        from_states={SnowCase.Status.OPEN},
        by=by,
        reason=f"{why}. Crew notes: {notes.strip()}" if notes.strip() else why,
        cleared_at=at,
        cleared_by=by,
        crew_notes=notes,
    )


def log_village_clearing(*, case: SnowCase, by, at: datetime | None = None, notes: str = "") -> SpecialCharge:
    """§ 303-8B: the crew cleared the walk, no sooner than 24 hours after the snow stopped; the cost from the fee
    schedule (Chapter 167, code snow_removal) becomes a special charge on the parcel (Wis. Stat. § 66.0627)."""
    require_role(by, *DPW_ROLES, action="log Village snow clearing (DPW does, § 303-8B)")
    at = at or timezone.now()
    if case.snowfall_id is None:
        # The snowfall may have been recorded after the report came in: the one that had stopped by then.
        case.snowfall = snowfall_at(case.reported_at)
    errors: list[Violation] = []
    if case.parcel_id is None:
        message = "Match the report to a parcel first: the charge is levied against it."
        errors.append(Violation("parcel", "no_parcel", "Wis. Stat. § 66.0627", message))
    # § 303-8A, § 303-8B: the 24 hours run from the snowfall the case is about, restarted by a later one.
    running = clock_snowfall(case, at) if case.snowfall_id else None
    stopped = running.stopped_at if running else None
    rule_errors = snow_rules.village_clearing_errors(stopped, at)
    if rule_errors and running is not None and running.pk != case.snowfall_id:
        restarted = (
            f"A later snowfall stopped at {timezone.localtime(stopped):%B %-d, %Y %-I:%M %p} and restarted the "
            "owner's 24 hours (§ 303-8A). "
        )
        rule_errors = [replace(rule_errors[0], message=restarted + rule_errors[0].message)]
    errors += rule_errors
    if case.status != SnowCase.Status.OPEN:
        message = f"Case {case.number} is {case.get_status_display().lower()}."
        errors.append(Violation("status", "case_not_open", "§ 303-8B", message))
    if (
        case.parcel_id is not None
        and snow_rules.written_notice_required(case.unoccupied)
        and case.owner_notified_at is None
    ):
        message = (
            "The owner has not been given written notice yet: the letter is waiting to be mailed by the "
            "Clerk-Treasurer. The Village clears only after written notice is given (§ 303-8B)."
        )
        errors.append(Violation("at", "no_written_notice", "§ 303-8B", message))
    day = timezone.localdate(at)
    try:
        fee = fee_in_force("snow_removal", day)
    except FeeNotConfigured as exc:
        errors.append(
            exc.violation("§ 303-8B", field="at", note="§ 303-8B: the cost is as prescribed in Chapter 167, Fees")
        )
    raise_if_broken(errors)
    with transaction.atomic():  # IllegalTransition if another crew logged it meanwhile: one case, one charge
        change_state(
            case,
            to=SnowCase.Status.VILLAGE_CLEARED,
            from_states={SnowCase.Status.OPEN},
            by=by,
            reason=(
                f"Cleared by the Village (§ 303-8B) on {timezone.localtime(at):%B %-d, %Y %-I:%M %p}, after the "
                "owner's 24 hours (§ 303-8A); the cost is a special charge (Wis. Stat. § 66.0627)"
            ),
            cleared_at=at,
            cleared_by=by,
            crew_notes=notes,
            snowfall=case.snowfall,
        )
        return _charge_village_removal(
            case,
            what="Snow and ice",
            source=SpecialCharge.Source.SNOW_ICE,
            amount=fee.amount,
            day=day,
            citation="§ 303-8B",
            by=by,
        )


def _charge_village_removal(case, *, what: str, source, amount, day: date, citation: str, by) -> SpecialCharge:
    """§ 303-8B, § 303-2: what the Village removed from the sidewalk is a special charge on the parcel (Wis. Stat.
    § 66.0627), incurred on the day it was removed."""
    return add_charge(
        parcel=case.parcel,
        source=source,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=amount,
        incurred_on=day,
        description=f"{what} removed from the sidewalk by the Village on {day:%B %-d, %Y} (case {case.number})",
        citation=citation,
        work_record=case,
        by=by,
        today=day,
    )


# --- Rubbish and dirt (§ 303-2) ---------------------------------------------------------------------------------

# § 303-2: the owner is "notified to do so by the Village Board or its designee": whoever a carried Board motion
# designated for § 303-2 on the day served (permits.board.services.may_act_for), never a fixed list of roles.
# Village staff who close a case once the owner removed it (no notice, no charge):
RUBBISH_STAFF = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.CLERK)


def may_serve_rubbish_notice(user, *, on) -> bool:
    """§ 303-2: the Board's designee for § 303-2 on `on`."""
    return board.may_act_for(user, Clause.RUBBISH, on=on)


def serve_rubbish_notice(
    *,
    parcel: Parcel,
    description: str,
    served_to: str,
    served_method: str,
    by,
    served_at: datetime | None = None,
    deadline_at: datetime | None = None,
) -> RubbishCase:
    """§ 303-2: the owner or occupant is notified to remove rubbish or dirt from the sidewalk by a deadline."""
    served_at = served_at or timezone.now()
    board.require_board_or_designee(
        by, Clause.RUBBISH, on=timezone.localdate(served_at), action="serve rubbish notices"
    )
    deadline_at = deadline_at or snow_rules.rubbish_default_deadline(served_at)
    errors = snow_rules.rubbish_notice_errors(served_at, deadline_at)
    if not description.strip():
        errors.append(Violation("description", "required", "§ 303-2", "Describe the rubbish or dirt to be removed."))
    if not served_to.strip():
        errors.append(Violation("served_to", "required", "§ 303-2", "Name the owner or occupant notified."))
    raise_if_broken(errors)
    with transaction.atomic():
        case = RubbishCase.objects.create(
            number=next_number("RB", timezone.localdate(served_at).year),
            parcel=parcel,
            description=description.strip(),
            served_to=served_to.strip(),
            served_method=served_method.strip(),
            served_at=served_at,
            deadline_at=deadline_at,
            created_by=by,
        )
        send_notice(None, to=parcel.owner_email, template="rubbish_notice", context={"case": case, "parcel": parcel})
    return case


def record_rubbish_removed_by_owner(*, case: RubbishCase, by, at: datetime | None = None) -> RubbishCase:
    """§ 303-2: the owner or occupant removed it; no charge. IllegalTransition when the case is already closed."""
    require_role(by, *RUBBISH_STAFF, action="close rubbish cases (Village staff do)")
    return change_state(
        case,
        to=RubbishCase.Status.OWNER_REMOVED,
        from_states={RubbishCase.Status.NOTICED},
        by=by,
        reason="Removed by the owner or occupant: no charge (§ 303-2)",
        removed_at=at or timezone.now(),
    )


def log_rubbish_removal(*, case: RubbishCase, cost, by, at: datetime | None = None) -> SpecialCharge:
    """§ 303-2: after the deadline the Village removes the rubbish and reports the cost to the Clerk-Treasurer, who
    spreads it on the tax roll as a special charge (Wis. Stat. § 66.0627)."""
    require_role(by, *DPW_ROLES, action="log Village rubbish removal (DPW does, § 303-2)")
    at = at or timezone.now()
    errors = []
    try:
        cost = Decimal(str(cost)).quantize(Decimal("0.01"))
        if cost < 0:
            errors.append(Violation("cost", "negative_cost", "", "The cost cannot be negative."))
    except (InvalidOperation, ValueError):
        errors.append(Violation("cost", "not_a_number", "", "The cost must be a number of dollars."))
    if not snow_rules.village_may_remove_rubbish(case.deadline_at, at):
        message = (
            f"The owner or occupant has until {timezone.localtime(case.deadline_at):%B %-d, %Y %-I:%M %p} to remove "
            "it: the Village removes rubbish only after the notice's deadline (§ 303-2)."
        )
        errors.append(Violation("at", "before_deadline", "§ 303-2", message))
    if case.status != RubbishCase.Status.NOTICED:
        message = f"Case {case.number} is {case.get_status_display().lower()}."
        errors.append(Violation("status", "case_not_open", "§ 303-2", message))
    raise_if_broken(errors)
    day = timezone.localdate(at)
    with transaction.atomic():  # IllegalTransition if it was closed meanwhile: one case, one charge
        change_state(
            case,
            to=RubbishCase.Status.VILLAGE_REMOVED,
            from_states={RubbishCase.Status.NOTICED},
            by=by,
            reason=(
                f"Removed by the Village after the notice's deadline at a cost of ${cost} (§ 303-2); the cost is a "
                "special charge (Wis. Stat. § 66.0627)"
            ),
            removed_at=at,
            removal_cost=cost,
        )
        return _charge_village_removal(
            case,
            what="Rubbish or dirt",
            source=SpecialCharge.Source.RUBBISH,
            amount=cost,
            day=day,
            citation="§ 303-2",
            by=by,
        )
