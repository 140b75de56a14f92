"""Verbs for sidewalk permits (§ 303-3C, § 303-3D), surveys of defective sidewalks (§ 303-3E) and the Board's
orders under Wis. Stat. § 66.0907 (§ 303-3B(3)). Views, the admin, the API and the demo loader all call these.

Each verb takes keyword-only arguments, checks who acts, asks sidewalks/ordinance.py for the rules, and writes
in one transaction. A refusal raises RulesBroken (each violation with its field, code and section) and stores
nothing. Every change of an order's status goes through permits.state.change_state (a
StateChange row citing the section; the order page shows the trail); IllegalTransition when the order is no longer in
a status the change may leave (withdrawn meanwhile, adopted twice, another clerk acted first).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from permits import street_work, village_contracts, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.fees import fee_in_force
from permits.models import Document, Parcel, Permit, PermitKind, Status
from permits.roles import Role, has_role
from permits.services import (
    Filing,
    apply_for,
    next_number,
    notify_owner,
    record_event,
    send_notice,
    upload_document,
)
from permits.state import change_state
from sidewalks import rules as ordinance
from sidewalks.models import (
    BoardWaiver,
    MinorRepairAuthority,
    MinorSidewalkRepair,
    SidewalkInspection,
    SidewalkOrder,
    SidewalkPermit,
    SidewalkSurvey,
    SurveyBlock,
)
from sidewalks.models.sidewalk import Standing, Work

FEE_CODE = "sidewalk"  # § 303-3C: "The fee charged for such permits shall be as prescribed in Chapter 167, Fees."
FILING = Filing(PermitKind.SIDEWALK, FEE_CODE, "§ 303-3C", required_by="§ 303-3C")
REPLACE_FEE_CODE = "sidewalk_replace_sqft"
REPAIR_FEE_CODE = "sidewalk_repair_block"
INSPECTING_ROLES = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)
SURVEYING_ROLES = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)
ORDER_CITATION = "§ 303-3B(2); Wis. Stat. § 66.0703"


def owner_period_days() -> int:
    """Wis. Stat. § 66.0907: the owner's period after service (20 days; verify the current text). A setting."""
    return int(getattr(settings, "SIDEWALK_OWNER_PERIOD_DAYS", ordinance.OWNER_WORK_PERIOD_DAYS))


# --- Waivers --------------------------------------------------------------------------------------------------------


def width_waiver_for(parcel: Parcel, today: date) -> BoardWaiver | None:
    """§ 303-3D(8)(c): the latest effective width-and-thickness waiver the Board adopted for `parcel`."""
    for waiver in (
        BoardWaiver.objects.filter(parcel=parcel, kind=BoardWaiver.Kind.WIDTH_THICKNESS, adopted_on__lte=today)
        .select_related("motion")
        .order_by("-adopted_on", "-pk")
    ):
        if waiver.is_effective:
            return waiver
    return None


def cold_weather_waiver_for(permit: Permit, today: date) -> BoardWaiver | None:
    """§ 303-3D(9): the emergency-replacement waiver of the 35 °F / frozen-subgrade rule the Board granted for this
    one `permit`, in force on `today` (adopted on or before it, not past its last day). A waiver granted for another
    permit, even on the same parcel, excuses nothing here."""
    for waiver in BoardWaiver.objects.filter(
        permit=permit, kind=BoardWaiver.Kind.COLD_WEATHER, adopted_on__lte=today, ends_on__gte=today
    ).select_related("motion"):
        if waiver.is_effective and ordinance.cold_weather_waiver_in_force(
            adopted_on=waiver.adopted_on, ends_on=waiver.ends_on, on=today
        ):
            return waiver
    return None


def diagonal_joint_approval_for(permit: Permit, today: date) -> BoardWaiver | None:
    """§ 303-3D(6): the Board's approval of diagonal joints for this `permit` (a carried motion, recorded by the
    clerk), adopted on or before `today`."""
    for waiver in BoardWaiver.objects.filter(
        permit=permit, kind=BoardWaiver.Kind.DIAGONAL_JOINTS, adopted_on__lte=today
    ).select_related("motion"):
        if waiver.is_effective:
            return waiver
    return None


WAIVER_CITATIONS = {
    BoardWaiver.Kind.WIDTH_THICKNESS: "§ 303-3D(8)(c)",
    BoardWaiver.Kind.COLD_WEATHER: "§ 303-3D(9)",
    BoardWaiver.Kind.DIAGONAL_JOINTS: "§ 303-3D(6)",
}


def waiver_permit_errors(*, kind: str, parcel: Parcel, permit, emergency: str = "", ends_on=None, adopted_on=None):
    """§ 303-3D(9), § 303-3D(6): a cold-weather waiver names one emergency, one sidewalk permit of the parcel and its
    last day; a diagonal-joint approval names its permit. A width waiver (§ 303-3D(8)(c)) is the parcel's."""
    if kind not in (BoardWaiver.Kind.COLD_WEATHER, BoardWaiver.Kind.DIAGONAL_JOINTS):
        return []
    cited = WAIVER_CITATIONS[kind]
    errors = []
    if kind == BoardWaiver.Kind.COLD_WEATHER:
        errors += ordinance.cold_weather_waiver_errors(
            permit_given=permit is not None, emergency=emergency, ends_on=ends_on, adopted_on=adopted_on
        )
    elif permit is None:
        message = "Diagonal joints are approved for one sidewalk permit: name it (§ 303-3D(6))."
        errors.append(Violation("permit", "permit_required", cited, message))
    if permit is not None and (permit.kind != PermitKind.SIDEWALK or permit.parcel_id != parcel.pk):
        message = f"The permit must be a sidewalk permit for {parcel.site_address} ({cited})."
        errors.append(Violation("permit", "other_parcel_permit", cited, message))
    return errors


def waiver_errors(*, kind: str, motion) -> list[Violation]:
    """What is wrong with a Board waiver: it is decided by a recorded motion that carried. A § 303-3D(8)(c) waiver
    needs three-fourths of the entire Board, counted against the seats on the roster on the meeting date (6 of 7,
    vacant seats included); a vote short of it is not a waiver. A § 303-3D(9) waiver, a majority of those present."""
    from permits.board.models import Motion

    if kind not in BoardWaiver.Kind.values:
        return [Violation("kind", "waiver_kind", "", "Choose the kind of waiver.")]
    cited = WAIVER_CITATIONS[kind]
    if motion is None:
        return [Violation("motion", "no_motion", cited, f"Name the Board's motion that adopted the waiver ({cited}).")]
    if kind == BoardWaiver.Kind.WIDTH_THICKNESS and motion.rule != Motion.Rule.THREE_FOURTHS_ENTIRE:
        message = (
            "A width and thickness waiver is adopted by three-fourths of the entire Board: the motion was not put to "
            "that vote (§ 303-3D(8)(c))."
        )
        return [Violation("motion", "not_three_fourths_vote", cited, message)]
    if not motion.carried:
        if kind == BoardWaiver.Kind.WIDTH_THICKNESS:
            message = (
                f"A three-fourths vote of the entire Board needs {motion.needed} ayes of the {motion.seats} seats on "
                f"the roster on {motion.held_on:%B %-d, %Y}; {motion.ayes} is not enough (§ 303-3D(8)(c))."
            )
        else:
            message = f"The motion did not carry: it waived nothing ({cited})."
        return [Violation("motion", "motion_not_carried", cited, message)]
    if not motion.resolution_number:
        message = "The motion has no resolution number: record it on the motion first."
        return [Violation("motion", "no_resolution_number", cited, message)]
    if BoardWaiver.objects.filter(motion=motion).exists():
        message = f"Resolution {motion.resolution_number} is already recorded as a waiver."
        return [Violation("motion", "waiver_recorded", cited, message)]
    return []


def record_board_waiver(
    *,
    kind: str,
    parcel: Parcel,
    motion,
    reason: str = "",
    by,
    permit: Permit | None = None,
    emergency: str = "",
    ends_on: date | None = None,
) -> BoardWaiver:
    """Record a waiver the Board adopted by `motion` (§ 303-3D(8)(c), § 303-3D(9), § 303-3D(6)). The vote, the
    seats and the date are the motion's, counted from the roster and the attendance (permits.board), never typed. A
    cold-weather waiver is for one emergency on one permit until its last day; a diagonal-joint approval, one permit."""
    require_role(by, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
    raise_if_broken(
        waiver_errors(kind=kind, motion=motion)
        + waiver_permit_errors(
            kind=kind,
            parcel=parcel,
            permit=permit,
            emergency=emergency,
            ends_on=ends_on,
            adopted_on=getattr(motion, "held_on", None),
        )
    )
    keeps_permit = kind in (BoardWaiver.Kind.COLD_WEATHER, BoardWaiver.Kind.DIAGONAL_JOINTS)
    return BoardWaiver.objects.create(
        kind=kind,
        parcel=parcel,
        permit=permit if keeps_permit else None,
        emergency=emergency.strip() if kind == BoardWaiver.Kind.COLD_WEATHER else "",
        ends_on=ends_on if kind == BoardWaiver.Kind.COLD_WEATHER else None,
        motion=motion,
        resolution_number=motion.resolution_number,
        adopted_on=motion.held_on,
        ayes=motion.ayes,
        nays=motion.nays,
        seats=motion.seats,
        reason=reason,
        recorded_by=by,
    )


def request_board_waiver(
    *, kind: str, parcel: Parcel, reason: str, by, permit: Permit | None = None, ends_on: date | None = None
):
    """Put a § 303-3D(8)(c) or § 303-3D(9) waiver to the Board: it waits on the clerk's Board queue until a recorded
    motion decides it (sidewalks.board_matters). A cold-weather waiver is asked for one permit, for the emergency the
    reason describes, until `ends_on`."""
    from sidewalks.models import WaiverRequest

    require_role(by, Role.CLERK, action="put matters to the Board (the Clerk-Treasurer does)")
    errors = []
    if kind == BoardWaiver.Kind.COLD_WEATHER:
        errors += waiver_permit_errors(kind=kind, parcel=parcel, permit=permit, emergency=reason, ends_on=ends_on)
        errors = [v for v in errors if v.field != "emergency"]  # the reason is the emergency, checked below
    if kind not in (BoardWaiver.Kind.WIDTH_THICKNESS, BoardWaiver.Kind.COLD_WEATHER):
        message = "Choose the kind of waiver (§ 303-3D(8)(c) or § 303-3D(9))."
        errors.append(Violation("kind", "waiver_kind", "", message))
    if not reason.strip():
        cited = WAIVER_CITATIONS.get(kind, "§ 303-3D")
        errors.append(Violation("reason", "reason_required", cited, f"Say why the waiver is asked ({cited})."))
    raise_if_broken(errors)
    cold = kind == BoardWaiver.Kind.COLD_WEATHER
    return WaiverRequest.objects.create(
        kind=kind,
        parcel=parcel,
        reason=reason.strip(),
        permit=permit if cold else None,
        ends_on=ends_on if cold else None,
        requested_by=by,
    )


# --- Permits --------------------------------------------------------------------------------------------------------


def application_violations(*, parcel: Parcel, today: date, **fields) -> list[Violation]:
    """Every § 303-3 rule the application breaks, for the form, the API and the service alike, with the registers'
    rules on the street (§ 303-1A(1): a recorded grade; § 303-3D(11): the Board's higher standard; permits.street_work)
    and § 303-10 (no vault or cistern)."""
    waiver = width_waiver_for(parcel, today)
    registers = street_work.work_violations(
        kind=PermitKind.SIDEWALK, street=parcel.street, parcel=parcel, today=today, fields=fields
    )
    return registers + ordinance.check_application(
        applied_on=today,
        land_use=parcel.land_use,
        work=fields.get("work"),
        width_feet=fields.get("width_feet"),
        thickness_inches=fields.get("thickness_inches"),
        driveway_thickness_inches=fields.get("driveway_thickness_inches"),
        existing_width_feet=fields.get("existing_width_feet"),
        material=fields.get("material"),
        pour_date=fields.get("pour_date"),
        village_contract=bool(fields.get("village_contract")),
        concrete_psi=fields.get("concrete_psi"),
        sacks_per_cubic_yard=fields.get("sacks_per_cubic_yard"),
        width_waived=waiver is not None,
        vault_or_cistern=bool(fields.get("vault_or_cistern")),
    )


def parcel_by_tax_key(tax_key: str) -> Parcel | None:
    return Parcel.objects.select_related("street").filter(tax_key=tax_key.strip()).first()


def filing_violations(values: dict, *, today: date) -> list[Violation]:
    """The § 303-3 rules an application breaks, given as apply_for_sidewalk_permit's arguments (the API's fields):
    none to check without its parcel."""
    parcel = values.get("parcel")
    if parcel is None:
        return []
    not_ruled = (
        "parcel",
        "organization",
        "frontage_feet",
        "driveway_length_feet",
        "work_description",
        "standing",
        "authorization",
    )
    return application_violations(parcel=parcel, today=today, **{k: v for k, v in values.items() if k not in not_ruled})


def apply_for_sidewalk_permit(
    *,
    applicant,
    parcel: Parcel,
    work: str,
    frontage_feet,
    width_feet,
    thickness_inches,
    material: str = ordinance.CONCRETE,
    driveway_length_feet=Decimal("0"),
    driveway_thickness_inches=None,
    existing_width_feet=None,
    concrete_psi: int | None = None,
    sacks_per_cubic_yard=None,
    pour_date: date | None = None,
    village_contract: bool = False,
    work_description: str = "",
    organization=None,
    today: date | None = None,
    vault_or_cistern: bool = False,
    standing: str = ordinance.OWNER,
    authorization=None,
) -> Permit:
    """§ 303-3C: apply for a sidewalk permit and submit it with the Chapter 167 fee. All § 303-3D rules an
    application can break are checked at once; nothing is stored when one is broken. `standing` is on what footing
    the filer files (the owner, the owner's agent, the Village's contractor); an agent's `authorization`, the owner's
    written authorization, is kept with the permit for the clerk to accept before issue (standing_violations)."""
    today = today or timezone.localdate()
    if standing not in Standing.values:
        raise_if_broken(ordinance.check_standing(standing=standing, owner_of_record=False, accepted=False))
    fields = dict(
        work=work,
        width_feet=width_feet,
        thickness_inches=thickness_inches,
        material=material,
        driveway_thickness_inches=driveway_thickness_inches,
        existing_width_feet=existing_width_feet,
        concrete_psi=concrete_psi,
        sacks_per_cubic_yard=sacks_per_cubic_yard,
        pour_date=pour_date,
        village_contract=village_contract,
    )

    def detail(permit: Permit) -> SidewalkPermit:
        return SidewalkPermit.objects.create(
            permit=permit,
            parcel=parcel,
            frontage_feet=frontage_feet,
            driveway_length_feet=driveway_length_feet or Decimal("0"),
            waiver=width_waiver_for(parcel, today),
            standing=standing,
            **fields,
        )

    with transaction.atomic():
        permit = apply_for(
            FILING,
            applicant=applicant,
            organization=organization,
            today=today,
            # § 303-10: what the application shows is checked; a refused vault is never stored, so it is not a column.
            rules=lambda: application_violations(
                parcel=parcel, today=today, vault_or_cistern=vault_or_cistern, **fields
            ),
            detail=detail,
            parcel=parcel,
            street=parcel.street,
            location_description=f"Sidewalk in front of {parcel.site_address} ({frontage_feet} ft of frontage)",
            work_description=work_description or dict(Work.choices).get(work, ""),
            start_date=pour_date,
        )
        if authorization is not None:
            upload_document(permit=permit, kind=Document.Kind.OTHER, upload=authorization, by=applicant)
    return permit


def check_back_office_edit(permit: Permit, values: dict, *, today: date) -> list[Violation]:
    """The rules a back-office edit of a sidewalk permit must still meet: its dates in order, and, moved to another
    street, that street's recorded grade (§ 303-1A(1), permits.street_work)."""
    from permits.admin.edits import date_order_violations

    street = values.get("street")
    found = date_order_violations(
        start_date=values.get("start_date"), end_date=values.get("end_date"), citation="§ 303-3C"
    )
    if street is not None and getattr(street, "pk", None) != permit.street_id:
        found += street_work.work_violations(
            kind=PermitKind.SIDEWALK, street=street, parcel=values.get("parcel"), today=today
        )
    return found


# --- § 303-3C: who files, § 303-3D(11) at issue ------------------------------------------------------------------


def is_owner_of_record(user, parcel: Parcel) -> bool:
    """The account is linked to the parcel as its owner of record (a parcel link the Clerk-Treasurer approved against
    the tax roll, permits/applicant/parcel_links.py)."""
    return user is not None and parcel.owners.filter(pk=user.pk).exists()


def standing_violations(permit: Permit, today: date | None = None) -> list[Violation]:
    """§ 303-3C: the filer's standing, asked before issue on every path (sidewalks.workflow.blockers): the owner of
    record's linked account, an agent whose written authorization the clerk accepted, or the Village's contractor
    whose contract the clerk confirmed in the register (sidewalks.rules.check_standing), a contract that must still
    cover the parcel on the day of issue (permits.village_contracts)."""
    detail = getattr(permit, "sidewalk", None)
    if detail is None:
        return []
    errors = ordinance.check_standing(
        standing=detail.standing,
        owner_of_record=is_owner_of_record(permit.applicant, detail.parcel),
        accepted=detail.standing_accepted_at is not None,
        owner_name=detail.parcel.owner_name,
    )
    if not errors and detail.standing == ordinance.VILLAGE_CONTRACTOR:
        errors = village_contracts.contract_errors(
            detail.standing_reference,
            detail.parcel,
            today or timezone.localdate(),
            organization=permit.organization,
            field="standing",
        )
    return errors


def accept_standing(*, permit: Permit, by, document: Document | None = None, reference: str = "") -> SidewalkPermit:
    """§ 303-3C: the Clerk-Treasurer accepts an agent's standing on the owner's written authorization uploaded with
    the application (`document`), or the Village's contractor's on the contract's number in the Village's contract
    register (`reference`). An owner's standing is the parcel link, not accepted here. Recorded on the timeline."""
    require_role(by, Role.CLERK, action="accept a filer's standing (the Clerk-Treasurer does, § 303-3C)")
    detail = permit.sidewalk
    errors = []
    if permit.status not in (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED):
        message = f"{permit.number} is {permit.get_status_display().lower()}: standing is accepted before issue."
        errors.append(Violation(None, "not_under_review", "§ 303-3C", message))
    if detail.standing == ordinance.OWNER:
        message = (
            "An owner's standing is the account's link to the parcel, approved against the tax roll: nothing to "
            "accept here (§ 303-3C)."
        )
        errors.append(Violation("standing", "owner_standing_is_link", "§ 303-3C", message))
    elif detail.standing == ordinance.AGENT:
        if document is None or document.permit_id != permit.pk:
            message = (
                "Choose the owner's written authorization uploaded with this application; without one an agent's "
                "standing cannot be accepted (§ 303-3C)."
            )
            errors.append(Violation("document", "authorization_required", "§ 303-3C", message))
    elif not reference.strip():
        message = "Give the number of the Village's contract in the register for this work (§ 303-3C)."
        errors.append(Violation("reference", "contract_required", "§ 303-3C", message))
    else:
        errors += village_contracts.contract_errors(
            reference, detail.parcel, timezone.localdate(), organization=permit.organization
        )
    raise_if_broken(errors)
    agent = detail.standing == ordinance.AGENT
    detail.standing_document = document if agent else None
    detail.standing_reference = "" if agent else reference.strip()[:80]
    detail.standing_accepted_by = by
    detail.standing_accepted_at = timezone.now()
    with transaction.atomic():
        detail.save(
            update_fields=["standing_document", "standing_reference", "standing_accepted_by", "standing_accepted_at"]
        )
        what = (
            f"the owner's written authorization ({document.original_name})"
            if agent
            else f"Village contract {detail.standing_reference}"
        )
        record_event(
            permit, by=by, reason=f"{detail.get_standing_display().split(' (')[0]}: accepted on {what} (§ 303-3C)"
        )
    return detail


def issue_violations(permit: Permit, today: date) -> list[Violation]:
    """What refuses the issue of a sidewalk permit besides the fee (sidewalks.workflow.blockers, every path): the
    filer's standing (§ 303-3C) and the Board's higher standard in force on the day of issue (§ 303-3D(11))."""
    detail = getattr(permit, "sidewalk", None)
    if detail is None:
        return []
    return [
        *standing_violations(permit, today),
        *higher_standard_violations(
            detail,
            today,
            width_feet=("width_feet", detail.width_feet),
            thickness_inches=("thickness_inches", detail.thickness_inches),
            driveway_thickness_inches=("driveway_thickness_inches", detail.driveway_thickness_inches),
        ),
    ]


def issue_sidewalk_permit(*, permit: Permit, by, today: date | None = None, pour_date: date | None = None) -> Permit:
    """§ 303-3C: the Clerk-Treasurer issues the permit: review, approval and issue through the workflow, once the
    Chapter 167 fee is paid and the planned pour is at least three days after today (the permit is OBTAINED three
    days before the work). `pour_date`, when given, is the new planned pour agreed with the applicant; it is checked
    by the same rule and recorded on the timeline."""
    today = today or timezone.localdate()
    require_role(by, Role.CLERK, action="issue sidewalk permits (the Clerk-Treasurer does, § 303-3C)")
    if permit.kind != PermitKind.SIDEWALK:
        raise RulesBroken.one(None, "not_sidewalk_permit", "", "This is not a sidewalk permit.")
    if permit.balance_due > 0:
        raise RulesBroken.one(
            "amount",
            "fee_unpaid",
            "§ 303-3C",
            f"Record the fee payment of ${permit.balance_due} before issuing the permit (§ 303-3C, Chapter 167).",
        )
    steps = {
        Status.SUBMITTED: (Status.UNDER_REVIEW, "Clerk reviewing the sidewalk application"),
        Status.UNDER_REVIEW: (Status.APPROVED, "Meets § 303-3D as applied for"),
        Status.APPROVED: (Status.ISSUED, "Sidewalk permit issued by the Clerk-Treasurer (§ 303-3C)"),
    }
    if permit.status not in steps:
        raise RulesBroken.one(
            None,
            "not_issuable",
            "§ 303-3C",
            f"{permit.number} is {permit.get_status_display().lower()}; it cannot be issued.",
        )
    detail = permit.sidewalk
    with transaction.atomic():
        if pour_date is not None and pour_date != detail.pour_date:
            raise_if_broken(
                ordinance.check_lead_time(
                    obtained_on=today, pour_date=pour_date, village_contract=detail.village_contract
                )
            )
            old = detail.pour_date
            SidewalkPermit.objects.filter(pk=detail.pk).update(pour_date=pour_date)
            Permit.objects.filter(pk=permit.pk).update(start_date=pour_date)
            detail.pour_date, permit.start_date = pour_date, pour_date
            record_event(
                permit,
                by=by,
                kind="note",
                reason=(
                    f"Planned pour moved from {old:%B %-d, %Y} to {pour_date:%B %-d, %Y} at issue (§ 303-3C)"
                    if old
                    else f"Planned pour set to {pour_date:%B %-d, %Y} at issue (§ 303-3C)"
                ),
            )
        # § 303-3C: workflow.blockers refuses the issue when the planned pour is sooner than three days from today,
        # the filer's standing does not hold, or the walk falls short of the Board's higher standard (§ 303-3D(11)).
        raise_if_broken(workflow_lead_time(permit, today) + issue_violations(permit, today))
        while permit.status in steps:
            to, reason = steps[permit.status]
            if to == Status.ISSUED:
                reason += f"; work may start on {ordinance.earliest_work_date(today):%B %-d, %Y} or later"
            workflow.transition(permit, to, by=by, reason=reason, today=today)
        send_notice(permit, to=permit.applicant.email, template="sidewalk_permit_issued", context={"permit": permit})
    return permit


def workflow_lead_time(permit: Permit, today: date) -> list[Violation]:
    """§ 303-3C, asked before the first step so that a too-soon pour refuses the whole issue, not only its last step."""
    from sidewalks.workflow import lead_time_violations

    return lead_time_violations(permit, today)


def earliest_work_date_for(permit: Permit) -> date | None:
    """§ 303-3C: the first day work may start under an issued permit (None until it is issued)."""
    return ordinance.earliest_work_date(permit.issued_on) if permit.issued_on else None


def latest_inspections(permit: Permit) -> dict[str, SidewalkInspection]:
    """The last inspection of each stage (one query)."""
    latest: dict[str, SidewalkInspection] = {}
    for inspection in permit.sidewalk_inspections.select_related("inspector").order_by("inspected_at", "pk"):
        latest[inspection.stage] = inspection
    return latest


def inspection_violations(*, permit: Permit, stage: str, today: date, **m) -> list[Violation]:
    """The § 303-3D rules one inspection stage checks, from what the inspector measured."""
    S = SidewalkInspection.Stage
    detail = permit.sidewalk
    # § 303-3C: work seen under way before the third day after issue was begun too soon (every stage but curing,
    # which follows the pour already inspected).
    early = (
        ordinance.check_work_not_begun_early(
            issued_on=permit.issued_on, work_seen_on=today, village_contract=detail.village_contract
        )
        if stage != S.CURING
        else []
    )
    return early + _stage_violations(permit=permit, detail=detail, stage=stage, today=today, **m)


def _stage_violations(*, permit: Permit, detail, stage: str, today: date, **m) -> list[Violation]:
    S = SidewalkInspection.Stage
    if stage == S.SUBGRADE:
        return [
            *ordinance.check_grading(m.get("grading_inches") or 0),
            *ordinance.check_subgrade(
                depth_inches=m.get("subgrade_inches") or 0, material=m.get("subgrade_material", "")
            ),
        ]
    if stage == S.FORMS:
        material = m.get("form_material", "")
        as_built = []
        if m.get("form_width_feet") is not None:
            # § 303-3D(8) again, on the walk as formed: the width between the forms must meet the standard.
            as_built = ordinance.check_width_and_thickness(
                land_use=detail.parcel.land_use,
                work=detail.work,
                width_feet=m["form_width_feet"],
                thickness_inches=None,
                existing_width_feet=detail.existing_width_feet,
                waived=detail.waiver_id is not None,
            )
            as_built = [
                Violation("form_width_feet", v.code, v.citation, v.message) for v in as_built if v.field == "width_feet"
            ]
        return [
            *ordinance.check_forms(
                material="metal" if material.startswith("metal") else material,
                thickness_inches=m.get("form_thickness_inches"),
                depth_inches=m.get("form_depth_inches"),
                walk_thickness_inches=detail.thickness_inches,
                metal_approved=material == "metal_approved",
            ),
            *as_built,
            *ordinance.check_strip(m.get("strip_inches")),
            # § 303-3D(11) on the walk as formed: the width between the forms and their depth (the walk's thickness).
            *higher_standard_violations(
                detail,
                today,
                width_feet=("form_width_feet", m.get("form_width_feet")),
                thickness_inches=("form_depth_inches", m.get("form_depth_inches")),
            ),
        ]
    if stage == S.POUR:
        return [
            *ordinance.check_material(detail.material),
            *ordinance.check_concrete_mix(
                psi_at_28_days=m.get("concrete_psi"), sacks_per_cubic_yard=m.get("sacks_per_cubic_yard")
            ),
            *ordinance.check_pour_weather(
                forecast_low_f=m.get("forecast_low_f"),
                subgrade_frozen=bool(m.get("subgrade_frozen")),
                emergency_waiver=cold_weather_waiver_for(permit, today) is not None,
            ),
            *ordinance.check_joints(
                expansion_spacing_feet=m.get("expansion_spacing_feet") or 0,
                at_property_lines=bool(m.get("expansion_at_property_lines")),
                groove_spacing_feet=m.get("groove_spacing_feet"),
                # § 303-3D(6): "Sawing of joints is prohibited": the inspector answers yes or no at every pour.
                sawn=bool(m.get("sawn_joints")),
            ),
            *ordinance.check_subgrade_prepared(
                compacted=m.get("subgrade_compacted"), moistened=m.get("subgrade_moistened")
            ),
            *ordinance.check_joint_placement(
                meeting_joints=m.get("meeting_joints") or "",
                diagonal=m.get("diagonal_joints"),
                diagonal_approved=diagonal_joint_approval_for(permit, today) is not None,
            ),
            *ordinance.check_slope(m.get("slope_inches_per_foot") or 0),
            *driveway_approach_violations(detail, m.get("driveway_thickness_inches")),
            *higher_standard_violations(
                detail,
                today,
                driveway_thickness_inches=("driveway_thickness_inches", m.get("driveway_thickness_inches")),
            ),
        ]
    if stage == S.CURING:
        return ordinance.check_curing(m.get("curing_method", ""))
    message = "Choose the stage inspected: subgrade, forms, pour or curing (§ 303-3D)."
    raise RulesBroken.one("stage", "unknown_stage", "§ 303-3D", message)


def higher_standard_violations(detail: SidewalkPermit, today: date, **measured) -> list[Violation]:
    """§ 303-3D(11): the Board's higher standard for the parcel (obstructions/registers, read through
    permits.street_work), checked against what is given: each keyword is a standard's dimension (width_feet,
    thickness_inches, driveway_thickness_inches) mapped to (the field to report it on, the value). At issue the values
    are the permit's; at an inspection, the walk as formed and poured. A value not given is not checked."""
    fields = {name: value for name, (_, value) in measured.items()}
    found = street_work.work_violations(
        kind=PermitKind.SIDEWALK, street=detail.parcel.street, parcel=detail.parcel, today=today, fields=fields
    )
    return [
        Violation(measured[v.field][0], v.code, v.citation, v.message)
        for v in found
        if v.citation == "§ 303-3D(11)" and v.field in measured
    ]


def driveway_approach_violations(detail: SidewalkPermit, measured) -> list[Violation]:
    """§ 303-3D(8)(a), (b): across driveway approaches the walk is at least 6 inches (residential) or 7 inches
    (commercial, industrial) thick. A permit whose walk crosses a driveway approach (driveway_length_feet > 0) has the
    thickness measured at the pour; a missing measurement fails the inspection, it is not assumed."""
    crosses = (detail.driveway_length_feet or 0) > 0
    if measured is None:
        if not crosses:
            return []
        return [
            Violation(
                "driveway_thickness_inches",
                "required",
                "§ 303-3D(8)",
                "Measure the thickness across the driveway approach: this walk crosses one "
                f"({detail.driveway_length_feet} ft) and § 303-3D(8) sets its minimum.",
            )
        ]
    return [
        v
        for v in ordinance.check_width_and_thickness(
            land_use=detail.parcel.land_use,
            work=detail.work,
            width_feet=None,
            thickness_inches=None,
            driveway_thickness_inches=measured,
        )
        if v.field == "driveway_thickness_inches"
    ]


# What an inspector measures at each stage (the form shows these; the service accepts nothing else).
STAGE_FIELDS = {
    SidewalkInspection.Stage.SUBGRADE: ["grading_inches", "subgrade_inches", "subgrade_material"],
    SidewalkInspection.Stage.FORMS: [
        "form_material",
        "form_thickness_inches",
        "form_depth_inches",
        "form_width_feet",
        "strip_inches",
    ],
    SidewalkInspection.Stage.POUR: [
        "subgrade_compacted",
        "subgrade_moistened",
        "concrete_psi",
        "sacks_per_cubic_yard",
        "forecast_low_f",
        "air_temperature_f",
        "subgrade_frozen",
        "expansion_spacing_feet",
        "expansion_at_property_lines",
        "groove_spacing_feet",
        "sawn_joints",
        "meeting_joints",
        "diagonal_joints",
        "slope_inches_per_foot",
        "driveway_thickness_inches",
    ],
    SidewalkInspection.Stage.CURING: ["curing_method"],
}
MEASUREMENTS = tuple(name for names in STAGE_FIELDS.values() for name in names)


def record_inspection(
    *,
    permit: Permit,
    stage: str,
    by,
    other_defect: str = "",
    notes: str = "",
    inspected_at: datetime | None = None,
    **measurements,
) -> SidewalkInspection:
    """A DPW inspector logs one inspection. The rules decide pass or fail; the inspector may also fail it for a
    defect the measurements do not show. A failed curing suspends the work (§ 303-3D(10))."""
    require_role(
        by, *INSPECTING_ROLES, action="inspect sidewalk work (DPW inspectors and the Director of Public Works do)"
    )
    if permit.status not in (Status.ISSUED, Status.ACTIVE):
        raise RulesBroken.one(
            None,
            "not_issued",
            "§ 303-3C",
            f"{permit.number} is {permit.get_status_display().lower()}: only issued work is inspected.",
        )
    inspected_at = inspected_at or timezone.now()
    today = timezone.localdate(inspected_at)
    unknown = set(measurements) - set(MEASUREMENTS)
    if unknown:
        raise TypeError(f"Unknown measurements: {sorted(unknown)}")
    violations = inspection_violations(permit=permit, stage=stage, today=today, **measurements)
    findings = [v.message for v in violations]
    citations = sorted({v.citation for v in violations})
    if other_defect.strip():
        findings.append(f"{other_defect.strip()} (§ 303-3D)")
        citations.append("§ 303-3D")
    result = SidewalkInspection.Result.FAILED if findings else SidewalkInspection.Result.PASSED
    stored = {k: v for k, v in measurements.items() if v is not None}
    if stage == SidewalkInspection.Stage.POUR and measurements.get("air_temperature_f") is not None:
        stored["traffic_free_until"] = ordinance.traffic_free_until(inspected_at, measurements["air_temperature_f"])
    with transaction.atomic():
        inspection = SidewalkInspection.objects.create(
            permit=permit,
            stage=stage,
            result=result,
            findings="\n".join(findings),
            citations=", ".join(citations),
            notes=notes,
            inspector=by,
            inspected_at=inspected_at,
            **stored,
        )
        if permit.status == Status.ISSUED:
            workflow.transition(permit, Status.ACTIVE, by=by, reason="Work under way: first inspection", today=today)
        label = inspection.get_stage_display().split(" (")[0]
        reason = f"{label} inspection {result}" + (f": {'; '.join(findings)}" if findings else "")
        record_event(permit, by=by, reason=reason)
        if stage == SidewalkInspection.Stage.CURING:
            suspended = result == SidewalkInspection.Result.FAILED
            SidewalkPermit.objects.filter(permit=permit).update(work_suspended=suspended)
            if suspended:
                record_event(permit, by=by, reason="Work suspended for failure to cure the concrete (§ 303-3D(10)).")
        # The applicant is told each inspection's result (passed or failed, with each failed rule).
        send_notice(
            permit,
            to=permit.applicant.email,
            template="sidewalk_inspection_result",
            context={"permit": permit, "inspection": inspection, "label": label, "findings": findings},
        )
    return inspection


def completion_blockers(permit: Permit) -> list[str]:
    """Stages not yet passed: a failed or missing inspection holds the permit open."""
    latest = latest_inspections(permit)
    blockers = []
    for stage in SidewalkInspection.Stage:
        inspection = latest.get(stage)
        if inspection is None:
            blockers.append(f"{stage.label}: not inspected yet")
        elif inspection.result != SidewalkInspection.Result.PASSED:
            blockers.append(f"{stage.label}: failed, {inspection.citations or 'see findings'}")
    return blockers


def complete_sidewalk_permit(*, permit: Permit, by, today: date | None = None) -> Permit:
    """Mark the work completed once every stage's latest inspection passed."""
    today = today or timezone.localdate()
    require_role(
        by,
        *INSPECTING_ROLES,
        Role.CLERK,
        action="complete a sidewalk permit (the Village's inspectors or the Clerk-Treasurer do)",
    )
    blockers = completion_blockers(permit)
    if blockers:
        message = "The permit stays open until every inspection has passed: " + "; ".join(blockers) + "."
        raise RulesBroken.one(None, "inspections_pending", "§ 303-3D", message)
    return workflow.transition(permit, Status.COMPLETED, by=by, reason="All sidewalk inspections passed", today=today)


# --- Surveys (§ 303-3E) ---------------------------------------------------------------------------------------------


def start_survey(
    *, street, by, surveyed_on: date | None = None, block_area_sqft=Decimal("20"), notes: str = ""
) -> SidewalkSurvey:
    require_role(by, *SURVEYING_ROLES, action="survey sidewalks (DPW inspectors and the Director of Public Works do)")
    return SidewalkSurvey.objects.create(
        street=street,
        inspector=by,
        surveyed_on=surveyed_on or timezone.localdate(),
        block_area_sqft=block_area_sqft,
        notes=notes,
    )


def record_block(
    *,
    survey: SidewalkSurvey,
    parcel: Parcel,
    block_number: int,
    vertical_inches=Decimal("0"),
    horizontal_inches=Decimal("0"),
    deterioration_inches=Decimal("0"),
    by,
) -> SurveyBlock:
    """Record (or re-measure) one block; § 303-3E(1) decides whether it is defective."""
    require_role(by, *SURVEYING_ROLES, action="survey sidewalks (DPW inspectors and the Director of Public Works do)")
    if survey.orders_proposed_on is not None:
        message = "Orders were already proposed from this survey: start a new survey to re-measure."
        raise RulesBroken.one(None, "orders_proposed", "§ 303-3E", message)
    measures = dict(
        vertical_inches=Decimal(vertical_inches or 0),
        horizontal_inches=Decimal(horizontal_inches or 0),
        deterioration_inches=Decimal(deterioration_inches or 0),
    )
    if any(v < 0 for v in measures.values()):
        raise RulesBroken.one(None, "negative_measurement", "", "Measurements cannot be negative.")
    defects = ordinance.block_defects(**measures)
    block, _ = SurveyBlock.objects.update_or_create(
        survey=survey,
        parcel=parcel,
        block_number=block_number,
        defaults={**measures, "defective": bool(defects), "defects": "; ".join(defects)[:300]},
    )
    return block


def survey_summary(survey: SidewalkSurvey):
    """Per parcel: total and defective blocks, and what § 303-3E proposes (one query)."""
    rows = (
        survey.blocks.values("parcel", "parcel__site_address", "parcel__tax_key")
        .annotate(total=Count("pk"), defective=Count("pk", filter=Q(defective=True)))
        .order_by("parcel__site_address")
    )
    return [
        {**row, "proposed": ordinance.proposed_work(defective_blocks=row["defective"], total_blocks=row["total"])}
        for row in rows
    ]


def propose_orders(*, survey: SidewalkSurvey, by, today: date | None = None) -> list[SidewalkOrder]:
    """§ 303-3E: one proposed order per parcel with a defective block: repair those blocks, or replace the whole
    walk when 80% or more are defective. Quantities and estimates use the unit prices in the fee schedule. Running
    it twice proposes nothing new (one order per survey and parcel, a database constraint)."""
    require_role(by, *SURVEYING_ROLES, Role.CLERK, action="propose sidewalk orders (DPW or the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    orders = []
    with transaction.atomic():
        existing = {o.parcel_id: o for o in survey.orders.all()}
        for row in survey_summary(survey):
            work = row["proposed"]
            if work is None:
                continue
            if row["parcel"] in existing:
                orders.append(existing[row["parcel"]])
                continue
            if work == ordinance.REPLACE:
                quantity, unit, code = row["total"] * survey.block_area_sqft, SidewalkOrder.Unit.SQFT, REPLACE_FEE_CODE
            else:
                quantity, unit, code = Decimal(row["defective"]), SidewalkOrder.Unit.BLOCK, REPAIR_FEE_CODE
            price = fee_in_force(code, today).amount
            orders.append(
                SidewalkOrder.objects.create(
                    number=next_number("SWO", today.year),
                    parcel_id=row["parcel"],
                    survey=survey,
                    reason=SidewalkOrder.Reason.DEFECTIVE,
                    work=work,
                    blocks_total=row["total"],
                    blocks_defective=row["defective"],
                    quantity=quantity,
                    unit=unit,
                    fee_code=code,
                    unit_price=price,
                    estimated_cost=ordinance.estimated_cost(quantity=quantity, unit_price=price),
                    findings=(
                        f"§ 303-3E(1): {row['defective']} of {row['total']} blocks defective"
                        + (
                            "; § 303-3E(2): 80% or more, the entire sidewalk is replaced"
                            if work == ordinance.REPLACE
                            else "; repair of the defective blocks"
                        )
                    ),
                    created_by=by,
                )
            )
        SidewalkSurvey.objects.filter(pk=survey.pk, orders_proposed_on__isnull=True).update(orders_proposed_on=today)
    survey.refresh_from_db(fields=["orders_proposed_on"])
    return orders


def order_illegal_sidewalk(
    *,
    parcel: Parcel,
    frontage_feet,
    width_feet,
    thickness_inches,
    material: str,
    driveway_thickness_inches=None,
    notes: str = "",
    predates_section: bool = False,
    by,
    today: date | None = None,
) -> SidewalkOrder:
    """§ 303-3F: propose that a walk built contrary to § 303-3 be replaced with a legal one. The measured walk must
    break a standard; the replacement is estimated at the conforming width from the fee schedule's unit price (a
    residential walk that predates the section at its own width, § 303-3D(8)(a))."""
    require_role(by, *SURVEYING_ROLES, Role.CLERK, action="propose sidewalk orders (DPW or the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    violations = ordinance.check_existing_sidewalk(
        land_use=parcel.land_use,
        width_feet=width_feet,
        thickness_inches=thickness_inches,
        material=material,
        driveway_thickness_inches=driveway_thickness_inches,
        waived=width_waiver_for(parcel, today) is not None,
        predates_section=predates_section,
    )
    if ordinance.is_legal_sidewalk(violations):
        message = (
            "As measured, this walk meets § 303-3D(4) and § 303-3D(8): it is a legal sidewalk, so § 303-3F does not "
            "apply."
        )
        raise RulesBroken.one(None, "legal_sidewalk", "§ 303-3F", message)
    work = ordinance.REPLACE if predates_section else ordinance.NEW
    least = ordinance.required_width_feet(land_use=parcel.land_use, work=work, existing_width_feet=width_feet)
    width = max(Decimal(width_feet), least)
    quantity = (Decimal(frontage_feet) * width).quantize(Decimal("0.1"))
    price = fee_in_force(REPLACE_FEE_CODE, today).amount
    findings = [f"§ 303-3F: built contrary to § 303-3. {v.message}" for v in violations]
    if notes.strip():
        findings.append(notes.strip())
    return SidewalkOrder.objects.create(
        number=next_number("SWO", today.year),
        parcel=parcel,
        reason=SidewalkOrder.Reason.ILLEGAL,
        work=ordinance.REPLACE,
        quantity=quantity,
        unit=SidewalkOrder.Unit.SQFT,
        fee_code=REPLACE_FEE_CODE,
        unit_price=price,
        estimated_cost=ordinance.estimated_cost(quantity=quantity, unit_price=price),
        findings="\n".join(findings),
        created_by=by,
    )


BOARD_ORDER_PRICE_CODE = "engineer_estimate"  # § 303-3A orders: the unit price is the engineer's estimate


def propose_board_order(
    *,
    parcel: Parcel,
    element: str,
    work: str,
    quantity,
    unit: str,
    unit_price,
    findings: str,
    highland_theresa_project: bool = False,
    by,
    today: date | None = None,
) -> SidewalkOrder:
    """§ 303-3A: "The Village Board may determine that sidewalks or curb and gutter may be constructed, laid, rebuilt
    or repaired": DPW or the Clerk-Treasurer proposes such an order (curb and gutter, or a sidewalk no survey found
    defective), with the engineer's unit price; the Board adopts it by resolution as any order (§ 303-3B(3)). Its
    cost is the owner's as a special assessment (§ 303-3B(2)); the Village's 50% only on the named project."""
    require_role(by, *SURVEYING_ROLES, Role.CLERK, action="propose Board orders (DPW or the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    errors = []
    if element not in SidewalkOrder.Element.values:
        message = "Choose what the Board orders: sidewalk, or curb and gutter (§ 303-3A)."
        errors.append(Violation("element", "unknown_element", "§ 303-3A", message))
    if work not in (ordinance.NEW, ordinance.REPAIR, ordinance.REPLACE):
        message = "Choose the work: construct, repair or rebuild (§ 303-3A)."
        errors.append(Violation("work", "unknown_work", "§ 303-3A", message))
    if unit not in SidewalkOrder.Unit.values:
        errors.append(Violation("unit", "unknown_unit", "§ 303-3A", "Choose the unit of the quantity."))
    quantity, unit_price = Decimal(str(quantity)), Decimal(str(unit_price))
    if quantity <= 0:
        errors.append(Violation("quantity", "not_positive", "§ 303-3A", "The quantity must be more than 0."))
    if unit_price < 0:
        errors.append(Violation("unit_price", "negative", "§ 303-3A", "The unit price cannot be negative."))
    if not findings.strip():
        message = "Say why the Board should order the work: it goes on the order served on the owner (§ 303-3A)."
        errors.append(Violation("findings", "required", "§ 303-3A", message))
    if highland_theresa_project and not has_role(by, Role.CLERK):
        # As in the back office: only the Clerk-Treasurer records that work belongs to the budgeted project.
        message = "Only the Clerk-Treasurer records work as part of the Highland Avenue / Theresa Lane project."
        errors.append(Violation("highland_theresa_project", "clerk_only", "§ 303-3B(2)", message))
    raise_if_broken(errors)
    return SidewalkOrder.objects.create(
        number=next_number("SWO", today.year),
        parcel=parcel,
        reason=SidewalkOrder.Reason.BOARD,
        element=element,
        work=work,
        quantity=quantity.quantize(Decimal("0.1")),
        unit=unit,
        fee_code=BOARD_ORDER_PRICE_CODE,
        unit_price=unit_price.quantize(Decimal("0.01")),
        estimated_cost=ordinance.estimated_cost(quantity=quantity, unit_price=unit_price),
        findings=f"§ 303-3A: {findings.strip()}",
        highland_theresa_project=highland_theresa_project,
        created_by=by,
    )


# --- Board orders (§ 303-3B(3), Wis. Stat. § 66.0907) ----------------------------------------------------------------


def adopt_orders(*, orders, motion, by, today: date | None = None) -> int:
    """§ 303-3B(3), § 303-3A: the Clerk-Treasurer records the Board's resolution adopting proposed orders. The Board
    acts only as a body: adoption comes from a carried motion of a held meeting under § 303-3B(3) (on the order
    itself, or a resolution naming no single order), with its resolution number; a typed number adopts nothing."""
    require_role(by, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    orders = list(orders)
    errors = []
    for order in orders or [None]:
        errors += board.board_action_errors(motion, clause=Clause.SIDEWALK_ORDER, on=today, subject=order)
    if motion is not None and not motion.resolution_number.strip():
        message = "The motion has no resolution number: record it on the motion first (§ 303-3B(3))."
        errors.append(Violation("motion", "no_resolution_number", "§ 303-3B(3)", message))
    raise_if_broken(list({(v.field, v.code, v.message): v for v in errors}.values()))
    done = 0
    number, adopted_on = motion.resolution_number.strip(), motion.held_on
    with transaction.atomic():  # all or none: an order adopted meanwhile (IllegalTransition) rolls the rest back
        for order in orders:
            change_state(
                order,
                to=SidewalkOrder.Status.ADOPTED,
                from_states={SidewalkOrder.Status.PROPOSED},
                by=by,
                reason=f"Adopted by the Board, resolution {number} of {adopted_on:%B %-d, %Y} (§ 303-3B(3))",
                resolution_number=number,
                adopted_on=adopted_on,
            )
            done += 1
    return done


def serve_order(*, order: SidewalkOrder, method: str, served_on: date, proof: str, by) -> SidewalkOrder:
    """Wis. Stat. § 66.0907: a copy of the resolution is served on the owner; the method, date and proof are recorded
    and the owner's deadline follows from the date of service."""
    require_role(by, Role.CLERK, action="record service of the Board's orders (the Clerk-Treasurer does)")
    raise_if_broken(ordinance.check_service(method=method, served_on=served_on, proof=proof))
    if order.adopted_on and served_on < order.adopted_on:
        message = "An order cannot be served before the Board adopted it (Wis. Stat. § 66.0907)."
        raise RulesBroken.one("served_on", "served_before_adopted", "Wis. Stat. § 66.0907", message)
    deadline = ordinance.owner_deadline(served_on, owner_period_days())
    with transaction.atomic():
        change_state(
            order,
            to=SidewalkOrder.Status.SERVED,
            from_states={SidewalkOrder.Status.ADOPTED},
            by=by,
            reason=(
                f"Served on the owner on {served_on:%B %-d, %Y}; the owner's deadline is "
                f"{deadline:%B %-d, %Y} (Wis. Stat. § 66.0907)"
            ),
            service_method=method,
            served_on=served_on,
            service_proof=proof.strip(),
            owner_deadline=deadline,
        )
        if order.parcel.owner_email:
            send_notice(None, to=order.parcel.owner_email, template="sidewalk_order_served", context={"order": order})
    return order


def record_owner_work(*, order: SidewalkOrder, permit: Permit, by) -> SidewalkOrder:
    """The owner did the ordered work under a sidewalk permit (§ 303-3C): the order is satisfied."""
    require_role(
        by,
        Role.CLERK,
        Role.DPW_DIRECTOR,
        Role.DPW_INSPECTOR,
        action="record that an order was carried out (Village staff do)",
    )
    errors = []
    if permit.kind != PermitKind.SIDEWALK or permit.parcel_id != order.parcel_id:
        message = "The permit must be a sidewalk permit for the same parcel as the order."
        errors.append(Violation("permit", "other_parcel_permit", "§ 303-3C", message))
    if permit.status not in (Status.COMPLETED, Status.CLOSED):
        message = f"{permit.number} is {permit.get_status_display().lower()}: the work must be completed and inspected."
        errors.append(Violation("permit", "work_not_completed", "§ 303-3C", message))
    raise_if_broken(errors)
    change_state(
        order,
        to=SidewalkOrder.Status.OWNER_DONE,
        from_states={SidewalkOrder.Status.ADOPTED, SidewalkOrder.Status.SERVED},
        by=by,
        reason=f"Done by the owner under sidewalk permit {permit.number} (§ 303-3C)",
        owner_permit=permit,
    )
    return order


def record_village_work(*, order: SidewalkOrder, cost, done_on: date, by) -> SidewalkOrder:
    """Wis. Stat. § 66.0907, § 303-3B(3): after the owner's period has run out, the Village does the work."""
    require_role(
        by,
        Role.CLERK,
        Role.DPW_DIRECTOR,
        action="record the Village's work (the Director of Public Works or the Clerk-Treasurer does)",
    )
    cost = Decimal(str(cost))
    errors = []
    if cost < 0:
        message = "The cost of the Village's work cannot be negative (§ 303-3B(3))."
        errors.append(Violation("cost", "negative_cost", "§ 303-3B(3)", message))
    if order.status == SidewalkOrder.Status.SERVED and not ordinance.village_may_do_work(
        served_on=order.served_on, today=done_on, period_days=owner_period_days()
    ):
        message = (
            f"The owner may do the work until {order.owner_deadline:%B %-d, %Y}; the Village may do it only after "
            "that (Wis. Stat. § 66.0907)."
        )
        errors.append(Violation("done_on", "owner_period_running", "Wis. Stat. § 66.0907", message))
    raise_if_broken(errors)
    cost = cost.quantize(Decimal("0.01"))
    change_state(
        order,
        to=SidewalkOrder.Status.VILLAGE_DONE,
        from_states={SidewalkOrder.Status.SERVED},
        by=by,
        reason=(
            f"Done by the Village on {done_on:%B %-d, %Y} at a cost of ${cost} after the owner's period "
            "(Wis. Stat. § 66.0907; § 303-3B(3))"
        ),
        village_cost=cost,
        village_done_on=done_on,
    )
    return order


def withdraw_order(*, order: SidewalkOrder, reason: str, by) -> SidewalkOrder:
    """The Board drops an order (not adopted, rescinded, or the walk was fixed otherwise); the reason is kept."""
    require_role(by, Role.CLERK, action="record the Board's decisions on sidewalk orders (the Clerk-Treasurer does)")
    if not reason.strip():
        message = "Say why the order is withdrawn: it stays on the public record (§ 303-3B(3))."
        raise RulesBroken.one("reason", "reason_required", "§ 303-3B(3)", message)
    S = SidewalkOrder.Status
    findings = f"{order.findings}\nWithdrawn: {reason.strip()}".strip()
    change_state(
        order,
        to=S.WITHDRAWN,
        from_states={S.PROPOSED, S.ADOPTED, S.SERVED},
        by=by,
        reason=f"Withdrawn by the Board: {reason.strip()}",
        findings=findings,
    )
    return order


def charge_order(*, order: SidewalkOrder, by, today: date | None = None):
    """§ 303-3B(2): the owner's share of the Village's cost of sidewalk, curb or gutter work is charged "as a special
    assessment": 100% of it, or 50% on the named Highland Avenue / Theresa Lane project only. It is recorded as a
    pending special assessment (Wis. Stat. § 66.0703) and levied, so billed, only by the Board's final resolution
    after the engineer's report, notice and hearing (permits.ledger.assessments). Charged once: the order holds a
    one-to-one link to its charge and moves only from "done by the Village"."""
    from permits.ledger.services import add_charge

    today = today or timezone.localdate()
    require_role(by, Role.CLERK, action="record special assessments (the Clerk-Treasurer does)")
    with transaction.atomic():
        order = SidewalkOrder.objects.select_for_update().select_related("parcel").get(pk=order.pk)
        if order.status != SidewalkOrder.Status.VILLAGE_DONE:
            message = f"Order {order.number} is {order.get_status_display().lower()}: nothing to charge."
            raise RulesBroken.one(None, "nothing_to_charge", "§ 303-3B(1)", message)
        amount = ordinance.owner_cost(order.village_cost, highland_theresa_project=order.highland_theresa_project)
        share = (
            "50% owner share, Highland Avenue / Theresa Lane project (§ 303-3B(2))"
            if order.highland_theresa_project
            else "100% owner's cost (§ 303-3B(2))"
        )
        charge = add_charge(
            parcel=order.parcel,
            source="sidewalk_repair",
            route="special_assessment_66_0703",
            amount=amount,
            incurred_on=order.village_done_on,
            description=(
                f"{order.get_element_display()}: {order.work_label.lower()} at {order.parcel.site_address} "
                f"by the Village, order {order.number}, resolution {order.resolution_number}; {share}"
            ),
            citation=ORDER_CITATION,
            work_record=order,
            by=by,
            today=today,
        )
        change_state(
            order,
            to=SidewalkOrder.Status.CHARGED,
            from_states={SidewalkOrder.Status.VILLAGE_DONE},
            by=by,
            reason=(
                f"Charged to the parcel: {charge.number}, ${charge.amount}, {charge.get_route_display()}; levied "
                "by the Board's final resolution after its hearing (Wis. Stat. § 66.0703; § 303-3B(2))"
            ),
            charge=charge,
        )
    return charge


# --- Minor repairs (§ 303-3B(3), Wis. Stat. § 66.0907) --------------------------------------------------------------


def set_minor_repair_authority(*, limit, effective_from: date, motion, by) -> MinorRepairAuthority:
    """§ 303-3B(3), Wis. Stat. § 66.0907: the Board requires minor repairs to be made at once, up to a cost it sets,
    by a carried motion under § 303-3B(3) held on or before the day it takes effect. The Clerk-Treasurer records it;
    the limit is the Board's, never a constant."""
    require_role(by, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
    cite = ordinance.MINOR_REPAIR_CITE
    errors = list(board.board_action_errors(motion, clause=Clause.SIDEWALK_ORDER, on=effective_from))
    try:
        limit = Decimal(str(limit)).quantize(Decimal("0.01"))
    except ArithmeticError:
        limit = Decimal("0")
    if limit <= 0:
        errors.append(Violation("limit", "not_positive", cite, f"The limit must be more than $0.00 ({cite})."))
    raise_if_broken(errors)
    return MinorRepairAuthority.objects.create(
        motion=motion, limit=limit, effective_from=effective_from, recorded_by=by
    )


def minor_repair_authority_on(day: date) -> MinorRepairAuthority | None:
    """The Board's minor-repair authority in force on `day`: the latest to take effect on or before it."""
    return (
        MinorRepairAuthority.objects.filter(effective_from__lte=day)
        .select_related("motion__item__meeting")
        .order_by("-effective_from", "-pk")
        .first()
    )


def record_minor_repair(
    *, parcel: Parcel, description: str, done_on: date, cost, by, today: date | None = None
) -> MinorSidewalkRepair:
    """§ 303-3B(3), Wis. Stat. § 66.0907: the Director of Public Works (or the Clerk-Treasurer) records a minor repair
    the Village made at once, without the order procedure, within the Board's limit in force that day. The statute
    needs no notice before the repair; afterwards the owner of record is told in writing what was repaired, under
    what authority and at what cost, and the cost is billed through the ledger as a special tax (Wis. Stat.
    § 66.0907): unpaid, it goes on the tax roll."""
    from permits.ledger.services import add_charge

    require_role(
        by, Role.DPW_DIRECTOR, Role.CLERK, action="record minor sidewalk repairs (DPW or the Clerk-Treasurer does)"
    )
    today = today or timezone.localdate()
    try:
        cost = Decimal(str(cost)).quantize(Decimal("0.01"))
    except ArithmeticError:
        raise RulesBroken.one("cost", "not_a_number", "", "The cost must be a number of dollars.") from None
    authority = minor_repair_authority_on(done_on)
    raise_if_broken(
        ordinance.minor_repair_errors(
            cost=cost,
            limit=authority.limit if authority else None,
            done_on=done_on,
            today=today,
            description=description,
        )
    )
    with transaction.atomic():
        number = next_number("MSR", today.year)
        charge = add_charge(
            parcel=parcel,
            source="sidewalk_minor_repair",
            route="special_tax_66_0907",
            amount=cost,
            incurred_on=done_on,
            description=f"Minor sidewalk repair at {parcel.site_address}, {number}: {description.strip()}"[:280],
            citation=ordinance.MINOR_REPAIR_CITE,
            by=by,
            today=today,
        )
        repair = MinorSidewalkRepair.objects.create(
            number=number,
            parcel=parcel,
            authority=authority,
            description=description.strip(),
            done_on=done_on,
            cost=cost,
            charge=charge,
            recorded_by=by,
        )
        # The charge names the repair it came from (the repair, numbered with it, needs the charge first).
        charge.work_content_type = ContentType.objects.get_for_model(repair)
        charge.work_object_id = repair.pk
        charge.save(update_fields=["work_content_type", "work_object_id"])
        notify_owner(
            parcel,
            template="sidewalk_minor_repair_notice",
            context={"repair": repair, "parcel": parcel, "charge": charge},
            record=repair,
        )
    return repair
