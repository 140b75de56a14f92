"""The verbs of the enforcement cases and street numbers: the one path for the pages, the admin, the jobs and the shell.

Every verb takes keyword arguments, checks who may act, runs the section's rule (obstructions.rules) and changes the
case's status only through permits.state.change_state (the one audited helper: who, when, from, to, why). The Village's
removal of an obstruction is billed through the core ledger (permits.ledger.services.add_charge, § 303-6F).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from obstructions import materials, rules
from obstructions.models import Case, CaseStep, StreetNumber
from permits import time as law_time
from permits.access import require_role
from permits.errors import RulesBroken, Violation, raise_if_broken, violations_of
from permits.ledger.models import SpecialCharge
from permits.ledger.services import add_charge
from permits.models import Parcel, Permit
from permits.roles import Role, has_role
from permits.services import next_number, send_notice
from permits.state import actor_label, change_state
from permits.uploads import inspect_upload

K, S = Case.Kind, Case.Status
# § 303-6D/E, § 303-6F(1): "any Village enforcement official": the DPW, its inspectors, the Building Inspector (who
# also authorizes building materials, § 303-6B(2)) and the police. The same officials work §§ 303-9, 303-12, 303-13.
ENFORCEMENT_ROLES = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR, Role.POLICE_CHIEF)
# § 303-14A: only the Clerk-Treasurer assigns official numbers; § 303-14C "the Village shall serve": the clerk or an
# enforcement official works the neglect cases.
NUMBER_CASE_ROLES = (Role.CLERK, *ENFORCEMENT_ROLES)
CASE_PREFIX = "EC"
OBSTRUCTIONS = frozenset({K.OBSTRUCTION_SIDEWALK, K.OBSTRUCTION_STREET})
# §§ 303-9, 303-12, 303-13 set no period: the official gives one in the notice (7 days unless he chooses otherwise).
DEFAULT_NOTICE_DAYS = 7


def roles_for(kind: str) -> tuple[str, ...]:
    return NUMBER_CASE_ROLES if kind == K.STREET_NUMBER else ENFORCEMENT_ROLES


def may_work(user, kind: str) -> bool:
    return has_role(user, *roles_for(kind))


def _require_case_role(user, kind: str, action: str) -> None:
    who = (
        "the Clerk-Treasurer or a Village enforcement official"
        if kind == K.STREET_NUMBER
        else ("a Village enforcement official (DPW, Building Inspector, police)")
    )
    require_role(user, *roles_for(kind), action=f"{action} ({who} does, {rules_section(kind)})")


def rules_section(kind: str) -> str:
    from obstructions.models import SECTIONS

    return SECTIONS[kind]


def find_parcel(address: str) -> Parcel | None:
    """The parcel at a typed address (case and spacing ignored), if exactly one matches."""
    normalized = " ".join(address.split())
    matches = list(Parcel.objects.filter(site_address__iexact=normalized)[:2])
    return matches[0] if len(matches) == 1 else None


def _step(case: Case, *, kind: str, by, note: str = "", at: datetime | None = None, **fields) -> CaseStep:
    return CaseStep.objects.create(
        case=case, kind=kind, at=at or timezone.now(), by=by, by_label=actor_label(by), note=note[:500], **fields
    )


# --- What the section says about the findings -------------------------------------------------------------------


def findings_violations(*, kind: str, parcel: Parcel | None, day: date, findings: dict) -> list:
    """What the case's findings break (none: excepted or no violation), read from the section's rules."""
    if kind in OBSTRUCTIONS:
        number = (findings.get("excepting_permit") or "").strip()
        if number:
            return _permit_exception(number, parcel, day)
        if kind == K.OBSTRUCTION_SIDEWALK and findings.get("is_fixture"):
            return rules.fixture_errors(
                commercial_area=parcel is not None and parcel.land_use == Parcel.LandUse.COMMERCIAL,
                attached=bool(findings.get("attached")),
                temporary_design=bool(findings.get("temporary_design")),
                clear_width_feet=findings.get("clear_width_feet"),
            )
        return [_obstruction(kind)]
    if kind == K.TERRACE:
        # § 303-9B: "specifically approved by the Village Board or its designee": the register's record, not a finding.
        from obstructions.registers.services import terrace_approval_for

        approved = terrace_approval_for(parcel, day) is not None
        return rules.terrace_errors(findings.get("detail", ""), area_approved=approved)
    if kind == K.DUMPING:
        return rules.dumping_errors(findings.get("detail", ""), permission_from=findings.get("permission_from", ""))
    if kind == K.DRAINAGE:
        return rules.drainage_errors(
            findings.get("detail", ""), blocked=bool(findings.get("blocked", True)), likely_carried=False
        )
    display = findings.get("display")
    if display:
        return rules.number_display_errors(**display)
    return [
        rules.Violation(
            "what", "number_neglected", "§ 303-14C", "The official number is not displayed on the building (§ 303-14B)."
        )
    ]


def _obstruction(kind: str):
    return rules.Violation(
        "what",
        "obstructed",
        "§ 303-6A",
        "The public way is obstructed or encumbered and no permit or standard excepts it (§ 303-6A).",
    )


def _permit_exception(number: str, parcel: Parcel | None, day: date) -> list:
    """§ 303-6B: the permit or authorization the official names. The Building Inspector's materials authorization
    (§ 303-6B(2)) excepts only for its dates; a street privilege permit (§ 303-6B(1), whatever its purpose) or a street
    opening permit (§ 303-6B(3)) while it is in force."""
    authorized = materials.authorization_exception(number=number, parcel=parcel, day=day)
    if authorized is not None:
        return authorized
    permit = Permit.objects.filter(number=number).first()
    if permit is None:
        message = f"No permit numbered {number!r} (§ 303-6B)."
        raise RulesBroken.one("excepting_permit", "unknown_permit", "§ 303-6B", message)
    return rules.permit_exception_errors(
        permit_kind=permit.kind,
        permit_status=permit.status,
        issued_on=permit.issued_on,
        expires_on=permit.expires_on,
        day=day,
        number=number,
    )


# --- Opening a case ------------------------------------------------------------------------------------------------


def open_case(
    *,
    kind: str,
    address: str,
    what: str,
    seen_at: datetime,
    by,
    where: str = "",
    parcel: Parcel | None = None,
    photos=(),
    excepting_permit: str = "",
    is_fixture: bool = False,
    attached: bool = False,
    temporary_design: bool = True,
    clear_width_feet=None,
    detail: str = "",
    permission_from: str = "",
    permission_note: str = "",
    neglect_recorded_on: date | None = None,
    display: dict | None = None,
    now: datetime | None = None,
) -> Case:
    """An enforcement official opens a case on what he saw. When the section's exceptions cover it (a permit,
    § 303-6B; a fixture meeting § 303-6C; an approved terrace area, § 303-9B; recorded permission, § 303-12), the case
    is recorded and closed as excepted, with why."""
    _require_case_role(by, kind, "open enforcement cases")
    now = now or timezone.now()
    errors = []
    if kind not in K.values:
        errors.append(Violation("kind", "unknown_kind", "", "Choose the kind of case."))
    if not what.strip():
        errors.append(Violation("what", "required", "", "Say what was seen: it is printed on the notice."))
    if seen_at is None or seen_at > now:
        errors.append(Violation("seen_at", "in_future", "", "When it was seen cannot be in the future."))
    parcel = parcel or find_parcel(address)
    if parcel is None:
        message = "No single parcel has this address: type it as on the tax roll (e.g. 102 Highland Avenue)."
        errors.append(Violation("address", "unknown_parcel", "", message))
    if kind == K.STREET_NUMBER and neglect_recorded_on is None:
        message = "Record the day the neglect was first seen (§ 303-14C)."
        errors.append(Violation("neglect_recorded_on", "required", "§ 303-14C", message))
    if permission_from and permission_from not in {rules.OWNER, rules.OCCUPANT}:
        message = "Permission is given by the owner or the occupant (§ 303-12)."
        errors.append(Violation("permission_from", "not_owner_or_occupant", "§ 303-12", message))
    if clear_width_feet is not None:
        try:
            clear_width_feet = Decimal(str(clear_width_feet)).quantize(Decimal("0.1"))
        except InvalidOperation:
            errors.append(Violation("clear_width_feet", "not_a_number", "", "Give the clear width in feet, like 3.5."))
    raise_if_broken(errors)
    findings = dict(
        excepting_permit=excepting_permit,
        is_fixture=is_fixture,
        attached=attached,
        temporary_design=temporary_design,
        clear_width_feet=clear_width_feet,
        detail=detail,
        permission_from=permission_from,
        display=display if kind == K.STREET_NUMBER else None,
    )
    day = timezone.localdate(seen_at)
    with transaction.atomic():
        violations = findings_violations(kind=kind, parcel=parcel, day=day, findings=findings)
        case = Case.objects.create(
            number=next_number(CASE_PREFIX, timezone.localdate(now).year),
            kind=kind,
            parcel=parcel,
            reported_address=parcel.site_address,
            what=what.strip(),
            where=where.strip(),
            seen_at=seen_at,
            opened_by=by,
            opened_at=now,
            excepting_permit=excepting_permit.strip(),
            clear_width_feet=clear_width_feet,
            detail=detail,
            permission_from=permission_from,
            permission_note=permission_note.strip(),
            neglect_recorded_on=neglect_recorded_on,
        )
        _step(case, kind=CaseStep.Kind.NOTE, by=by, at=now, note="Findings: " + _findings_text(violations))
        for photo in photos:
            add_photo(case=case, upload=photo, by=by)
        if not violations:
            change_state(
                case,
                to=S.EXCEPTED,
                from_states={S.OPEN},
                by=by,
                reason=f"No violation: {_exception_text(kind, findings)}",
                closed_at=now,
            )
    return case


def _findings_text(violations) -> str:
    if not violations:
        return "excepted, no violation."
    return " ".join(v.message for v in violations)


def _exception_text(kind: str, findings: dict) -> str:
    if findings.get("excepting_permit"):
        return f"excepted by permit {findings['excepting_permit']} (§ 303-6B)."
    if findings.get("is_fixture"):
        return "a sidewalk fixture meeting § 303-6C."
    if kind == K.TERRACE:
        return "an area approved by the Village Board or its designee, on the register of terrace approvals (§ 303-9B)."
    if kind == K.STREET_NUMBER:
        return "the number is displayed as § 303-14B requires."
    if kind == K.DUMPING:
        return f"left with the express permission of the {findings.get('permission_from')} (§ 303-12)."
    return "nothing the section forbids."


def report_case(*, address: str, what: str, where: str = "", contact: str = "", now: datetime | None = None) -> Case:
    """A member of the public complains through the form (no login): an open case the officials match and work. Its
    kind is a sidewalk or street obstruction until an official finds otherwise."""
    now = now or timezone.now()
    parcel = find_parcel(address)
    with transaction.atomic():
        case = Case.objects.create(
            number=next_number(CASE_PREFIX, timezone.localdate(now).year),
            kind=K.OBSTRUCTION_SIDEWALK,
            parcel=parcel,
            reported_address=" ".join(address.split())[:200],
            what=what.strip()[:500],
            where=where.strip()[:200],
            seen_at=now,
            via=Case.Via.PUBLIC,
            reporter_contact=contact.strip()[:200],
            opened_at=now,
        )
        _step(case, kind=CaseStep.Kind.NOTE, by=None, at=now, note="Complaint received through the public form.")
    return case


def add_photo(*, case: Case, upload, by, note: str = "") -> CaseStep:
    """A photo of what was seen (JPEG, PNG or PDF, checked by content: permits.uploads)."""
    _require_case_role(by, case.kind, "add photos to enforcement cases")
    try:
        content_type, _extension = inspect_upload(upload)
    except ValidationError as exc:  # the upload check's own refusal, put on the photo
        raise RulesBroken([replace(v, field="photo") for v in violations_of(exc)]) from None
    step = CaseStep(
        case=case,
        kind=CaseStep.Kind.PHOTO,
        at=timezone.now(),
        by=by,
        by_label=actor_label(by),
        note=note[:500],
        photo_type=content_type,
    )
    step.photo.save("photo", upload, save=False)
    step.save()
    return step


# --- The notice -------------------------------------------------------------------------------------------------------

# Served by the Village's own letter or email: served when that notice is given (permits.notices), not at a typed time.
SERVED_BY_THE_VILLAGES_NOTICE = frozenset({Case.ServedHow.MAIL, Case.ServedHow.EMAIL})


def _owner_email(case: Case) -> str:
    return case.parcel.owner_email if case.parcel_id else ""


def notice_deadline(case: Case, served_at: datetime, days: int | None) -> datetime:
    """The deadline the notice gives: 24 hours for an obstruction (§ 303-6D/E); for a street number, the end of the
    10th day after service (§ 303-14C); otherwise the days the official chose, to the end of the last day."""
    if case.kind in OBSTRUCTIONS:
        return rules.removal_deadline(served_at)
    served_on = timezone.localdate(served_at)
    if case.kind == K.STREET_NUMBER:
        first_late_day = rules.number_referral_from(served_on)
    else:
        # Wis. Stat. § 990.001(4): a last day on a Sunday or legal holiday moves to the next secular day.
        first_late_day = law_time.first_day_after(served_on, days or DEFAULT_NOTICE_DAYS)
    return timezone.make_aware(datetime.combine(first_late_day, time.min))


def serve_notice(
    *,
    case: Case,
    served_to: str,
    served_how: str,
    served_at: datetime | None = None,
    by,
    days: int | None = None,
    now: datetime | None = None,
) -> Case:
    """The written notice to the person the section names (§ 303-6D, § 303-6E, § 303-9C, § 303-14C), served how and
    when; its deadline runs from then. Handed over or posted, the official records when; mailed or emailed, the
    notice is the Village's own letter or email, and it is served only when that is given (permits.notices: the
    email sent, the letter recorded as mailed and presumed received): no typed time starts the deadline
    (obstructions.notice_clocks). Handed over or posted, a copy goes to the owner of record."""
    _require_case_role(by, case.kind, "serve enforcement notices")
    now = now or timezone.now()
    by_system = served_how in SERVED_BY_THE_VILLAGES_NOTICE
    if by_system:
        served_at = None
    violations = rules.recipient_errors(case.kind, served_to, case.section)
    if case.kind == K.STREET_NUMBER:
        violations += rules.number_notice_errors(case.neglect_recorded_on, timezone.localdate(served_at or now))
    errors = []
    if case.parcel_id is None:
        message = "Match the case to a parcel first: the notice goes to its owner or occupant."
        errors.append(Violation("served_to", "no_parcel", case.section, f"{message} ({case.section})"))
    if served_how not in Case.ServedHow.values:
        errors.append(
            Violation("served_how", "required", case.section, f"Say how the notice was served ({case.section}).")
        )
    if by_system:
        if served_how == Case.ServedHow.EMAIL and (served_to != rules.OWNER or not _owner_email(case)):
            message = (
                "Email reaches only an owner with an email address on file: choose the owner, or serve the notice "
                f"another way ({case.section})."
            )
            errors.append(Violation("served_how", "no_email", case.section, message))
    elif served_at is None:
        message = f"Give the time the notice was handed over or posted ({case.section})."
        errors.append(Violation("served_at", "required", case.section, message))
    elif served_at > now:
        message = f"The notice's service time cannot be in the future: record it once served ({case.section})."
        errors.append(Violation("served_at", "in_future", case.section, message))
    elif served_at < case.seen_at:
        message = f"The notice cannot be served before the obstruction was seen ({case.section})."
        errors.append(Violation("served_at", "before_seen", case.section, message))
    if days is not None and not 1 <= days <= 90:
        errors.append(Violation("days", "days_range", "", "Give between 1 and 90 days."))
    raise_if_broken(errors)
    raise_if_broken(violations)
    parcel = case.parcel
    name = parcel.owner_name if served_to == rules.OWNER else f"Occupant, {parcel.site_address}"
    deadline = None if by_system else notice_deadline(case, served_at, days)
    if by_system:
        how = "emailed" if served_how == Case.ServedHow.EMAIL else "mailed (the letter waits in Letters to mail)"
        reason = (
            f"Written notice to the {served_to} ({name}), {how}: its deadline runs once it is given ({case.section})"
        )
    else:
        reason = (
            f"Written notice to the {served_to} ({name}), {Case.ServedHow(served_how).label.lower()} "
            f"{timezone.localtime(served_at):%B %-d, %Y %-I:%M %p}; deadline "
            f"{timezone.localtime(deadline):%B %-d, %Y %-I:%M %p} ({case.section})"
        )
    if served_how == Case.ServedHow.MAIL:
        to = ""  # served by mail: the Village's own letter, whatever email is on file
    else:
        to = parcel.owner_email if served_to == rules.OWNER else ""
    with transaction.atomic():
        change_state(
            case,
            to=S.NOTICED,
            from_states={S.OPEN},
            by=by,
            reason=reason,
            served_to=served_to,
            served_name=name,
            served_how=served_how,
            served_at=served_at,
            deadline_at=deadline,
            notice_days=days,
            attention="",
        )
        send_notice(
            None,
            to=to,
            template="enforcement_notice",
            context={"case": case, "parcel": parcel, "name": name},
            mail_to=(name, parcel.owner_mailing_address if served_to == rules.OWNER else parcel.site_address),
            record=case,
        )
    case.refresh_from_db()
    return case


# --- Re-inspection, compliance, removal, referral ---------------------------------------------------------------------


def record_reinspection(*, case: Case, at: datetime, complied: bool, by, note: str = "") -> Case:
    """The official looks again: complied closes the case; not complied keeps it for removal or a referral."""
    _require_case_role(by, case.kind, "record re-inspections")
    if at is None or at > timezone.now():
        message = f"The re-inspection time cannot be in the future ({case.section})."
        raise RulesBroken.one("at", "in_future", case.section, message)
    if case.status != S.NOTICED:
        message = f"Re-inspect a case whose notice was served ({case.section})."
        raise RulesBroken.one("complied", "not_noticed", case.section, message)
    if case.served_at is None:
        message = f"The notice has not been given yet (its letter waits in Letters to mail): {case.section}."
        raise RulesBroken.one("at", "notice_not_given", case.section, message)
    if at < case.served_at:
        message = f"The re-inspection cannot be before the notice was served ({case.section})."
        raise RulesBroken.one("at", "before_notice", case.section, message)
    with transaction.atomic():
        _step(
            case,
            kind=CaseStep.Kind.REINSPECTION,
            by=by,
            at=at,
            note=("Complied. " if complied else "Not complied. ") + note.strip(),
        )
        if complied:
            change_state(
                case,
                to=S.COMPLIED,
                from_states={S.NOTICED},
                by=by,
                reason="Complied on re-inspection",
                closed_at=at,
                attention="",
            )
    return case


def record_removal(*, case: Case, removed_at: datetime, cost, description: str, by, today: date | None = None) -> Case:
    """§ 303-6F(1): the owner or occupant did not remove the obstruction within the 24 hours: the Village removes it
    (at served + 24h00 at the earliest), keeps the account of its expense, and the owner is billed through the ledger
    (payable 10 days from receipt; on the roll when unpaid 60 days after the costs, permits.ledger.rules)."""
    _require_case_role(by, case.kind, "record the Village's removal of obstructions")
    errors = {}  # by field: the last problem found on a field is the one it shows
    if case.kind not in OBSTRUCTIONS:
        message = "The Village's removal and its bill are for obstructions (§ 303-6F(1))."
        errors["removed_at"] = Violation("removed_at", "not_an_obstruction", "§ 303-6F(1)", message)
    if case.status != S.NOTICED:
        message = f"Case {case.number} is {case.get_status_display().lower()}: nothing to remove."
        errors["removed_at"] = Violation("removed_at", "not_noticed", "§ 303-6F(1)", message)
    if removed_at is None or removed_at > timezone.now():
        message = "The removal time cannot be in the future (§ 303-6F(1))."
        errors["removed_at"] = Violation("removed_at", "in_future", "§ 303-6F(1)", message)
    try:
        cost = Decimal(str(cost)).quantize(Decimal("0.01"))
        if cost < 0:
            message = "The cost of the removal cannot be negative (§ 303-6F(1))."
            errors["cost"] = Violation("cost", "negative_cost", "§ 303-6F(1)", message)
    except (InvalidOperation, ValueError):
        message = "Give the cost of the removal in dollars, like 185.00 (§ 303-6F(1))."
        errors["cost"] = Violation("cost", "not_a_number", "§ 303-6F(1)", message)
    if not description.strip():
        message = "Say what the Village removed: it is printed on the bill and the tax roll."
        errors["description"] = Violation("description", "required", "", message)
    raise_if_broken(errors.values())
    raise_if_broken(rules.removal_errors(case.served_at, removed_at))
    with transaction.atomic():
        change_state(
            case,
            to=S.ABATED,
            from_states={S.NOTICED},
            by=by,
            reason=f"Removed by the Village {timezone.localtime(removed_at):%B %-d, %Y %-I:%M %p}; cost ${cost} "
            "billed to the owner (§ 303-6F(1))",
            closed_at=removed_at,
            abatement_cost=cost,
            attention="",
        )
        add_charge(
            parcel=case.parcel,
            source=SpecialCharge.Source.OBSTRUCTION_REMOVAL,
            route=SpecialCharge.Route.SPECIAL_TAX_66_0907,
            amount=cost,
            incurred_on=timezone.localdate(removed_at),
            description=f"Removal of an obstruction, case {case.number}: {description.strip()}"[:280],
            citation="§ 303-6F(1)",
            work_record=case,
            by=by,
            today=today,
        )
    return case


def refer_for_forfeiture(*, case: Case, referred_at: datetime, by, note: str = "") -> Case:
    """Chapter 1, § 1-5: a case whose notice went unmet is referred for a forfeiture; a street number from the 11th day
    after service (§ 303-14C)."""
    _require_case_role(by, case.kind, "refer cases for a forfeiture")
    if case.status != S.NOTICED:
        message = f"Case {case.number} is {case.get_status_display().lower()}: serve the notice first."
        raise RulesBroken.one("referred_on", "not_noticed", "§ 1-5", message)
    if case.served_at is None:
        message = f"The notice has not been given yet (its letter waits in Letters to mail): {case.section}."
        raise RulesBroken.one("referred_on", "notice_not_given", case.section, message)
    if referred_at is None or referred_at > timezone.now():
        message = "The referral time cannot be in the future (Chapter 1, § 1-5)."
        raise RulesBroken.one("referred_on", "in_future", "§ 1-5", message)
    if case.kind == K.STREET_NUMBER:
        violations = rules.number_referral_errors(timezone.localdate(case.served_at), timezone.localdate(referred_at))
    else:
        violations = rules.referral_errors(case.deadline_at, referred_at)
    raise_if_broken(violations)
    change_state(
        case,
        to=S.REFERRED,
        from_states={S.NOTICED},
        by=by,
        reason=f"Referred for a forfeiture under Chapter 1, § 1-5 ({case.section}). {note.strip()}".strip(),
        closed_at=referred_at,
        attention="",
    )
    return case


def close_case(*, case: Case, by, reason: str) -> Case:
    """An official closes an open case as no violation (a complaint that was unfounded), saying why."""
    _require_case_role(by, case.kind, "close enforcement cases")
    if not reason.strip():
        raise RulesBroken.one("reason", "reason_required", "", "Say why the case is closed.")
    change_state(case, to=S.EXCEPTED, from_states={S.OPEN}, by=by, reason=reason.strip(), closed_at=timezone.now())
    return case


def match_case(*, case: Case, parcel: Parcel, kind: str, by) -> Case:
    """An official matches a public complaint to its parcel and the section it falls under, before the notice."""
    _require_case_role(by, kind, "match complaints to parcels")
    if case.status != S.OPEN:
        raise RulesBroken.one("parcel", "case_not_open", "", "Only an open case is matched.")
    if kind not in K.values:
        raise RulesBroken.one("kind", "unknown_kind", "", "Choose the kind of case.")
    Case.objects.filter(pk=case.pk, status=S.OPEN).update(
        parcel=parcel, kind=kind, reported_address=parcel.site_address
    )
    case.refresh_from_db()
    _step(case, kind=CaseStep.Kind.NOTE, by=by, note=f"Matched to {parcel} as {case.get_kind_display()}.")
    return case


# --- The jobs -----------------------------------------------------------------------------------------------------


def flag_cases_past_deadline(*, now: datetime | None = None) -> tuple[int, int]:
    """Every served case whose deadline has passed is flagged for re-inspection (once: a conditional update)."""
    now = now or timezone.now()
    candidates = Case.objects.filter(status=S.NOTICED, deadline_at__lte=now).exclude(kind=K.STREET_NUMBER)
    total = candidates.count()
    done = candidates.filter(attention="").update(attention=Case.Attention.PAST_DEADLINE)
    return total, done


def flag_street_number_timers(*, today: date | None = None) -> tuple[int, int]:
    """§ 303-14C: open street-number cases whose 20 days of neglect have run are flagged for the notice, served ones
    whose 10 days after service have run for a referral. Idempotent (a conditional update per flag)."""
    today = today or timezone.localdate()
    notice_cutoff = today - timedelta(days=rules.NEGLECT_DAYS + 1)
    number_cases = Case.objects.filter(kind=K.STREET_NUMBER)
    notice_due = number_cases.filter(status=S.OPEN, neglect_recorded_on__lte=notice_cutoff)
    # Served on or before today - 11 days: the referral may be made today (rules.number_referral_from).
    served_by = timezone.make_aware(datetime.combine(today - timedelta(days=rules.AFTER_SERVICE_DAYS), time.min))
    referral_due = number_cases.filter(status=S.NOTICED, served_at__lt=served_by)
    total = notice_due.count() + referral_due.count()
    done = notice_due.exclude(attention=Case.Attention.NOTICE_DUE).update(attention=Case.Attention.NOTICE_DUE)
    done += referral_due.exclude(attention=Case.Attention.REFERRAL_DUE).update(attention=Case.Attention.REFERRAL_DUE)
    return total, done


# --- Street numbers (§ 303-14A) ---------------------------------------------------------------------------------------


def assign_street_number(
    *,
    parcel: Parcel,
    number: int,
    by,
    map_reference: str,
    suffix: str = "",
    building: str = "Principal building",
    today: date | None = None,
) -> StreetNumber:
    """§ 303-14A: the Clerk-Treasurer assigns a principal building its official number from the numbering map on
    file in the clerk's office; a number is used once on a street."""
    require_role(by, Role.CLERK, action="assign official street numbers (the Clerk-Treasurer does, § 303-14A)")
    today = today or timezone.localdate()
    errors = {}  # by field: the last problem found on a field is the one it shows
    if number is None or number < 1:
        message = "An official street number is a whole number from 1 (§ 303-14A)."
        errors["number"] = Violation("number", "not_a_number", "§ 303-14A", message)
    if not map_reference.strip():
        message = "Name the sheet or grid of the street numbering map the number comes from (§ 303-14A)."
        errors["map_reference"] = Violation("map_reference", "required", "§ 303-14A", message)
    if number and StreetNumber.objects.filter(street=parcel.street, number=number, suffix=suffix.strip()).exists():
        message = f"{number}{suffix} {parcel.street.name} is already assigned (§ 303-14A)."
        errors["number"] = Violation("number", "number_taken", "§ 303-14A", message)
    if StreetNumber.objects.filter(parcel=parcel, building=building.strip()).exists():
        message = f"{parcel} already has an official number for its {building.strip().lower()} (§ 303-14A)."
        errors["parcel"] = Violation("parcel", "building_numbered", "§ 303-14A", message)
    raise_if_broken(errors.values())
    return StreetNumber.objects.create(
        parcel=parcel,
        building=building.strip(),
        street=parcel.street,
        number=number,
        suffix=suffix.strip(),
        map_reference=map_reference.strip(),
        assigned_on=today,
        assigned_by=by,
    )
