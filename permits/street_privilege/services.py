"""Street privilege permits (§ 303-7, Wis. Stat. § 66.0425): the verbs.

Views, the API, admin actions, the Board's matters and Celery tasks all call these. Each is keyword-only, reads the
clock once, runs in a transaction and stores nothing when a rule refuses (permits.errors.RulesBroken, every broken
rule at once). Status changes go through permits.workflow.transition, whose hooks (permits.street_privilege.workflow)
refuse the same things on every path.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from permits import jobs, services, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import IllegalTransition, RulesBroken, Violation, raise_if_broken
from permits.models import Organization, Permit, PermitKind, Status, Street
from permits.roles import Role, roles_of
from permits.state import change_state
from permits.street_facts import register_page
from permits.street_privilege import rules
from permits.street_privilege.models import (
    CostLine,
    Office,
    Purpose,
    Recommendation,
    SidewalkObstruction,
    StreetPrivilege,
)

FEE_CODE = "street_privilege"  # Chapter 167, charged at submission (§ 303-7C)
FILING = services.Filing(PermitKind.STREET_PRIVILEGE, FEE_CODE, "§ 303-7C", required_by="§ 303-7A")

INSPECTORS = (Role.BUILDING_INSPECTOR,)  # § 303-7A: the Building Inspector grants, issues, sets an earlier end
BOND_SETTERS = (Role.DPW_DIRECTOR,)  # § 303-7B: "an amount determined by the Director of Public Works"
BOND_RECEIVERS = (Role.CLERK,)  # § 303-7B: "file with the Village Clerk-Treasurer"
RECOMMENDERS = {Role.DPW_DIRECTOR: Office.DPW, Role.POLICE_CHIEF: Office.POLICE}  # § 303-7A
# § 303-7A "Village officials may attach conditions", § 303-7C the Village's actual costs (escort, barricades)
COST_RECORDERS = (Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.CLERK)
# § 303-7D: revocable "by the Village Board, Director of Public Works, Chief of Police, or Building Inspector"
# § 303-7D: the officials who revoke on their own; the Village Board revokes only as a body, by a carried motion (a
# trustee or the President alone is not "the Village Board").
REVOKERS = (Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.BUILDING_INSPECTOR)
CLOSING_INSPECTORS = (Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR)  # § 303-7D(7)
BOARD_RECORDERS = (Role.CLERK, Role.BOARD, Role.PRESIDENT)  # the Board's decision, recorded from its minutes
OBSTRUCTION_REPORTERS = (Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.CLERK)
REMOVAL_RECORDERS = (Role.CLERK, Role.DPW_DIRECTOR)  # § 303-7F: the return of costs to the Clerk-Treasurer
IN_FORCE = (Status.ISSUED, Status.ACTIVE)
BEFORE_ISSUE = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)


def _name(user) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else "the Village"


def _refuse(field, code, citation, message):
    raise RulesBroken([Violation(field, code, citation, f"{message} ({citation})")])


def _sp(permit: Permit) -> StreetPrivilege:
    return StreetPrivilege.objects.select_related("permit").get(permit_id=permit.pk)


# --- Application ---------------------------------------------------------------------------------------------------


def _street(value) -> Street | None:
    if value is None or isinstance(value, Street):
        return value
    return Street.objects.filter(name=str(value)).first()  # the shell and the demo name it


def check_application(data: dict) -> list[Violation]:
    """Every rule an application must meet at filing (the form and the API call this; so does the service).
    `data` is the cleaned input, with the API's field names. The street's width is the Village's record (the street
    register), never typed by the applicant (§ 303-7D(1))."""
    purpose = data.get("purpose") or ""
    street = _street(data.get("street"))
    sidewalk_occupied = bool(data.get("sidewalk_occupied"))
    errors = [
        *rules.application_violations(
            purpose=purpose,
            street=str(street or ""),
            location_description=data.get("location_description") or "",
            building_description=data.get("building_description") or "",
            route_description=data.get("route_description") or "",
        ),
        *rules.date_violations(start_date=data.get("start_date"), end_date=data.get("end_date")),
    ]
    if street is not None:
        errors += rules.street_share_violations(
            street_name=street.name,
            street_width_feet=street.width_feet,
            occupied_street_feet=data.get("occupied_street_feet"),
            where=register_page(),
        )
    return [
        *errors,
        *rules.lighting_violations(lighted_at_night=bool(data.get("lighted_at_night"))),
        *rules.sidewalk_violations(
            sidewalk_occupied=sidewalk_occupied,
            temporary_walk_width_feet=data.get("temporary_walk_width_feet"),
            fence_height_feet=data.get("fence_height_feet"),
            fenced_both_sides=bool(data.get("fenced_both_sides")),
        ),
        *rules.overnight_violations(
            purpose=purpose,
            overnight_at_intersection_or_hydrant=bool(data.get("overnight_at_intersection_or_hydrant")),
        ),
    ]


def check_back_office_edit(permit: Permit, values: dict, *, today: date) -> list[Violation]:
    """The filing rules a back-office correction of an application's place or dates must still meet (the policy,
    kind.EDIT_POLICY, keeps the street and a granted permit as they are): a place named on the street (§ 303-7A), a
    first and a last day in that order (§ 303-7D)."""
    return [
        *[
            v
            for v in rules.application_violations(
                purpose=Purpose.MATERIALS,  # the purpose and its descriptions are not edited here
                street=str(values.get("street") or permit.street or ""),
                location_description=values.get("location_description") or "",
                building_description="",
                route_description="",
            )
            if v.field == "location_description"
        ],
        *rules.date_violations(start_date=values.get("start_date"), end_date=values.get("end_date")),
    ]


def apply_for_street_privilege(
    *, applicant, data: dict, organization: Organization | None = None, today: date | None = None
) -> Permit:
    """§ 303-7A: a builder, contractor or house mover files (and submits) an application; all or nothing."""
    is_move = data["purpose"] == Purpose.MOVE_BUILDING
    sidewalk = bool(data.get("sidewalk_occupied"))
    street = _street(data.get("street"))

    def detail(permit: Permit) -> StreetPrivilege:
        return StreetPrivilege.objects.create(
            permit=permit,
            purpose=data["purpose"],
            building_permit_number=(data.get("building_permit_number") or "").strip(),
            street_width_feet=street.width_feet,  # the register's, as checked (§ 303-7D(1))
            occupied_street_feet=data["occupied_street_feet"],
            sidewalk_occupied=sidewalk,
            temporary_walk_width_feet=data.get("temporary_walk_width_feet") if sidewalk else None,
            fence_height_feet=data.get("fence_height_feet") if sidewalk else None,
            fenced_both_sides=bool(data.get("fenced_both_sides")) and sidewalk,
            lighted_at_night=bool(data.get("lighted_at_night")),
            building_description=(data.get("building_description") or "").strip() if is_move else "",
            route_description=(data.get("route_description") or "").strip() if is_move else "",
            overnight_stops=(data.get("overnight_stops") or "").strip() if is_move else "",
            overnight_at_intersection_or_hydrant=bool(data.get("overnight_at_intersection_or_hydrant")),
            day_and_night_requested=bool(data.get("day_and_night_requested")) and is_move,
        )

    return services.apply_for(
        FILING,
        applicant=applicant,
        organization=organization,
        today=today,
        rules=lambda: check_application(data),
        detail=detail,
        street=street,
        location_description=(data.get("location_description") or "").strip(),
        work_description=dict(Purpose.choices).get(data.get("purpose"), ""),
        start_date=data.get("start_date"),
        end_date=data.get("end_date"),
    )


def _staff_emails(role: str) -> list[str]:
    users = get_user_model().objects.filter(groups__name=role, is_active=True).exclude(email="")
    return list(users.values_list("email", flat=True))


def begin_review(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-7A: the Building Inspector takes the application up and requests the advisory recommendations of the
    Director of Public Works and the Chief of Police (each is told)."""
    require_role(by, *INSPECTORS, action="review street privilege applications (the Building Inspector does)")
    with transaction.atomic():
        workflow.transition(
            permit,
            Status.UNDER_REVIEW,
            by=by,
            today=today,
            reason="Advisory recommendations requested from the Director of Public Works and the Chief of Police "
            "(§ 303-7A)",
        )
        for role in (Role.DPW_DIRECTOR, Role.POLICE_CHIEF):
            for email in _staff_emails(role):
                services.send_notice(
                    permit, to=email, template="street_privilege_recommendation_requested", context={"permit": permit}
                )
    return permit


def record_recommendation(
    *, permit: Permit, by, recommended: bool, conditions: str = "", insurance_required: bool = False
) -> Recommendation:
    """§ 303-7A: the DPW Director's or the Chief of Police's advisory recommendation, with who, when and the
    conditions they attach (printed on the permit). Advisory: "not recommended" does not refuse the grant. Recorded
    (or revised) before the permit is issued."""
    office = next((o for role, o in RECOMMENDERS.items() if role in roles_of(by)), None)
    if office is None:
        raise PermissionDenied(
            "You may not record an advisory recommendation: the Director of Public Works and the Chief of Police do "
            "(§ 303-7A)."
        )
    if permit.status not in BEFORE_ISSUE:
        _refuse(None, "not_before_issue", "§ 303-7A", f"{permit.number} is {permit.get_status_display().lower()}")
    sp = _sp(permit)
    with transaction.atomic():
        rec, _ = Recommendation.objects.update_or_create(
            privilege=sp,
            office=office,
            defaults=dict(
                recommended=recommended,
                conditions=conditions.strip(),
                insurance_required=insurance_required,
                by=by,
                at=timezone.now(),
            ),
        )
        services.record_event(
            permit,
            by=by,
            reason=f"{rec.get_office_display()}: {'recommended' if recommended else 'not recommended'} (advisory, "
            f"§ 303-7A)"
            + (f". Conditions: {rec.conditions}" if rec.conditions else "")
            + ("; proof of liability insurance required" if insurance_required else ""),
        )
    return rec


def record_building_permit_determination(*, permit: Permit, by, required: bool | None, shown_number: str = ""):
    """§ 303-7A: the Building Inspector determines whether the work needs a building permit (Chapter 132) and
    records it; where one is required he records the number of the building permit shown to him (now, or again later
    once it is shown). Until both are on record the permit is not issued (permits.street_privilege.workflow)."""
    require_role(
        by, *INSPECTORS, action="decide whether a building permit is required (the Building Inspector does, § 303-7A)"
    )
    if permit.status not in BEFORE_ISSUE:
        _refuse(None, "not_before_issue", "§ 303-7A", f"{permit.number} is {permit.get_status_display().lower()}")
    raise_if_broken(rules.building_permit_determination_violations(required=required, shown_number=shown_number))
    number = shown_number.strip() if required else ""
    now = timezone.now()
    with transaction.atomic():
        StreetPrivilege.objects.filter(permit_id=permit.pk).update(
            building_permit_required=required,
            building_permit_determined_by=by,
            building_permit_determined_at=now,
            building_permit_shown_number=number,
            building_permit_shown_at=now if number else None,
        )
        if not required:
            said = "no building permit is required"
        elif number:
            said = f"a building permit is required; building permit {number} shown"
        else:
            said = "a building permit is required; not shown yet"
        services.record_event(permit, by=by, reason=f"Building Inspector: {said} (§ 303-7A)")
    return _sp(permit)


# --- Bond (§ 303-7B) -----------------------------------------------------------------------------------------------


def _decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    if isinstance(value, float):
        raise TypeError("Money is Decimal, never float.")
    try:
        return Decimal(str(value).strip())
    except InvalidOperation:
        return None


def set_bond(*, permit: Permit, by, amount) -> StreetPrivilege:
    """§ 303-7B: the Director of Public Works sets the bond for this permit, at most $10,000. Changed only before
    the bond is filed."""
    require_role(by, *BOND_SETTERS, action="set the street privilege bond (the Director of Public Works does)")
    amount = _decimal(amount)
    raise_if_broken(rules.bond_amount_violations(amount))
    if permit.status not in BEFORE_ISSUE:
        _refuse("bond_amount", "not_before_issue", "§ 303-7B", "The bond is set before the permit is issued")
    with transaction.atomic():
        updated = StreetPrivilege.objects.filter(permit_id=permit.pk, bond_filed_at__isnull=True).update(
            bond_amount=amount, bond_set_by=by, bond_set_at=timezone.now()
        )
        if not updated:
            _refuse("bond_amount", "bond_filed", "§ 303-7B", "The bond is already filed: its amount stays as filed")
        services.record_event(
            permit, by=by, reason=f"Bond set at ${amount:,.2f} by the Director of Public Works (§ 303-7B)"
        )
    return _sp(permit)


def file_bond(*, permit: Permit, by, surety: str) -> StreetPrivilege:
    """§ 303-7B: the applicant's bond is filed with the Clerk-Treasurer, in the amount the DPW Director set."""
    require_role(by, *BOND_RECEIVERS, action="receive street privilege bonds (the Clerk-Treasurer does)")
    sp = _sp(permit)
    errors = []
    if sp.bond_amount is None:
        errors.append(
            Violation(
                None, "bond_not_set", "§ 303-7B", "The Director of Public Works has not set the bond yet (§ 303-7B)"
            )
        )
    if not surety.strip():
        errors.append(Violation("surety", "required", "§ 303-7B", "Name the surety on the bond (§ 303-7B)"))
    raise_if_broken(errors)
    with transaction.atomic():
        StreetPrivilege.objects.filter(pk=sp.pk, bond_filed_at__isnull=True).update(
            bond_filed_at=timezone.now(), bond_filed_by=by, bond_surety=surety.strip()
        )
        services.record_event(
            permit,
            by=by,
            reason=f"Bond of ${sp.bond_amount:,.2f} filed with the Clerk-Treasurer ({surety.strip()}, § 303-7B)",
        )
    return _sp(permit)


def request_bond_waiver(*, permit: Permit, by) -> StreetPrivilege:
    """§ 303-7B: "Upon request, the Village Board may waive this requirement": the applicant asks; the request waits
    for the Board (permits.street_privilege.board_matters)."""
    if not workflow.is_applicant_side(by, permit):
        raise PermissionDenied("Only the applicant asks the Board to waive the bond (§ 303-7B).")
    if permit.status not in BEFORE_ISSUE:
        _refuse(None, "not_before_issue", "§ 303-7B", "A waiver is asked for before the permit is issued")
    with transaction.atomic():
        if StreetPrivilege.objects.filter(permit_id=permit.pk, bond_waiver_requested_at__isnull=True).update(
            bond_waiver_requested_at=timezone.now()
        ):
            services.record_event(
                permit, by=by, reason="The applicant asked the Village Board to waive the bond (§ 303-7B)"
            )
    return _sp(permit)


def _board_errors(motion, *, clause: str, subject, today: date) -> None:
    raise_if_broken(board.board_action_errors(motion, clause=clause, on=today, subject=subject))


def waive_bond(*, permit: Permit, motion, by, today: date | None = None) -> StreetPrivilege:
    """§ 303-7B: the Village Board waives the bond, on request, by a recorded motion that carried."""
    require_role(by, *BOARD_RECORDERS, action="record the Board's decisions")
    today = today or timezone.localdate()
    sp = _sp(permit)
    _board_errors(motion, clause=Clause.PRIVILEGE_BOND_WAIVER, subject=sp, today=today)
    if sp.bond_waiver_requested_at is None:
        _refuse("motion", "not_requested", "§ 303-7B", "The Board waives the bond upon request: none was made")
    with transaction.atomic():
        StreetPrivilege.objects.filter(pk=sp.pk).update(bond_waiver_motion=motion)
        services.record_event(permit, by=by, reason=f"Bond waived by the Village Board: {motion} (§ 303-7B)")
    return _sp(permit)


def prescribe_route(*, permit: Permit, motion, route: str, by, today: date | None = None) -> StreetPrivilege:
    """§ 303-7D(6): buildings are moved only along the route the Village Board prescribes, by a recorded motion."""
    require_role(by, *BOARD_RECORDERS, action="record the Board's decisions")
    today = today or timezone.localdate()
    sp = _sp(permit)
    errors = list(board.board_action_errors(motion, clause=Clause.MOVE_ROUTE, on=today, subject=sp))
    if not sp.is_move:
        errors.append(Violation(None, "not_a_move", "§ 303-7D(6)", "Only a building move has a route (§ 303-7D(6))"))
    if not route.strip():
        errors.append(
            Violation("route", "required", "§ 303-7D(6)", "Give the route the Board prescribed (§ 303-7D(6))")
        )
    raise_if_broken(errors)
    with transaction.atomic():
        StreetPrivilege.objects.filter(pk=sp.pk).update(route_prescribed=route.strip(), route_motion=motion)
        services.record_event(
            permit, by=by, reason=f"Route prescribed by the Village Board: {route.strip()} (§ 303-7D(6))"
        )
    return _sp(permit)


def order_day_and_night(*, permit: Permit, motion, by, today: date | None = None) -> StreetPrivilege:
    """§ 303-7D(4): the Village Board may order the move to continue during all hours of the day and night."""
    require_role(by, *BOARD_RECORDERS, action="record the Board's decisions")
    today = today or timezone.localdate()
    sp = _sp(permit)
    errors = list(board.board_action_errors(motion, clause=Clause.MOVE_DAY_AND_NIGHT, on=today, subject=sp))
    if not sp.is_move:
        errors.append(
            Violation(None, "not_a_move", "§ 303-7D(4)", "Only a building move is ordered day and night (§ 303-7D(4))")
        )
    raise_if_broken(errors)
    with transaction.atomic():
        StreetPrivilege.objects.filter(pk=sp.pk).update(day_and_night_ordered=True, day_and_night_motion=motion)
        services.record_event(
            permit, by=by, reason="The Village Board ordered the move to continue day and night (§ 303-7D(4))"
        )
    return _sp(permit)


# --- Fee and actual costs (§ 303-7C) -------------------------------------------------------------------------------


def add_cost(*, permit: Permit, by, description: str, amount) -> CostLine:
    """§ 303-7C: the Village's actual cost (a police escort, barricades) is added to what the permit owes, as its own
    line on the bill and the receipt."""
    require_role(by, *COST_RECORDERS, action="add the Village's actual costs to a street privilege permit")
    amount = _decimal(amount)
    raise_if_broken(rules.cost_line_violations(description=description, amount=amount))
    if permit.status in {Status.CLOSED, Status.DENIED, Status.WITHDRAWN}:
        _refuse(None, "closed", "§ 303-7C", f"{permit.number} is {permit.get_status_display().lower()}")
    with transaction.atomic():
        line = CostLine.objects.create(
            privilege=_sp(permit), description=description.strip(), amount=amount, added_by=by, added_at=timezone.now()
        )
        Permit.objects.filter(pk=permit.pk).update(fee_amount=F("fee_amount") + amount)
        permit.refresh_from_db(fields=["fee_amount"])
        services.record_event(
            permit, by=by, reason=f"Actual Village cost added: {line.description} ${amount} (§ 303-7C)"
        )
    return line


# --- Grant, issue, end -----------------------------------------------------------------------------------------------


def set_earlier_termination(
    *, permit: Permit, by, earlier_termination_on: date | None, today: date | None = None
) -> StreetPrivilege:
    """§ 303-7E: before issue, the Building Inspector sets a new earlier end date for a granted permit, or clears it
    (blank: three months from issue), held to the same rule as at grant."""
    require_role(by, *INSPECTORS, action="set a street privilege permit's end date (the Building Inspector does)")
    today = today or timezone.localdate()
    if permit.status != Status.APPROVED:
        _refuse("earlier_termination_on", "not_granted", "§ 303-7E", "The end date is changed only before issue")
    raise_if_broken(rules.earlier_termination_violations(earlier_on=earlier_termination_on, today=today))
    with transaction.atomic():
        StreetPrivilege.objects.filter(permit_id=permit.pk).update(earlier_termination_on=earlier_termination_on)
        when = f"{earlier_termination_on:%B %-d, %Y}" if earlier_termination_on else "three months from issue"
        services.record_event(permit, by=by, reason=f"End date set: {when} (§ 303-7E)")
    return _sp(permit)


def grant_street_privilege(
    *, permit: Permit, by, conditions: str = "", earlier_termination_on: date | None = None, today: date | None = None
) -> Permit:
    """§ 303-7A: the Building Inspector grants the permit once both advisory recommendations are recorded, with the
    conditions he attaches and, at his discretion, an earlier termination date (§ 303-7E)."""
    require_role(by, *INSPECTORS, action="grant street privilege permits (the Building Inspector does, § 303-7A)")
    today = today or timezone.localdate()
    raise_if_broken(rules.earlier_termination_violations(earlier_on=earlier_termination_on, today=today))
    with transaction.atomic():
        StreetPrivilege.objects.filter(permit_id=permit.pk).update(
            inspector_conditions=conditions.strip(), earlier_termination_on=earlier_termination_on
        )
        workflow.transition(
            permit,
            Status.APPROVED,
            by=by,
            today=today,
            reason="Granted by the Building Inspector (§ 303-7A)"
            + (f". Conditions: {conditions.strip()}" if conditions.strip() else ""),
        )
    return permit


def deny_street_privilege(*, permit: Permit, by, reason: str, today: date | None = None) -> Permit:
    require_role(by, *INSPECTORS, action="deny street privilege permits (the Building Inspector does, § 303-7A)")
    if not reason.strip():
        _refuse("reason", "required", "§ 303-7A", "Say why the permit is denied")
    return workflow.transition(permit, Status.DENIED, by=by, today=today, reason=reason.strip())


def issue_street_privilege(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-7A, § 303-7B, § 303-7C: the Building Inspector issues once the recommendations are recorded, the bond is
    filed (or waived) and the fee and costs are paid (the workflow refuses otherwise); the last day is three months
    on, or his earlier date (§ 303-7E)."""
    require_role(by, *INSPECTORS, action="issue street privilege permits (the Building Inspector does, § 303-7A)")
    with transaction.atomic():
        workflow.transition(permit, Status.ISSUED, by=by, today=today, reason="Issued (§ 303-7A)")
        services.send_notice(
            permit, to=permit.applicant.email, template="street_privilege_issued", context={"permit": permit}
        )
    return permit


def _open_closing_inspection(permit: Permit, *, today: date) -> None:
    StreetPrivilege.objects.filter(permit_id=permit.pk, closing_inspection_opened_on__isnull=True).update(
        closing_inspection_opened_on=today
    )


def _end_the_work(permit: Permit, to: str, *, by, today: date, reason: str) -> Permit:
    """Move the permit to `to` and open its closing inspection, in one transaction."""
    with transaction.atomic():
        workflow.transition(permit, to, by=by, today=today, reason=reason)
        _open_closing_inspection(permit, today=today)
    return permit


def report_completion(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-7D(7): the work is done; the space is to be vacated and cleaned, and the closing inspection opens."""
    reason = "Work reported done; closing inspection opened (§ 303-7D(7))"
    return _end_the_work(permit, Status.COMPLETED, by=by, today=today or timezone.localdate(), reason=reason)


def revoke_street_privilege(*, permit: Permit, by, reason: str = "", motion=None, today: date | None = None) -> Permit:
    """§ 303-7D: the Director of Public Works, the Chief of Police or the Building Inspector revokes the permit,
    without notice, for a violation of its conditions; the Village Board does so only by a carried motion of a
    meeting (recorded from its minutes), never a trustee or the President alone. The space must still be vacated
    (§ 303-7D(7)): the closing inspection opens."""
    today = today or timezone.localdate()
    if motion is not None:
        require_role(by, *BOARD_RECORDERS, action="record the Board's decisions")
        _board_errors(motion, clause=Clause.PRIVILEGE_REVOCATION, subject=_sp(permit), today=today)
        reason = reason or motion.text
    else:
        require_role(
            by,
            *REVOKERS,
            action="revoke street privilege permits (the Director of Public Works, the Chief of Police or the "
            "Building Inspector does; the Village Board only by a motion of a meeting, § 303-7D)",
        )
    if not reason.strip():
        _refuse("reason", "required", "§ 303-7D", "Name the condition violated")
    if motion is None:
        reason = f"Revoked for a violation of its conditions: {reason.strip()} (§ 303-7D)"
        return _end_the_work(permit, Status.REVOKED, by=by, today=today, reason=reason)
    # The Board's act, not the recorder's: the step is the Board's (no user's authority), the recorder on the timeline.
    reason = f"Revoked by the Village Board ({motion}) for a violation of its conditions: {reason.strip()} (§ 303-7D)"
    with transaction.atomic():
        _end_the_work(permit, Status.REVOKED, by=None, today=today, reason=reason)
        services.record_event(permit, by=by, reason=f"The Board's revocation recorded from its minutes: {motion}")
    return permit


def record_closing_inspection(
    *, permit: Permit, by, passed: bool, notes: str = "", today: date | None = None
) -> StreetPrivilege:
    """§ 303-7D(7): the closing inspection of the space: vacated, cleaned of rubbish and obstructions, safe for
    travel. Passed, the permit closes; failed, it stays open with the notes (the permittee's expense)."""
    require_role(by, *CLOSING_INSPECTORS, action="make the closing inspection (§ 303-7D(7))")
    today = today or timezone.localdate()
    sp = _sp(permit)
    if sp.closing_inspection_opened_on is None:
        _refuse(None, "not_open", "§ 303-7D(7)", "No closing inspection is open: the work has not ended")
    if not passed and not notes.strip():
        _refuse("notes", "required", "§ 303-7D(7)", "Say what is left to vacate, clean or make safe")
    with transaction.atomic():
        StreetPrivilege.objects.filter(pk=sp.pk).update(
            closing_inspected_on=today, closing_inspected_by=by, closing_passed=passed, closing_notes=notes.strip()
        )
        services.record_event(
            permit,
            by=by,
            reason=f"Closing inspection {'passed' if passed else 'failed'} (§ 303-7D(7))"
            + (f": {notes.strip()}" if notes.strip() else ""),
        )
        if passed:
            workflow.transition(
                permit, Status.CLOSED, by=by, today=today, reason="Closing inspection passed (§ 303-7D(7))"
            )
    return _sp(permit)


def end_terminated_privileges(*, today: date) -> tuple[int, int]:
    """§ 303-7E, the nightly job: a permit in force is told a week before its last day (once per last day), and
    after its last day it ends (expired) and its § 303-7D(7) closing inspection opens. Idempotent: a second run the
    same night finds nothing to do. Set-based: a few statements per chunk of permits."""
    due = list(
        Permit.objects.filter(
            kind=PermitKind.STREET_PRIVILEGE, status__in=IN_FORCE, expires_on__lte=today + rules.TERMINATION_WARNING
        )
        .select_related("applicant", "street_privilege")
        .order_by("pk")
    )
    ended = [p for p in due if rules.has_terminated(last_day=p.expires_on, today=today)]
    told = [
        p
        for p in due
        if not rules.has_terminated(last_day=p.expires_on, today=today)
        and rules.is_due_termination_notice(last_day=p.expires_on, today=today)
    ]
    done = workflow.transition_many(
        ended,
        Status.EXPIRED,
        by=None,
        today=today,
        reason_for=lambda permit: ENDED_REASON,
        where=Q(status__in=IN_FORCE, expires_on__lt=today),  # revoked, completed or renewed meanwhile: left alone
        prepare=lambda permits: permits.select_related("applicant"),
        after=lambda moved: _close_ended(moved, today=today),
    )
    for chunk in jobs.chunked(told):
        with transaction.atomic():
            marked = set(
                jobs.stamp_once(
                    StreetPrivilege, "termination_notice_for", {p.street_privilege.pk: p.expires_on for p in chunk}
                )
            )
            services.send_notices(
                [
                    (p, p.applicant.email, "street_privilege_terminating", {"permit": p})
                    for p in chunk
                    if p.street_privilege.pk in marked
                ]
            )
        done += len(marked)
    return len(due), done


ENDED_REASON = (
    "Ended three months after issue, or on the Building Inspector's date (§ 303-7E); closing inspection opened "
    "(§ 303-7D(7))"
)


def _close_ended(permits: list[Permit], *, today: date) -> None:
    """§ 303-7D(7), § 303-7E: the ended permits' closing inspections open and their permittees are told (a chunk)."""
    StreetPrivilege.objects.filter(
        permit_id__in=[p.pk for p in permits], closing_inspection_opened_on__isnull=True
    ).update(closing_inspection_opened_on=today)
    services.send_notices([(p, p.applicant.email, "street_privilege_ended", {"permit": p}) for p in permits])


# --- § 303-7F: a lawfully obstructed sidewalk the adjoining owner does not clear ---------------------------------


def report_obstruction(*, permit: Permit, parcel, description: str, by) -> SidewalkObstruction:
    """§ 303-7F: a Village official reports a sidewalk obstructed under the permit, for the Board to notify the owner
    or occupant of the adjoining parcel."""
    require_role(by, *OBSTRUCTION_REPORTERS, action="report sidewalk obstructions")
    errors = []
    if parcel is None:
        errors.append(
            Violation("parcel", "required", "§ 303-7F", "Choose the parcel adjoining the sidewalk (§ 303-7F)")
        )
    if not description.strip():
        errors.append(Violation("description", "required", "§ 303-7F", "Describe the obstruction (§ 303-7F)"))
    raise_if_broken(errors)
    with transaction.atomic():
        obstruction = SidewalkObstruction.objects.create(
            privilege=_sp(permit),
            parcel=parcel,
            description=description.strip(),
            reported_by=by,
            reported_at=timezone.now(),
        )
        services.record_event(
            permit,
            by=by,
            reason=f"Sidewalk obstruction reported at {parcel.site_address}: awaits the Board's notice (§ 303-7F)",
        )
    return obstruction


def give_obstruction_notice(*, obstruction: SidewalkObstruction, motion, by, today: date | None = None):
    """§ 303-7F: by a recorded motion the Village Board notifies the adjoining owner or occupant to remove the
    obstruction within 24 hours (the owner of record is written to: emailed, or a letter the clerk mails). The 24
    hours run from the notice given, not from the motion: permits.street_privilege.notice_clocks stamps `noticed_at`
    when the email goes or the letter's mailing is recorded."""
    require_role(by, *BOARD_RECORDERS, action="record the Board's decisions")
    today = today or timezone.localdate()
    _board_errors(motion, clause=Clause.PRIVILEGE_OBSTRUCTION_NOTICE, subject=obstruction, today=today)
    S = SidewalkObstruction.Status
    with transaction.atomic():
        change_state(
            obstruction,
            to=S.NOTICED,
            from_states={S.REPORTED},
            by=by,
            reason="Noticed by the Board's motion: to be removed within 24 hours of the notice (§ 303-7F)",
            refusal=Violation(None, "not_reported", "§ 303-7F", "The notice was already given (§ 303-7F)"),
            notice_motion=motion,
        )
        permit = obstruction.privilege.permit
        services.notify_owner(
            obstruction.parcel,
            template="street_privilege_obstruction_notice",
            context={"obstruction": obstruction},
            permit=permit,
            record=obstruction,
        )
    obstruction.refresh_from_db()
    return obstruction


def record_owner_removal(*, obstruction: SidewalkObstruction, by) -> SidewalkObstruction:
    """§ 303-7F: the owner or occupant removed the obstruction: nothing is charged."""
    require_role(by, *OBSTRUCTION_REPORTERS, action="record sidewalk obstructions")
    S = SidewalkObstruction.Status
    try:
        change_state(
            obstruction,
            to=S.REMOVED_BY_OWNER,
            from_states={S.REPORTED, S.NOTICED},
            by=by,
            reason="Removed by the owner or occupant: nothing is charged (§ 303-7F)",
            removed_at=timezone.now(),
        )
    except IllegalTransition:  # already removed (by the owner or the Village): nothing to record
        pass
    return obstruction


def record_village_removal(
    *, obstruction: SidewalkObstruction, by, cost, removed_at: datetime | None = None, today: date | None = None
) -> SidewalkObstruction:
    """§ 303-7F: the owner did not remove it within 24 hours of the Board's notice, so the Village did; the cost is
    returned to the Clerk-Treasurer and becomes a special charge against the abutting parcel, through the core
    ledger (billed now; unpaid, it goes on the next annual tax roll)."""
    from permits.ledger.models import SpecialCharge
    from permits.ledger.services import add_charge

    require_role(by, *REMOVAL_RECORDERS, action="record the Village's removal of an obstruction (§ 303-7F)")
    removed_at = removed_at or timezone.now()
    today = today or timezone.localdate(removed_at)
    amount = _decimal(cost)
    errors = list(rules.removal_violations(noticed_at=obstruction.noticed_at, removed_at=removed_at))
    errors += [v for v in rules.cost_line_violations(description="removal", amount=amount) if v.field == "amount"]
    raise_if_broken(
        [Violation("cost" if v.field == "amount" else v.field, v.code, v.citation, v.message) for v in errors]
    )
    S = SidewalkObstruction.Status
    with transaction.atomic():
        locked = (
            SidewalkObstruction.objects.select_for_update()
            .select_related("parcel", "privilege__permit")
            .get(pk=obstruction.pk)
        )
        if locked.status != S.NOTICED:
            _refuse(None, "not_noticed", "§ 303-7F", f"The obstruction is {locked.get_status_display().lower()}")
        charge = add_charge(
            parcel=locked.parcel,
            source=SpecialCharge.Source.OBSTRUCTION_REMOVAL,
            route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
            amount=amount,
            incurred_on=timezone.localdate(removed_at),
            description=f"Removal by the Village of a sidewalk obstruction at {locked.parcel.site_address} "
            f"(street privilege permit {locked.privilege.permit.number})",
            citation="§ 303-7F",
            work_record=locked,
            by=by,
            today=today,
        )
        change_state(
            locked,
            to=S.VILLAGE_REMOVED,
            from_states={S.NOTICED},
            by=by,
            reason=f"Removed by the Village; ${amount} charged as {charge.number} (§ 303-7F)",
            removed_at=removed_at,
            cost=amount,
            charge=charge,
        )
        services.record_event(
            locked.privilege.permit,
            by=by,
            reason=f"Obstruction removed by the Village; ${amount} charged to "
            f"{locked.parcel.tax_key} as {charge.number} (§ 303-7F)",
        )
    obstruction.refresh_from_db()
    return obstruction
