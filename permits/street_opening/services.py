"""Street opening permits, application to issue (§ 303-4, § 303-5, § 303-1C): the verbs.

Views, the API, admin actions and Celery tasks all call these. Each reads the clock once and passes `today` to the
pure rules of permits.street_opening.rules; each runs in a transaction and stores nothing when a rule refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from permits import jobs, notices, services, street_work, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken, Violation, errors_only, raise_if_broken
from permits.models import Document, Organization, Parcel, Permit, PermitEvent, PermitKind, Status, Street
from permits.recording import recorded_by, stamp_once
from permits.roles import Role, has_role
from permits.selectors import document_rejections
from permits.street_opening import rules as ordinance
from permits.street_opening.models import (
    AnnualBond,
    ApplicantRevocation,
    BondAmount,
    DiggersTicket,
    EmergencyDetermination,
    EmergencyReport,
    MoratoriumException,
    Renewal,
    StreetImprovement,
    StreetOpening,
)

FEE_CODE = "street_opening"
FILING = services.Filing(PermitKind.STREET_OPENING, FEE_CODE, "§ 303-4F(2)", required_by="§ 303-4A")
RENEWAL_FEE_CODE = "street_opening_renewal"

REVIEWERS = (Role.CLERK, Role.DPW_DIRECTOR)  # § 303-4B: the clerk or the DPW decides completeness
# § 303-4A: the permit is "from the Director of Public Works or Village Clerk-Treasurer": either grants it alone
# (approves and issues). What § 303-1C names the DPW for (underground location and plans, § 303-5B(3) lane closures,
# § 303-1C(7) emergency underground work) stays the DPW's: PLAN_APPROVERS.
APPROVERS = (Role.DPW_DIRECTOR, Role.CLERK)
ISSUERS = (Role.CLERK, Role.DPW_DIRECTOR)  # § 303-4A; § 303-4F(2): the fee itself is paid to the Clerk-Treasurer
PLAN_APPROVERS = (Role.DPW_DIRECTOR,)  # § 303-1C(2), § 303-1C(7), § 303-5B(3)
RENEWERS = (Role.CLERK, Role.DPW_DIRECTOR)  # § 303-4E
# § 303-5A, § 303-5I "the Village Board or its designee": a recorded Board motion, or whoever the Board designated
# for the clause (permits.board.services.require_board_or_designee). No role is a designee by itself.
BOARD_RECORDERS = (Role.BOARD, Role.PRESIDENT, Role.CLERK)  # the Board's decision, recorded from its minutes
REVOKERS = (Role.CLERK, Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT)  # § 303-4H(2)
VERIFIERS = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)  # Diggers Hotline tickets
ACTIVE_STATUSES = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)


# --- Facts the rules need, read from the database ----------------------------------------------------------------


def active_revocation(*, user, organization, today: date) -> ApplicantRevocation | None:
    """§ 303-4H(2): the revocation still running (the latest to end) that binds this application.

    A revocation binds the permittee and the people who applied for it: a revoked organization; its members (at
    the revocation or since: `bound_users` and current memberships), in their own names or for any organization;
    and a revoked person, in their own name or through a company."""
    subject = Q(user=user) | Q(bound_users=user) | Q(organization__memberships__user=user)
    if organization is not None:
        subject |= Q(organization=organization)
    return (
        ApplicantRevocation.objects.filter(subject, lifted_at__isnull=True, until__gt=today)
        .select_related("organization", "user")
        .order_by("-until")
        .first()
    )


def active_revocation_until(*, user, organization, today: date) -> date | None:
    """§ 303-4H(2): the latest end of a revocation still running for the applicant or its organization."""
    revocation = active_revocation(user=user, organization=organization, today=today)
    return revocation.until if revocation else None


def revocation_facts(*, user, organization, today: date) -> dict:
    """The keyword arguments of ordinance.revocation_violations for this applicant."""
    revocation = active_revocation(user=user, organization=organization, today=today)
    if revocation is None:
        return {"revoked_until": None, "revoked_subject": ""}
    if revocation.organization_id:
        subject = revocation.organization.name
    else:
        subject = revocation.user.get_full_name() or revocation.user.get_username()
    return {"revoked_until": revocation.until, "revoked_subject": subject}


def annual_bond_years(*, user, organization) -> set[int]:
    return set(annual_bond_amounts(user=user, organization=organization))


def annual_bond_amounts(*, user, organization) -> dict[int, Decimal]:
    """§ 303-4H(5): the annual bonds on file for the applicant (or its organization), {year: amount}."""
    subject = Q(principal_user=user) if organization is None else Q(organization=organization)
    return dict(AnnualBond.objects.filter(subject).values_list("year", "amount"))


def bond_amount_in_force(kind: str, on: date) -> Decimal | None:
    """§ 303-4H(3), (5): the bond amount the Village Board determined (a recorded motion) in force on `on`; None
    when the Board has set none for that day."""
    row = (
        BondAmount.objects.filter(kind=kind, effective_from__lte=on)
        .filter(Q(effective_until__isnull=True) | Q(effective_until__gte=on))
        .order_by("-effective_from", "-pk")
        .first()
    )
    return row.amount if row else None


def set_bond_amount(
    *, kind: str, amount, effective_from: date, motion, by, effective_until: date | None = None
) -> BondAmount:
    """§ 303-4H(3), (5): record the bond amount the Village Board determined by `motion` (a carried motion under
    § 303-4H(3)), in force from `effective_from` (on or after its meeting) through `effective_until`."""
    require_role(by, *board.BOARD_CLERKS, action="record the Board's bond amounts (the Clerk-Treasurer does)")
    errors = board.board_action_errors(motion, clause=Clause.BOND_AMOUNTS, on=effective_from)
    try:
        amount = Decimal(str(amount)).quantize(Decimal("0.01"))
        if amount <= 0:
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        errors.append(Violation("amount", "amount", "§ 303-4H(3)", "The bond amount is a positive number of dollars"))
    if effective_until is not None and effective_until < effective_from:
        errors.append(Violation("effective_until", "until_before_from", "§ 303-4H(3)", "It ends before it starts"))
    if kind not in BondAmount.Kind.values:
        errors.append(Violation("kind", "kind", "§ 303-4H(3)", "Choose the guarantee bond or the annual bond"))
    if errors:
        raise RulesBroken(errors)
    return BondAmount.objects.create(
        kind=kind,
        amount=amount,
        effective_from=effective_from,
        effective_until=effective_until,
        motion=motion,
        **recorded_by(by),
    )


def record_guarantee_bond_amount(*, permit: Permit, by, amount) -> StreetOpening:
    """§ 303-4H(3): the Clerk-Treasurer (or the DPW) records the amount of the bond filed for this permit, read from
    the bond document; it counts only at or above the amount the Board has in force."""
    require_role(by, *REVIEWERS, action="record bond amounts (the Clerk-Treasurer or the DPW does)")
    try:
        amount = Decimal(str(amount)).quantize(Decimal("0.01"))
        if amount <= 0:
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise RulesBroken(
            [
                Violation(
                    "amount", "amount", "§ 303-4H(3)", "The bond amount is a positive number of dollars (§ 303-4H(3))"
                )
            ]
        ) from None
    so = permit.street_opening
    with transaction.atomic():
        StreetOpening.objects.filter(pk=so.pk).update(guarantee_bond_amount=amount)
        so.guarantee_bond_amount = amount
        services.record_event(permit, by=by, reason=f"Bond for this permit recorded: ${amount:,.2f} (§ 303-4H(3))")
    return so


def street_repaving_facts(street: Street | None) -> tuple[date | None, tuple[date | None, date] | None]:
    """§ 303-5I: (the latest repaving date, (notified_on, work_begins_on) of a decided repaving not yet done), where
    notified_on is the day the Clerk-Treasurer's written notices were all given (None until then: the 30 days have
    not started)."""
    if street is None:
        return None, None
    improvements = list(StreetImprovement.objects.filter(street=street).order_by("-decided_on"))
    repaved = max((i.repaved_on for i in improvements if i.repaved_on), default=None)
    pending = next((i for i in improvements if i.repaved_on is None), None)
    if pending is None:
        return repaved, None
    given = notices.given_to_all(pending, REPAVING_NOTICE, receipt_days=notices.MAIL_RECEIPT_DAYS)
    return repaved, (given.on if given else None, pending.work_begins_on)


@dataclass
class Checked:
    errors: list[ordinance.Violation]
    warnings: list[ordinance.Violation]


def check_application(data: dict, *, applicant, organization, today: date, now: datetime) -> Checked:
    """Every rule an application must meet at submission, with the facts read once. `data` is the cleaned input
    of the form or the API (field names of the API contract)."""
    street = data.get("street")
    repaved_on, planned = street_repaving_facts(street if isinstance(street, Street) else None)
    emergency = bool(data.get("emergency"))
    requested_at = data.get("diggers_hotline_requested_at")
    violations = [
        *ordinance.revocation_violations(
            **revocation_facts(user=applicant, organization=organization, today=today), today=today
        ),
        # § 303-1A(1): a recorded grade (the Clerk-Treasurer's register); an emergency is warned, not refused
        *street_work.work_violations(
            kind=PermitKind.STREET_OPENING,
            street=street if isinstance(street, Street) else None,
            today=today,
            emergency=emergency,
        ),
        *ordinance.application_violations(
            street=str(street or ""),
            location_description=data.get("location_description", ""),
            work_description=data.get("work_description", ""),
            method=data.get("method", ""),
        ),
        *ordinance.date_violations(start_date=data.get("start_date"), end_date=data.get("end_date")),
        *ordinance.pavement_violations(
            surface=data.get("surface", ""), existing_pavement_inches=data.get("existing_pavement_inches")
        ),
        *ordinance.insurance_violations(
            per_person=data.get("insurance_per_person"),
            per_accident=data.get("insurance_per_accident"),
            property_damage=data.get("insurance_property_damage"),
            expires=data.get("insurance_expires"),
            covered_through=data.get("end_date"),
        ),
        *ordinance.statement_violations(
            signed_by=data.get("statement_signed_by", ""),
            undertakings=data.get("statement_undertakings", ()),
            signed_at=now,
        ),
        *ordinance.bond_violations(
            annual_bond=bool(data.get("annual_bond")),
            annual_bond_years=annual_bond_years(user=applicant, organization=organization),
            annual_bond_amounts=annual_bond_amounts(user=applicant, organization=organization),
            annual_required=bond_amount_in_force(BondAmount.Kind.ANNUAL, today),
            per_permit_bond_filed=False,
            start_date=data.get("start_date"),
            end_date=data.get("end_date"),
            at_approval=False,
        ),
        *ordinance.winter_violations(
            start_date=data.get("start_date"),
            end_date=data.get("end_date"),
            emergency=emergency,
            determination_recorded=False,
            at_approval=False,
        ),
        *ordinance.emergency_violations(
            emergency=emergency, work_began_on=data.get("emergency_began_on"), filed_on=today
        ),
        *ordinance.emergency_claimant_violations(
            emergency=emergency,
            for_organization=organization is not None,
            utility_facilities=organization.utility_facilities if organization is not None else (),
        ),
        *ordinance.moratorium_violations(
            repaved_on=repaved_on,
            planned_repaving=planned,
            start_date=data.get("start_date"),
            end_date=data.get("end_date"),
            exception_recorded=False,
            at_approval=False,
        ),
        *ordinance.nearby_openings_violations(
            near_existing_patch=bool(data.get("near_existing_patch")), nearby_openings=data.get("nearby_openings", "")
        ),
        *ordinance.diggers_ticket_violations(
            ticket_number=data.get("diggers_hotline_ticket", ""),
            requested_at=timezone.localtime(requested_at) if requested_at else None,
            legal_start=data.get("diggers_hotline_legal_start"),
            start_date=data.get("start_date"),
            emergency=emergency,
            at_approval=False,
            now=now,
        ),
        *ordinance.underground_violations(
            underground_utility=bool(data.get("underground_utility")),
            depth_feet=data.get("underground_depth_feet"),
            plans_filed=True,  # plans are uploaded on the permit page after filing; checked at approval
            plans_approved=False,
            at_approval=False,
            emergency=emergency,
        ),
        *ordinance.lanes_violations(
            lanes_open_each_way=data.get("lanes_open_each_way"),
            traffic_control=data.get("traffic_control") or "none",
            closure_approved=False,
            at_approval=False,
        ),
    ]
    return Checked([v for v in violations if not v.warning], [v for v in violations if v.warning])


def check_approval(
    permit: Permit, *, today: date, plans_approved: bool, lane_closure_approved: bool = False
) -> list[ordinance.Violation]:
    """Every rule that refuses approval (§ 303-4G, § 303-4H, § 303-5A, § 303-5B(3), § 303-5I, § 303-1C,
    § 182.0175). An emergency underground application needs no prior plan approval (§ 303-1C(7))."""
    so = permit.street_opening
    expires_on = ordinance.expiry_date(today)
    tickets = list(so.tickets.all())
    ticket = tickets[0] if tickets else None
    repaved_on, planned = street_repaving_facts(permit.street)
    doc_kinds = set(permit.documents.on_file().values_list("kind", flat=True))
    rejections = document_rejections(permit)
    violations = [
        *ordinance.revocation_violations(
            **revocation_facts(user=permit.applicant, organization=permit.organization, today=today), today=today
        ),
        # § 303-1A(1): not even an emergency's work is approved on a street whose grade is not recorded
        *street_work.work_violations(kind=PermitKind.STREET_OPENING, street=permit.street, today=today),
        *ordinance.insurance_violations(
            per_person=so.insurance_per_person,
            per_accident=so.insurance_per_accident,
            property_damage=so.insurance_property_damage,
            expires=so.insurance_expires,
            covered_through=max(expires_on, permit.end_date or expires_on),
        ),
        *ordinance.insurance_certificate_violations(
            certificate_filed=Document.Kind.INSURANCE in doc_kinds,
            rejected_reason=rejections.get(Document.Kind.INSURANCE, ""),
        ),
        *ordinance.statement_violations(
            signed_by=so.statement_signed_by, undertakings=so.statement_undertakings, signed_at=so.statement_signed_at
        ),
        *ordinance.bond_violations(
            annual_bond=so.annual_bond,
            annual_bond_years=annual_bond_years(user=permit.applicant, organization=permit.organization),
            annual_bond_amounts=annual_bond_amounts(user=permit.applicant, organization=permit.organization),
            annual_required=bond_amount_in_force(BondAmount.Kind.ANNUAL, today),
            per_permit_bond_filed=Document.Kind.BOND in doc_kinds,
            per_permit_bond_amount=so.guarantee_bond_amount,
            guarantee_required=bond_amount_in_force(BondAmount.Kind.GUARANTEE, today),
            per_permit_bond_rejected=rejections.get(Document.Kind.BOND, ""),
            start_date=permit.start_date,
            end_date=permit.end_date,
            at_approval=True,
        ),
        *ordinance.winter_violations(
            start_date=permit.start_date,
            end_date=permit.end_date,
            emergency=so.emergency,
            determination_recorded=hasattr(so, "emergency_determination"),
            at_approval=True,
        ),
        *ordinance.moratorium_violations(
            repaved_on=repaved_on,
            planned_repaving=planned,
            start_date=permit.start_date,
            end_date=permit.end_date,
            exception_recorded=hasattr(so, "moratorium_exception"),
            at_approval=True,
        ),
        *ordinance.diggers_ticket_violations(
            ticket_number=ticket.number if ticket else "",
            requested_at=timezone.localtime(ticket.requested_at) if ticket else None,
            legal_start=ticket.legal_start if ticket else None,
            start_date=permit.start_date,
            emergency=so.emergency,
            at_approval=True,
            today=today,
        ),
        *ordinance.emergency_claimant_violations(
            emergency=so.emergency,
            for_organization=permit.organization is not None,
            utility_facilities=permit.organization.utility_facilities if permit.organization else (),
        ),
        *ordinance.underground_violations(
            underground_utility=so.underground_utility,
            depth_feet=so.underground_depth_feet,
            plans_filed=Document.Kind.PLANS in doc_kinds,
            plans_approved=plans_approved,
            at_approval=True,
            emergency=so.emergency,
        ),
        *ordinance.lanes_violations(
            lanes_open_each_way=so.lanes_open_each_way,
            traffic_control=so.traffic_control,
            closure_approved=lane_closure_approved or so.lane_closure_approved_at is not None,
            at_approval=True,
        ),
    ]
    return [v for v in violations if not v.warning]


APPROVED_STATUSES = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)


def check_back_office_edit(permit: Permit, values: dict, *, today: date) -> list[ordinance.Violation]:
    """The rules a back-office edit of a street opening's street, place or dates must still meet: the same rule
    functions as filing and approval (§ 303-4B dates, § 303-5A winter, § 303-5I moratorium, § 303-4G insurance
    through the end, § 303-4H(5) the annual bond's years, Wis. Stat. § 182.0175 the ticket's legal start). Past
    approval, a winter or moratorium date needs its recorded determination, as at approval, and the dates stay within
    the validity (§ 303-4D)."""
    from permits.street_opening import validity

    so = permit.street_opening
    start, end = values.get("start_date"), values.get("end_date")
    street = values.get("street")
    decided = permit.status in APPROVED_STATUSES
    repaved_on, planned = street_repaving_facts(street if isinstance(street, Street) else None)
    doc_kinds = set(permit.documents.on_file().values_list("kind", flat=True))
    moved = isinstance(street, Street) and street.pk != permit.street_id
    violations = [
        # § 303-1A(1): moved to another street, the work needs that street's recorded grade
        *(street_work.work_violations(kind=PermitKind.STREET_OPENING, street=street, today=today) if moved else []),
        *ordinance.application_violations(
            street=str(street or ""),
            location_description=values.get("location_description", ""),
            work_description=values.get("work_description", ""),
            method=so.method,
        ),
        *ordinance.date_violations(start_date=start, end_date=end),
        # § 303-4D: once approved, the planned dates stay within the validity the approval started
        *(
            validity.edited_dates_violations(
                expires_on=permit.expires_on, start_date=start, end_date=end, planned_end=permit.end_date
            )
            if decided
            else []
        ),
        *ordinance.winter_violations(
            start_date=start,
            end_date=end,
            emergency=so.emergency,
            determination_recorded=hasattr(so, "emergency_determination"),
            at_approval=decided,
        ),
        *ordinance.moratorium_violations(
            repaved_on=repaved_on,
            planned_repaving=planned,
            start_date=start,
            end_date=end,
            exception_recorded=hasattr(so, "moratorium_exception"),
            at_approval=decided,
        ),
        *ordinance.insurance_violations(
            per_person=so.insurance_per_person,
            per_accident=so.insurance_per_accident,
            property_damage=so.insurance_property_damage,
            expires=so.insurance_expires,
            covered_through=max([d for d in (end, permit.expires_on if decided else None) if d], default=None),
        ),
        *ordinance.bond_violations(
            annual_bond=so.annual_bond,
            annual_bond_years=annual_bond_years(user=permit.applicant, organization=permit.organization),
            per_permit_bond_filed=Document.Kind.BOND in doc_kinds,
            start_date=start,
            end_date=end,
            at_approval=decided,
        ),
    ]
    for ticket in so.tickets.all():
        violations += ordinance.diggers_ticket_violations(
            ticket_number=ticket.number,
            requested_at=timezone.localtime(ticket.requested_at),
            legal_start=ticket.legal_start,
            start_date=start,
            emergency=so.emergency,
            at_approval=decided,
        )
    return [v for v in violations if not v.warning]


def ticket_warnings(permit: Permit, *, today: date) -> list[ordinance.Violation]:
    """Wis. Stat. § 182.0175: the warnings of every ticket of the permit on `today` (stale now, or stale by the
    planned start). Diggers Hotline policy: warn, do not block."""
    so = permit.street_opening
    found = []
    for ticket in so.tickets.all():
        for v in ordinance.diggers_ticket_violations(
            ticket_number=ticket.number,
            requested_at=timezone.localtime(ticket.requested_at),
            legal_start=ticket.legal_start,
            start_date=permit.start_date,
            emergency=so.emergency,
            at_approval=True,
            today=today,
        ):
            if v.warning:
                found.append(
                    Violation(
                        v.field, v.code, v.citation, f"Ticket {ticket.number} ({ticket.contractor}): {v.message}", True
                    )
                )
    return found


def warn_about_tickets(permit: Permit, *, today: date, when: str) -> list[ordinance.Violation]:
    """Say the ticket warnings to the applicant and the DPW (once per warning and day): on the timeline and by email."""
    warnings = ticket_warnings(permit, today=today)
    if not warnings:
        return []
    text = "; ".join(w.message for w in warnings)
    heading = f"Diggers Hotline ticket check {when} ({today:%B %-d, %Y})"
    if permit.events.filter(reason__startswith=heading).exists():
        return warnings  # told once per check and day
    services.record_event(permit, by=None, reason=f"{heading}: {text}")
    from permits.street_opening.field.services import _dpw_emails

    for email in {permit.applicant.email, *_dpw_emails()}:
        services.send_notice(
            permit,
            to=email,
            template="street_opening_ticket_stale",
            context={"permit": permit, "warnings": warnings, "when": when},
        )
    return warnings


def warn_stale_tickets_before_work(*, today: date) -> tuple[int, int]:
    """Wis. Stat. § 182.0175: the day before planned work (and on its first day), permits whose ticket is or will be
    stale are told to the applicant and the DPW. Returns (permits considered, permits warned); idempotent per day.
    Set-based: the tickets read with the permits, and per chunk one check of the day's timeline rows,
    one insert of the new ones and one of the notices."""
    from permits.street_opening.field.services import _dpw_emails

    due = list(
        Permit.objects.filter(
            kind=PermitKind.STREET_OPENING,
            status__in=ACTIVE_STATUSES,
            start_date__gte=today,
            start_date__lte=today + timedelta(days=1),
            street_opening__work_begun_on__isnull=True,
        )
        .select_related("applicant", "street_opening", "street")
        .prefetch_related("street_opening__tickets")
        .order_by("pk")
    )
    when = "before work starts"
    heading = f"Diggers Hotline ticket check {when} ({today:%B %-d, %Y})"
    warned, dpw = 0, None
    for chunk in jobs.chunked(due):
        found = [(permit, warnings) for permit in chunk if (warnings := ticket_warnings(permit, today=today))]
        if not found:
            continue
        with transaction.atomic():
            ids = [permit.pk for permit, _ in found]
            list(Permit.objects.select_for_update().filter(pk__in=ids).values_list("pk"))  # one run tells at a time
            told = set(
                PermitEvent.objects.filter(permit_id__in=ids, reason__startswith=heading).values_list(
                    "permit_id", flat=True
                )
            )
            new = [(permit, warnings) for permit, warnings in found if permit.pk not in told]  # once per check and day
            if new and dpw is None:
                dpw = _dpw_emails()
            services.record_events([(p, f"{heading}: {'; '.join(w.message for w in ws)}") for p, ws in new])
            services.send_notices(
                [
                    (p, email, "street_opening_ticket_stale", {"permit": p, "warnings": ws, "when": when})
                    for p, ws in new
                    for email in {p.applicant.email, *dpw}
                ]
            )
        warned += len(found)
    return len(due), warned


# --- Applying ---------------------------------------------------------------------------------------------------


def _clerk_emails() -> list[str]:
    User = get_user_model()
    return list(
        User.objects.filter(groups__name=Role.CLERK.value, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
    )


def _flag_late_emergency(permit: Permit, so: StreetOpening, *, now: datetime) -> None:
    """§ 303-5H: a late emergency filing is flagged to the Clerk-Treasurer (recorded, and emailed)."""
    StreetOpening.objects.filter(pk=so.pk, late_filing_flagged_at__isnull=True).update(late_filing_flagged_at=now)
    so.late_filing_flagged_at = now
    deadline = ordinance.emergency_filing_deadline(so.emergency_began_on)
    services.record_event(
        permit, by=None, reason=f"Emergency application filed late: due by {deadline:%B %-d, %Y} (§ 303-5H)"
    )
    for email in _clerk_emails():
        services.send_notice(
            permit,
            to=email,
            template="street_opening_late_emergency",
            context={"permit": permit, "deadline": deadline, "began_on": so.emergency_began_on},
        )


def apply_for_street_opening(
    *, applicant, data: dict, organization: Organization | None = None, today: date | None = None
) -> Permit:
    """Create and submit a street opening application (§ 303-4B), running every rule; all or nothing."""
    now = timezone.now()
    today = today or timezone.localdate(now)
    data = dict(data)
    checked = None

    def check() -> list:
        nonlocal checked
        checked = check_application(data, applicant=applicant, organization=organization, today=today, now=now)
        return checked.errors

    def detail(permit: Permit) -> StreetOpening:
        so = StreetOpening.objects.create(
            permit=permit,
            method=data["method"],
            surface=data["surface"],
            existing_pavement_inches=data.get("existing_pavement_inches"),
            utility_interruption=bool(data.get("utility_interruption")),
            near_existing_patch=bool(data.get("near_existing_patch")),
            nearby_openings=data.get("nearby_openings", ""),
            map_latitude=data.get("map_latitude"),
            map_longitude=data.get("map_longitude"),
            emergency=bool(data.get("emergency")),
            emergency_began_on=data.get("emergency_began_on") if data.get("emergency") else None,
            insurance_per_person=data["insurance_per_person"],
            insurance_per_accident=data["insurance_per_accident"],
            insurance_property_damage=data["insurance_property_damage"],
            insurance_expires=data["insurance_expires"],
            annual_bond=bool(data.get("annual_bond")),
            statement_signed_by=data["statement_signed_by"].strip(),
            statement_signed_at=now,
            statement_undertakings=sorted(data.get("statement_undertakings", ())),
            underground_utility=bool(data.get("underground_utility")),
            underground_depth_feet=data.get("underground_depth_feet"),
            lanes_open_each_way=ordinance.MIN_LANES_EACH_WAY
            if data.get("lanes_open_each_way") is None
            else data["lanes_open_each_way"],
            traffic_control=data.get("traffic_control") or "none",
        )
        if (data.get("diggers_hotline_ticket") or "").strip():
            _create_ticket(
                so,
                by=applicant,
                number=data["diggers_hotline_ticket"],
                requested_at=data["diggers_hotline_requested_at"],
                legal_start=data.get("diggers_hotline_legal_start"),
                now=now,
            )
        return so

    with transaction.atomic():  # what follows the submission is part of the application: all or nothing
        permit = services.apply_for(
            FILING,
            applicant=applicant,
            organization=organization,
            today=today,
            rules=check,
            detail=detail,
            began_in_emergency=bool(data.get("emergency")),
            street=data.get("street"),
            location_description=data.get("location_description"),
            work_description=data.get("work_description"),
            start_date=data.get("start_date"),
            end_date=data.get("end_date"),
        )
        so = permit.street_opening
        if so.emergency:
            EmergencyReport.objects.filter(street=permit.street, permit__isnull=True, organization=organization).update(
                permit=permit
            )
            if ordinance.is_late_emergency_filing(work_began_on=so.emergency_began_on, filed_on=today):
                _flag_late_emergency(permit, so, now=now)
        for warning in checked.warnings:
            services.record_event(permit, by=None, reason=f"Warning at filing: {warning.message}")
    return permit


def _permittee_name(permit: Permit) -> str:
    if permit.organization:
        return permit.organization.name
    return permit.applicant.get_full_name() or permit.applicant.username


def _create_ticket(so, *, by, number, requested_at, legal_start, now, contractor: str = "") -> DiggersTicket:
    permit = so.permit
    contractor = contractor or _permittee_name(permit)
    requested_on = timezone.localtime(requested_at).date()
    return DiggersTicket.objects.create(
        street_opening=so,
        contractor=contractor,
        number=number.strip(),
        requested_at=requested_at,
        legal_start=legal_start or ordinance.diggers_legal_start(requested_on),
        entered_by=by,
        entered_at=now,
    )


def add_diggers_ticket(
    *, permit: Permit, by, number: str, requested_at: datetime, legal_start: date | None = None, contractor: str = ""
) -> DiggersTicket:
    """Wis. Stat. § 182.0175: one ticket per contractor, added by the applicant side (an emergency adds it after
    filing) or by Village staff; shown as entered by applicant until an inspector verifies it."""
    if not (workflow.is_applicant_side(by, permit) or has_role(by, *REVIEWERS, *VERIFIERS)):
        raise PermissionDenied("You may not add a ticket to this permit.")
    so = permit.street_opening
    errors = errors_only(
        ordinance.diggers_ticket_violations(
            ticket_number=number,
            requested_at=timezone.localtime(requested_at),
            legal_start=legal_start,
            start_date=permit.start_date,
            emergency=so.emergency,
            at_approval=False,
            now=timezone.now(),
        )
    )
    contractor = contractor.strip() or _permittee_name(permit)
    if so.tickets.filter(Q(contractor__iexact=contractor) | Q(number=number.strip())).exists():
        errors.append(
            Violation(
                "number",
                "ticket_duplicate",
                "Wis. Stat. § 182.0175",
                f"This permit already has a ticket for {contractor} or with that number: one ticket per contractor "
                "(Wis. Stat. § 182.0175)",
            )
        )
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        ticket = _create_ticket(
            so,
            by=by,
            number=number,
            requested_at=requested_at,
            legal_start=legal_start,
            now=timezone.now(),
            contractor=contractor,
        )
        services.record_event(
            permit,
            by=by,
            reason=f"Diggers Hotline ticket {ticket.number} added for {ticket.contractor} (entered by applicant)",
        )
    return ticket


def verify_ticket(*, ticket: DiggersTicket, by) -> DiggersTicket:
    """An inspector (or the DPW) confirms a ticket with Diggers Hotline; verifying twice changes nothing."""
    require_role(by, *VERIFIERS, action="verify Diggers Hotline tickets")
    now = timezone.now()
    if DiggersTicket.objects.filter(pk=ticket.pk, verified_at__isnull=True).update(verified_by=by, verified_at=now):
        ticket.verified_by, ticket.verified_at = by, now
        services.record_event(
            ticket.street_opening.permit, by=by, reason=f"Diggers Hotline ticket {ticket.number} verified"
        )
    return ticket


# --- Review, approval, issue -------------------------------------------------------------------------------------


def begin_review(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-4B: the Clerk-Treasurer or the DPW finds the information sufficient and takes the application up."""
    require_role(by, *REVIEWERS, action="review street opening applications")
    return workflow.transition(
        permit, Status.UNDER_REVIEW, by=by, today=today, reason="Application complete (§ 303-4B)"
    )


def approve_street_opening(
    *,
    permit: Permit,
    by,
    conditions: str = "",
    approve_plans: bool = False,
    approve_lane_closure: bool = False,
    approve_emergency_work: bool = False,
    today: date | None = None,
) -> Permit:
    """§ 303-4A: the DPW or the Clerk-Treasurer approves the permit and sets its conditions; valid 30 days from
    approval (§ 303-4D). The DPW's own approvals (§ 303-1C(2) underground location and plans, § 303-5B(3) a lane
    closure, § 303-1C(7) emergency underground work) are given only by the DPW: the clerk may approve once they are
    recorded, and the rules refuse the approval until then.

    Refused, with every reason at once, without a Diggers Hotline ticket, insurance through the validity, the
    bond, the signed statement, or the winter/moratorium determinations the ordinance requires. A closure of every
    lane in a direction is approved here too (§ 303-5B(3)), recorded as a condition with who and when; so may the
    emergency underground work be (§ 303-1C(7)).
    """
    require_role(by, *APPROVERS, action="approve street opening permits (§ 303-4A)")
    if approve_plans or approve_lane_closure or approve_emergency_work:
        require_role(
            by,
            *PLAN_APPROVERS,
            action="approve underground plans, lane closures or emergency underground work (the Director of Public "
            "Works does, § 303-1C(2), § 303-5B(3), § 303-1C(7))",
        )
    now = timezone.now()
    today = today or timezone.localdate(now)
    so = permit.street_opening
    closing = so.lanes_open_each_way < ordinance.MIN_LANES_EACH_WAY
    # What the DPW approves here is written first; transition() then runs check_approval (permits.street_opening.
    # workflow) on what is recorded, and a refusal rolls all of it back.
    with transaction.atomic():
        conditions = conditions.strip()
        fields = {}
        if closing and approve_lane_closure and so.lane_closure_approved_at is None:
            fields.update(lane_closure_approved_at=now, lane_closure_approved_by=by)
            closure = (
                f"Lane closure approved by {by.get_full_name() or by.get_username()} on "
                f"{timezone.localtime(now):%B %-d, %Y %-I:%M %p}: no lane open in each direction, "
                f"{so.get_traffic_control_display().lower()} required (§ 303-5B(3))"
            )
            conditions = f"{conditions}\n{closure}" if conditions else closure
        fields["dpw_conditions"] = conditions
        if so.underground_utility and approve_plans:
            fields.update(plans_approved_at=now, plans_approved_by=by)
        if (
            approve_emergency_work
            and so.emergency_work_approved_at is None
            and ordinance.is_emergency_underground(emergency=so.emergency, underground_utility=so.underground_utility)
        ):
            fields.update(emergency_work_approved_at=now, emergency_work_approved_by=by)
        StreetOpening.objects.filter(pk=so.pk).update(**fields)
        for field, value in fields.items():
            setattr(so, field, value)
        workflow.transition(
            permit,
            Status.APPROVED,
            by=by,
            today=today,
            reason="Approved (§ 303-4A)" + (f". Conditions: {conditions.strip()}" if conditions.strip() else ""),
        )
        warn_about_tickets(permit, today=today, when="at approval")
    return permit


def approve_emergency_underground_work(*, permit: Permit, by) -> StreetOpening:
    """§ 303-1C(7): the DPW approves, after the fact, underground construction a utility began in an emergency
    (recorded with who and when). Until then the permit cannot be completed."""
    require_role(by, *PLAN_APPROVERS, action="approve emergency underground construction (§ 303-1C(7))")
    so = permit.street_opening
    if not ordinance.is_emergency_underground(emergency=so.emergency, underground_utility=so.underground_utility):
        raise RulesBroken(
            [
                ordinance._error(
                    None,
                    "not_emergency_underground",
                    "§ 303-1C(7)",
                    "Only emergency underground construction is approved after the fact",
                )
            ]
        )
    if so.emergency_work_approved_at is not None:
        return so
    now = timezone.now()
    with transaction.atomic():
        StreetOpening.objects.filter(pk=so.pk, emergency_work_approved_at__isnull=True).update(
            emergency_work_approved_at=now, emergency_work_approved_by=by
        )
        so.emergency_work_approved_at, so.emergency_work_approved_by = now, by
        services.record_event(
            permit,
            by=by,
            reason="Emergency underground construction approved by the Director of Public Works (§ 303-1C(7))",
        )
    return so


def issue_street_opening(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-4A: the Clerk-Treasurer or the DPW issues the permit once its fee is paid to the clerk (§ 303-4F(2))."""
    require_role(by, *ISSUERS, action="issue street opening permits")
    # transition() refuses an unpaid fee (§ 303-4F(2), permits.street_opening.workflow).
    transition = workflow.transition(permit, Status.ISSUED, by=by, today=today, reason="Fee paid; permit issued")
    services.send_notice(
        permit, to=permit.applicant.email, template="street_opening_issued", context={"permit": permit}
    )
    return transition


def renew_street_opening(
    *, permit: Permit, by, work_begun_on: date | None = None, note: str = "", today: date | None = None
) -> Renewal:
    """§ 303-4E: grant the permittee's written renewal request (permits.street_opening.lifecycle.request_renewal), at
    the discretion of the clerk or the DPW, only if work has begun: the renewal fee is charged, and the renewal takes
    effect (the validity moves 30 days) once it is paid. Refused without a pending written request, and when it would
    carry the work into November 15 to April 1 without the Board's emergency determination (§ 303-5A); the insurance
    must stay in force through the renewed period (§ 303-4G)."""
    from permits.street_opening import lifecycle, validity
    from permits.street_opening.models import RenewalRequest

    require_role(by, *RENEWERS, action="renew street opening permits (§ 303-4E)")
    now = timezone.now()
    today = today or timezone.localdate(now)
    try:
        with transaction.atomic():
            # One renewal per request, however often it is posted: lock the permit row, so simultaneous renewals are
            # decided one after the other, each on the validity the previous one left (§ 303-4E).
            locked = Permit.objects.select_for_update().get(pk=permit.pk)
            so = StreetOpening.objects.get(permit=locked)
            request = lifecycle.pending_request(so)
            begun = work_begun_on or (request.work_begun_on if request else None) or so.work_begun_on
            errors = ordinance.renewal_violations(
                status=locked.status, work_begun=begun is not None, expires_on=locked.expires_on, today=today
            )
            errors += _renewed_period_not_begun(so, expires_on=locked.expires_on, today=today)
            if not errors:
                errors = lifecycle.grant_checks(so, locked, today=today)
            if not errors:
                new_expiry = ordinance.renewed_expiry(locked.expires_on)
                errors = errors_only(
                    ordinance.insurance_violations(
                        per_person=so.insurance_per_person,
                        per_accident=so.insurance_per_accident,
                        property_damage=so.insurance_property_damage,
                        expires=so.insurance_expires,
                        covered_through=new_expiry,
                    )
                )
            if errors:
                raise RulesBroken(errors)
            renewal = Renewal.objects.create(
                street_opening=so,
                previous_expires_on=locked.expires_on,
                new_expires_on=new_expiry,
                work_begun_on=begun,
                granted_by=by,
                granted_at=now,
                note=note,
                request=request,
            )
            lifecycle.decide_request(
                request,
                RenewalRequest.State.GRANTED,
                by=by,
                reason=f"Renewal to {new_expiry:%B %-d, %Y} granted (§ 303-4E)",
                note=note,
                at=now,
                refusal=validity.no_request_violations()[0],  # refused meanwhile
            )
            StreetOpening.objects.filter(pk=so.pk).update(work_begun_on=begun)
            fee = services.add_fee(
                locked,
                fee_code=RENEWAL_FEE_CODE,
                by=by,
                today=today,
                reason=f"Renewal to {new_expiry:%B %-d, %Y} granted (§ 303-4E); renewal fee added: the renewal takes "
                "effect when it is paid",
            )
            services.send_notice(
                locked,
                to=locked.applicant.email,
                template="street_opening_renewal_granted",
                context={"permit": locked, "renewal": renewal, "fee": fee, "due": locked.balance_due_as_stored()},
            )
            lifecycle.apply_paid_renewals(locked)  # a renewal fee of $0.00 (or paid ahead) takes effect at once
    except IntegrityError:
        # renewal_once_per_period: a path that did not take the lock renewed this validity already.
        raise RulesBroken(_renewed_period_not_begun(permit.street_opening, expires_on=None, today=today)) from None
    locked.refresh_from_db(fields=["expires_on", "fee_amount"])
    permit.expires_on, permit.fee_amount = locked.expires_on, locked.fee_amount
    return renewal


def _renewed_period_not_begun(so: StreetOpening, *, expires_on: date | None, today: date) -> list[Violation]:
    """§ 303-4E: a thirty-day renewal is asked for while operations "will continue beyond" the period in force, so
    a period is renewed once, and a renewed period is renewed only once it has begun: a renewal posted twice (or by
    the clerk and the DPW at once) renews once, and the second one is refused with the first one's date."""
    last = so.renewals.order_by("-granted_at", "-pk").first()
    if last is None or (expires_on is not None and last.new_expires_on != expires_on):
        return []
    if today > last.previous_expires_on:
        return []  # the renewed period has begun: it may itself be renewed
    return [
        Violation(
            None,
            "already_renewed",
            "§ 303-4E",
            f"Already renewed on {timezone.localtime(last.granted_at):%B %-d, %Y} by "
            f"{workflow.actor_label(last.granted_by)}: "
            f"valid through {last.new_expires_on:%B %-d, %Y}. The renewed period begins "
            f"{last.previous_expires_on + timedelta(days=1):%B %-d, %Y} and can be renewed once it has (§ 303-4E). "
            "No second renewal or fee was recorded.",
        )
    ]


def request_renewal(*, permit: Permit, by, work_begun_on: date, note: str = "", reason: str = "", today=None):
    """§ 303-4E: the permittee's written request for a renewal (permits.street_opening.lifecycle.request_renewal)."""
    from permits.street_opening import lifecycle

    return lifecycle.request_renewal(
        permit=permit, by=by, work_begun_on=work_begun_on, reason=reason or note, today=today
    )


# --- Board determinations --------------------------------------------------------------------------------------


def record_emergency_determination(
    *, permit: Permit, by, reason: str, motion=None, today: date | None = None
) -> EmergencyDetermination:
    """§ 303-5A: the Board (a carried motion on this permit, recorded by the clerk) or its designee for § 303-5A on
    `today` determines a winter opening an emergency; who, which motion, when and why are kept."""
    return _record_board_act(
        EmergencyDetermination,
        permit=permit,
        by=by,
        reason=reason,
        motion=motion,
        today=today,
        clause=Clause.WINTER_EMERGENCY,
        action="determine emergency excavations",
        no_reason=Violation("reason", "required", "§ 303-5A", "Say why it is an emergency (§ 303-5A)"),
        who_and_when={"determined_by": by, "determined_at": timezone.now()},
        event="Determined an emergency excavation (§ 303-5A)",
    )


def grant_moratorium_exception(
    *, permit: Permit, by, reason: str, motion=None, today: date | None = None
) -> MoratoriumException:
    """§ 303-5I: the Board (a carried motion on this permit) or its designee for § 303-5I on `today` records why
    opening a recently repaved street is absolutely essential."""
    return _record_board_act(
        MoratoriumException,
        permit=permit,
        by=by,
        reason=reason,
        motion=motion,
        today=today,
        clause=Clause.MORATORIUM_EXCEPTION,
        action="grant moratorium exceptions",
        no_reason=Violation("reason", "required", "§ 303-5I", "Say why the opening is absolutely essential (§ 303-5I)"),
        who_and_when={"granted_by": by, "granted_at": timezone.now()},
        event="Moratorium exception (§ 303-5I)",
    )


def _record_board_act(
    model, *, permit: Permit, by, reason: str, motion, today, clause, action: str, no_reason, who_and_when, event
):
    """A Board act on one permit, by a carried motion on it or by the Board's designee for `clause` on `today`, with
    the reason it was needed: kept once per opening (a second call returns the first) and told on the timeline."""
    today = today or timezone.localdate()
    board.require_board_or_designee(by, clause, on=today, action=action, motion=motion, subject=permit)
    if not reason.strip():
        raise RulesBroken([no_reason])
    with transaction.atomic():
        act, _ = model.objects.get_or_create(
            street_opening=permit.street_opening,
            defaults={**who_and_when, "reason": reason.strip(), "motion": motion},
        )
        services.record_event(permit, by=by, reason=f"{event}{_by_motion(motion)}: {reason.strip()}")
    return act


def _by_motion(motion) -> str:
    if motion is None:
        return " by the Board's designee"
    number = f"resolution {motion.resolution_number}, " if motion.resolution_number else ""
    return f" by the Village Board ({number}meeting of {motion.held_on:%B %-d, %Y}, {motion.ayes}-{motion.nays})"


def record_street_improvement(
    *, street: Street, by, description: str, decided_on: date, work_begins_on: date
) -> StreetImprovement:
    """§ 303-5I: record the Board's decision to improve or repave a street, at least 30 days before the work."""
    require_role(by, *BOARD_RECORDERS, action="record Board decisions")
    errors = ordinance.board_decision_violations(decided_on=decided_on, work_begins_on=work_begins_on)
    if errors:
        raise RulesBroken(errors)
    return StreetImprovement.objects.create(
        street=street,
        description=description,
        decided_on=decided_on,
        work_begins_on=work_begins_on,
        **recorded_by(by),
    )


def record_repaving_done(*, improvement: StreetImprovement, by, repaved_on: date) -> StreetImprovement:
    """§ 303-5I: the repaving date starts the five-year moratorium."""
    require_role(by, *BOARD_RECORDERS, Role.DPW_DIRECTOR, action="record repaving")
    StreetImprovement.objects.filter(pk=improvement.pk).update(repaved_on=repaved_on)
    improvement.repaved_on = repaved_on
    return improvement


REPAVING_NOTICE = "street_opening_repaving_notice"


@dataclass
class ImprovementNotices:
    emailed: list[str]
    to_mail: list[Parcel]  # abutting owners with no email on file: a letter each waits in Letters to mail


def send_improvement_notices(*, improvement: StreetImprovement, by) -> ImprovementNotices:
    """§ 303-5I: immediately after the decision the clerk notifies in writing every utility and every owner of
    property abutting the street that excavation there must be completed within 30 days. Sent once: emailed where an
    email is on file, otherwise a letter for the clerk to mail. The 30 days run from the notices as given
    (street_repaving_facts), not from the Board's decision."""
    require_role(by, Role.CLERK, action="send the notices of § 303-5I")
    with transaction.atomic():
        claimed = StreetImprovement.objects.filter(pk=improvement.pk, notices_sent_at__isnull=True).update(
            notices_sent_at=timezone.now()
        )
        if not claimed:
            return ImprovementNotices([], [])
        context = {"improvement": improvement}
        recipients: dict[str, str] = {}
        for org in Organization.objects.filter(kind=Organization.Kind.UTILITY).prefetch_related("memberships__user"):
            members = [m for m in org.memberships.all() if m.user.email]
            for m in [m for m in members if m.is_manager] or members:
                recipients.setdefault(m.user.email, org.name)
        to_mail = []
        for parcel in Parcel.objects.filter(street=improvement.street).order_by("site_address"):
            if parcel.owner_email:
                recipients.setdefault(parcel.owner_email, parcel.owner_name)
            elif (parcel.owner_mailing_address or "").strip():
                to_mail.append(parcel)
        for email, name in recipients.items():
            services.send_notice(
                None, to=email, template=REPAVING_NOTICE, context={**context, "name": name}, record=improvement
            )
        for parcel in to_mail:
            services.notify_owner(
                parcel, template=REPAVING_NOTICE, context={**context, "name": parcel.owner_name}, record=improvement
            )
    return ImprovementNotices(list(recipients), to_mail)


# --- Emergencies (§ 303-5H) --------------------------------------------------------------------------------------


def report_emergency(
    *,
    by,
    street: Street,
    location_description: str,
    began_on: date,
    organization: Organization | None = None,
    reported_by_name: str = "",
) -> EmergencyReport:
    """§ 303-5H: the Village office is told at once of emergency work begun without a permit (by the utility's or
    contractor's staff online, or by the clerk taking the call). The application stays due by the next business
    day; the clerk is emailed now."""
    if organization is not None and not (organization.memberships.filter(user=by).exists() or has_role(by, *REVIEWERS)):
        raise PermissionDenied("You may report for an organization only if you are on its staff.")
    raise_if_broken(
        ordinance.emergency_claimant_violations(
            emergency=True,
            for_organization=organization is not None,
            utility_facilities=organization.utility_facilities if organization is not None else (),
        )
    )
    report = EmergencyReport.objects.create(
        organization=organization,
        reported_by_name=reported_by_name or by.get_full_name() or by.username,
        street=street,
        location_description=location_description,
        began_on=began_on,
        reported_at=timezone.now(),
        recorded_by=by,
    )
    for email in _clerk_emails():
        services.send_notice(
            None,
            to=email,
            template="street_opening_emergency_reported",
            context={"report": report, "deadline": ordinance.emergency_filing_deadline(report.began_on)},
        )
    return report


def flag_unfiled_emergencies(*, today: date) -> tuple[int, int]:
    """§ 303-5H: emergencies reported with no application by the next business day are flagged to the clerk.
    Returns (items considered, items flagged); a second run flags nothing. Set-based: per chunk, the
    reports still unflagged are locked and flagged by one UPDATE, then the clerk's notices inserted in one."""
    pending = list(
        EmergencyReport.objects.filter(permit__isnull=True, flagged_at__isnull=True)
        .select_related("street", "organization")
        .order_by("pk")
    )
    late = [r for r in pending if today > ordinance.emergency_filing_deadline(r.began_on)]
    flagged, clerks = 0, None
    for chunk in jobs.chunked(late):
        with transaction.atomic():
            unflagged = stamp_once(EmergencyReport, chunk, field="flagged_at", value=timezone.now())
            if unflagged and clerks is None:
                clerks = _clerk_emails()
            services.send_notices(
                [
                    (
                        None,
                        email,
                        "street_opening_emergency_unfiled",
                        {"report": report, "deadline": ordinance.emergency_filing_deadline(report.began_on)},
                    )
                    for report in chunk
                    if report.pk in unflagged
                    for email in clerks
                ]
            )
        flagged += len(unflagged)
    return len(late), flagged


# --- Revocation (§ 303-4H(2)) -------------------------------------------------------------------------------------


def revoke_applicant(*, permit: Permit, by, reason: str, today: date | None = None) -> ApplicantRevocation:
    """§ 303-4H(2): deficiencies not corrected on notice revoke the permittee's right to obtain a street opening
    permit for one year. The permittee is the permit's organization, or its applicant when there is none.
    `by=None` is the system (a scheduled job of the defect notices)."""
    if by is not None:
        require_role(by, *REVOKERS, action="revoke the right to obtain permits (§ 303-4H(2))")
    now = timezone.now()
    today = today or timezone.localdate(now)
    if not reason.strip():
        raise RulesBroken([Violation("reason", "required", "§ 303-4H(2)", "Say why (§ 303-4H(2))")])
    subject = {"organization": permit.organization} if permit.organization else {"user": permit.applicant}
    with transaction.atomic():
        existing = ApplicantRevocation.objects.filter(**subject, permit=permit, lifted_at__isnull=True).first()
        if existing:
            return existing
        revocation = ApplicantRevocation.objects.create(
            **subject,
            permit=permit,
            revoked_on=today,
            until=ordinance.revocation_ends(today),
            reason=reason.strip(),
            revoked_by=by,
            revoked_at=now,
        )
        bound = {permit.applicant_id}
        if permit.organization:
            bound |= set(permit.organization.memberships.values_list("user_id", flat=True))
        revocation.bound_users.set(bound)
        services.record_event(
            permit,
            by=by,
            reason=f"Right to obtain street opening permits revoked until "
            f"{revocation.until:%B %-d, %Y} (§ 303-4H(2)): {reason.strip()}",
        )
    return revocation


def revoke_applicants(permits_and_reasons: list[tuple[Permit, str]], *, today: date) -> int:
    """revoke_applicant() by the system (a scheduled job, by=None) for many permits at once: a permit whose
    permittee is already revoked for it (not lifted) is skipped, as is a permit named twice; the others' revocations,
    the people they bind and their timeline events are inserted in one statement each. Call it inside the job's
    transaction, with the permits' organizations loaded. Returns how many revocations were made."""
    from permits.models import Membership

    now = timezone.now()
    until = ordinance.revocation_ends(today)

    def subject(permit: Permit) -> tuple:
        return ("org", permit.organization_id) if permit.organization_id else ("user", permit.applicant_id)

    wanted: dict[int, tuple[Permit, str]] = {}
    for permit, reason in permits_and_reasons:
        wanted.setdefault(permit.pk, (permit, reason.strip()))
    existing = set()
    for permit_id, organization_id, user_id in ApplicantRevocation.objects.filter(
        permit_id__in=list(wanted), lifted_at__isnull=True
    ).values_list("permit_id", "organization_id", "user_id"):
        existing |= {(permit_id, "org", organization_id), (permit_id, "user", user_id)}
    new = [(permit, reason) for permit, reason in wanted.values() if (permit.pk, *subject(permit)) not in existing]
    if not new:
        return 0
    revocations = ApplicantRevocation.objects.bulk_create(
        [
            ApplicantRevocation(
                organization_id=permit.organization_id,
                user_id=None if permit.organization_id else permit.applicant_id,
                permit=permit,
                revoked_on=today,
                until=until,
                reason=reason,
                revoked_by=None,
                revoked_at=now,
            )
            for permit, reason in new
        ]
    )
    staff: dict[int, set[int]] = {}
    for organization_id, user_id in Membership.objects.filter(
        organization_id__in={p.organization_id for p, _ in new if p.organization_id}
    ).values_list("organization_id", "user_id"):
        staff.setdefault(organization_id, set()).add(user_id)
    Bound = ApplicantRevocation.bound_users.through
    Bound.objects.bulk_create(
        [
            Bound(applicantrevocation_id=revocation.pk, user_id=user_id)
            for revocation, (permit, _) in zip(revocations, new, strict=True)
            for user_id in {permit.applicant_id} | staff.get(permit.organization_id, set())
        ]
    )
    services.record_events(
        [
            (
                permit,
                f"Right to obtain street opening permits revoked until {until:%B %-d, %Y} (§ 303-4H(2)): {reason}",
            )
            for permit, reason in new
        ]
    )
    return len(new)


def lift_ended_revocations(*, today: date) -> tuple[int, int]:
    """§ 303-4H(2): a revocation ends one year after it began. Returns (considered, lifted)."""
    due = list(
        ApplicantRevocation.objects.filter(lifted_at__isnull=True, until__lte=today).values_list("pk", flat=True)
    )
    lifted = ApplicantRevocation.objects.filter(pk__in=due, lifted_at__isnull=True).update(lifted_at=timezone.now())
    return len(due), lifted


# --- Validity (§ 303-4D) ---------------------------------------------------------------------------------------


def expire_lapsed_street_openings(*, today: date) -> tuple[int, int]:
    """§ 303-4D with § 303-5G: the nightly validity job (permits.street_opening.lifecycle.end_lapsed_validity): a
    permit never opened expires; an opened one keeps its restoration duties and only its right to open ends."""
    from permits.street_opening import lifecycle

    return lifecycle.end_lapsed_validity(today=today)


REMINDER_LEAD = timedelta(days=5)


def remind_expiring_street_openings(*, today: date) -> tuple[int, int]:
    """Remind permittees 5 days before expiry (once per expiry date: a renewal earns a new reminder). Set-based:
    per chunk, one conditional mark of the reminded expiry dates, then the notices in one insert."""
    due = list(
        StreetOpening.objects.select_related("permit__applicant", "permit__street")
        .filter(
            permit__status__in=ACTIVE_STATUSES,
            permit__expires_on__gte=today,
            permit__expires_on__lte=today + REMINDER_LEAD,
        )
        .exclude(expiry_reminder_for=F("permit__expires_on"))
        .order_by("pk")
    )
    sent = 0
    for chunk in jobs.chunked(due):
        with transaction.atomic():
            marked = set(
                jobs.stamp_once(StreetOpening, "expiry_reminder_for", {so.pk: so.permit.expires_on for so in chunk})
            )
            services.send_notices(
                [
                    (so.permit, so.permit.applicant.email, "street_opening_expiry_reminder", {"permit": so.permit})
                    for so in chunk
                    if so.pk in marked
                ]
            )
        sent += len(marked)
    return len(due), sent


# --- § 303-4G, § 303-4H(5): recorded after filing, on pages ----------------------------------------------------------

INSURANCE_RENEWABLE = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED, Status.ACTIVE)


def renew_insurance(*, permit: Permit, by, insurance_expires: date | None, certificate, today: date | None = None):
    """§ 303-4G: the applicant (or the Clerk-Treasurer) records a renewed certificate of insurance: its new expiry
    and the certificate itself, which the Clerk-Treasurer then reviews like any filed certificate. Audited on the
    permit's timeline; all or nothing."""
    if not (workflow.is_applicant_side(by, permit) or has_role(by, Role.CLERK)):
        raise PermissionDenied("Only the applicant or the Clerk-Treasurer records a renewed insurance (§ 303-4G).")
    today = today or timezone.localdate()
    so = permit.street_opening
    violations = []
    if permit.status not in INSURANCE_RENEWABLE:
        message = f"{permit.number} is {permit.get_status_display().lower()}: its insurance is no longer recorded"
        violations.append(Violation(None, "permit_not_open", "§ 303-4G", message))
    if certificate is None:
        message = "Upload the renewed certificate of insurance: the written evidence of the coverage (§ 303-4G)"
        violations.append(Violation("certificate", "certificate_missing", "§ 303-4G", message))
    ends = [d for d in (permit.expires_on, permit.end_date) if d is not None]
    if permit.status in (Status.SUBMITTED, Status.UNDER_REVIEW):
        ends.append(ordinance.expiry_date(today))  # what approving it today would ask (check_approval)
    violations += ordinance.insurance_renewal_violations(
        expires=insurance_expires, on_file=so.insurance_expires, covered_through=max(ends) if ends else None
    )
    raise_if_broken(violations)
    with transaction.atomic():
        was = so.insurance_expires
        document = services.upload_document(permit=permit, kind=Document.Kind.INSURANCE, upload=certificate, by=by)
        so.insurance_expires = insurance_expires
        so.save(update_fields=["insurance_expires"])
        services.record_event(
            permit,
            by=by,
            reason=f"Insurance renewed (§ 303-4G): expires {insurance_expires:%B %-d, %Y}, was {was:%B %-d, %Y}",
        )
    return document


def record_annual_bond(
    *,
    year: int,
    surety: str,
    amount,
    by,
    organization: Organization | None = None,
    principal_user=None,
    bond_number: str = "",
    today: date | None = None,
) -> AnnualBond:
    """§ 303-4H(5): the Clerk-Treasurer records an annual bond (January 1 to December 31 of `year`) of its principal,
    an organization or an individual applicant, at least the amount the Village Board determined; one per principal
    and year."""
    require_role(by, Role.CLERK, action="record annual bonds (the Clerk-Treasurer does, § 303-4H(5))")
    today = today or timezone.localdate()
    amount = Decimal(str(amount)).quantize(Decimal("0.01"))
    required = bond_amount_in_force(BondAmount.Kind.ANNUAL, ordinance.annual_bond_amount_day(year, today))
    violations = ordinance.annual_bond_record_violations(amount=amount, required=required)
    if (organization is None) == (principal_user is None):
        message = "Name the bond's principal: an organization, or the individual applicant (§ 303-4H(5))"
        violations.append(Violation("organization", "principal_required", "§ 303-4H(5)", message))
        raise_if_broken(violations)
    principal = organization.name if organization else str(principal_user)
    on_file = f"{principal} already has an annual bond on file for {year} (§ 303-4H(5))"
    subject = Q(organization=organization) if organization else Q(principal_user=principal_user, organization=None)
    if AnnualBond.objects.filter(subject, year=year).exists():
        violations.append(Violation("year", "annual_bond_on_file", "§ 303-4H(5)", on_file))
    raise_if_broken(violations)
    try:
        with transaction.atomic():
            return AnnualBond.objects.create(
                organization=organization,
                principal_user=principal_user,
                year=year,
                surety=surety.strip(),
                bond_number=bond_number.strip(),
                amount=amount,
                recorded_by=by,
                recorded_at=timezone.now(),
            )
    except IntegrityError:  # recorded by another clerk a moment ago
        raise RulesBroken([Violation("year", "annual_bond_on_file", "§ 303-4H(5)", on_file)]) from None


def annual_bonds():
    """The annual bonds on file, the latest year first, then by principal."""
    return AnnualBond.objects.select_related("organization", "principal_user", "recorded_by").order_by(
        "-year", "organization__name", "pk"
    )
