"""The registers' verbs (keyword-only, in a transaction, the one path for pages, admin, demo and shell) and the
selectors the sidewalk and street opening rules read (obstructions.registers.street_work_checks).

Only the Clerk-Treasurer records in the registers (§ 303-1A(1) "recorded by the Village Clerk-Treasurer in his
office"; § 303-1B; § 303-11). Every verb stores nothing when a rule refuses (RulesBroken, each violation citing its
section).
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from obstructions.registers import rules
from obstructions.registers.models import Grade, GradeApplication, HigherStandard, ImprovementRequest, TerraceApproval
from permits.access import require_role
from permits.board.clauses import Clause
from permits.board.services import board_action_errors, may_decide_for_the_board, require_board_or_designee
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.recording import create_once, recorded_by
from permits.roles import Role, has_role, roles_of
from permits.state import change_state

REGISTRAR = (Role.CLERK,)  # the Clerk-Treasurer keeps the registers
READERS = (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR, Role.BOARD, Role.PRESIDENT)


def may_read_registers(user) -> bool:
    return has_role(user, *READERS)


# --- Grades (§ 303-1A, § 303-1B) -------------------------------------------------------------------------------------


def grade_in_force(street, way: str = Grade.Way.STREET) -> Grade | None:
    if street is None or getattr(street, "pk", None) is None:
        return None
    return Grade.objects.filter(street=street, way=way, in_force=True).first()


def sidewalk_grade_for(street) -> Grade | None:
    """§ 303-1A(1): the grade a sidewalk along `street` is laid to: its own, else the street's."""
    return rules.sidewalk_grade(
        sidewalk_grade=grade_in_force(street, Grade.Way.SIDEWALK), street_grade=grade_in_force(street)
    )


def _motion_errors(motion, clause: str, today: date) -> list[Violation]:
    errors = board_action_errors(motion, clause=clause, on=today)
    if motion is not None and not motion.resolution_number:
        errors.append(
            Violation(
                "motion",
                "no_resolution",
                f"§ {clause}",
                f"The motion has no resolution number: the clerk records the grade with the resolution (§ {clause}).",
            )
        )
    return errors


def _one_in_force(way_label: str, street) -> RulesBroken:
    return RulesBroken(
        [
            Violation(
                "street",
                "grade_in_force",
                "§ 303-1B",
                f"A {way_label} grade of {street} is already recorded: changing it is an alteration (§ 303-1B).",
            )
        ]
    )


def record_grade(
    *,
    street,
    way: str,
    description: str,
    by,
    motion=None,
    confirmed_resolution: str = "",
    established_on: date | None = None,
    application: GradeApplication | None = None,
    today: date | None = None,
) -> Grade:
    """§ 303-1A(1): record the grade the Board established by `motion` (a carried motion on an agenda item under
    Clause.GRADE, with its resolution number). Without a motion, a grade established before this register is recorded
    as confirmed ("All such grades heretofore established are hereby confirmed"), naming the old resolution and date.
    """
    require_role(by, *REGISTRAR, action="record grades (the Clerk-Treasurer does, § 303-1A(1))")
    today = today or timezone.localdate()
    errors = []
    if way not in Grade.Way.values:
        errors.append(Violation("way", "way", "§ 303-1A(1)", "Choose a street, an alley or a sidewalk."))
    if not description.strip():
        errors.append(Violation("description", "required", "§ 303-1A(1)", "Describe the grade (§ 303-1A(1))."))
    if motion is not None:
        errors += _motion_errors(motion, Clause.GRADE, today)
        basis = Grade.Basis.OWNERS_APPLICATION if application is not None else Grade.Basis.ESTABLISHED
        resolution, on = motion.resolution_number, motion.held_on
    else:
        basis, resolution, on = Grade.Basis.CONFIRMED, confirmed_resolution.strip(), established_on
        if not resolution or on is None:
            errors.append(
                Violation(
                    "motion",
                    "no_motion",
                    "§ 303-1A(1)",
                    "Name the Board's motion that established the grade, or, for a grade established before this "
                    "register, its resolution and date (§ 303-1A(1)).",
                )
            )
        elif on > today:
            errors.append(
                Violation("established_on", "future", "§ 303-1A(1)", "A confirmed grade was established in the past.")
            )
    raise_if_broken(errors)
    return create_once(
        Grade,
        refusal=_one_in_force(Grade.Way(way).label.lower(), street),
        street=street,
        way=way,
        description=description.strip(),
        basis=basis,
        motion=motion,
        resolution_number=resolution,
        established_on=on,
        application=application,
        **recorded_by(by),
    )


def alter_grade(
    *, grade: Grade, description: str, by, motion=None, authorized_by=None, today: date | None = None
) -> Grade:
    """§ 303-1B: record an alteration of an established grade, authorized by the Board (a carried motion under
    Clause.GRADE_ALTERATION) or by the Director of Public Works (`authorized_by`, who must hold that office). The new
    grade supersedes the one in force; the old stays in the register."""
    require_role(by, *REGISTRAR, action="record grade alterations (the Clerk-Treasurer does, § 303-1B)")
    today = today or timezone.localdate()
    # The office held, not a superuser's everything-flag: the Director of Public Works authorizes (§ 303-1B).
    authorizer_is_dpw = authorized_by is not None and Role.DPW_DIRECTOR in roles_of(authorized_by)
    errors = rules.grade_alteration_authority_violations(
        by_board_motion=motion is not None, authorizer_is_dpw=authorizer_is_dpw
    )
    if motion is not None:
        errors += _motion_errors(motion, Clause.GRADE_ALTERATION, today)
    if not description.strip():
        errors.append(Violation("description", "required", "§ 303-1B", "Describe the altered grade (§ 303-1B)."))
    raise_if_broken(errors)
    with transaction.atomic():
        updated = Grade.objects.filter(pk=grade.pk, in_force=True).update(in_force=False)
        if not updated:
            raise RulesBroken(
                [Violation(None, "superseded", "§ 303-1B", f"The {grade} was already altered: alter the one in force.")]
            )
        return Grade.objects.create(
            street=grade.street,
            way=grade.way,
            description=description.strip(),
            basis=Grade.Basis.BOARD_ALTERATION if motion is not None else Grade.Basis.DPW_ALTERATION,
            motion=motion,
            resolution_number=motion.resolution_number if motion is not None else "",
            established_on=motion.held_on if motion is not None else today,
            authorized_by=None if motion is not None else authorized_by,
            supersedes=grade,
            **recorded_by(by),
        )


def apply_for_sidewalk_grade(*, street, parcel, owners: str, by, today: date | None = None) -> GradeApplication:
    """§ 303-1A(2): the clerk records the abutting owners' application for a sidewalk grade; it waits for the Board."""
    require_role(by, *REGISTRAR, action="record sidewalk grade applications (the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    errors = rules.sidewalk_grade_application_violations(
        street_grade_recorded=grade_in_force(street) is not None,
        sidewalk_grade_recorded=grade_in_force(street, Grade.Way.SIDEWALK) is not None,
    )
    if parcel.street_id != street.pk:
        errors.append(Violation("parcel", "not_abutting", "§ 303-1A(2)", f"{parcel} does not abut {street}."))
    if not owners.strip():
        errors.append(Violation("owners", "required", "§ 303-1A(2)", "Name the owners applying (§ 303-1A(2))."))
    raise_if_broken(errors)
    return create_once(
        GradeApplication,
        refusal=RulesBroken(
            [Violation("street", "pending", "§ 303-1A(2)", f"An application for {street} already waits for the Board.")]
        ),
        street=street,
        parcel=parcel,
        owners=owners.strip(),
        received_on=today,
        **recorded_by(by),
    )


def decide_sidewalk_grade(*, subject: GradeApplication, motion, by, description: str = "") -> GradeApplication:
    """§ 303-1A(2): the Board's motion on the owners' application: carried, the sidewalk grade is recorded (the
    motion's text describes it); failed, the application is denied."""
    with transaction.atomic():
        if motion.carried:
            record_grade(
                street=subject.street,
                way=Grade.Way.SIDEWALK,
                description=description or motion.text,
                motion=motion,
                application=subject,
                by=by,
                today=motion.held_on,
            )
        S = GradeApplication.Status
        change_state(
            subject,
            to=S.ESTABLISHED if motion.carried else S.DENIED,
            from_states={S.PENDING},
            by=by,
            reason=f"{'Grade established' if motion.carried else 'Denied'} by the Board's motion (§ 303-1A(2))",
            refusal=Violation(None, "decided", "§ 303-1A(2)", "The application was already decided."),
            decided_by=motion,
        )
    return subject


# --- Improvement requests (§ 303-11) ----------------------------------------------------------------------------------


def receive_improvement_request(
    *,
    kind: str,
    location: str,
    petitioners: str,
    by,
    presented_at: datetime | None = None,
    street=None,
    signatures: int = 1,
    description: str = "",
) -> ImprovementRequest:
    """§ 303-11: the clerk receives a request or petition; the year the Board considers it follows from when it was
    presented (rules.consideration_year)."""
    require_role(by, *REGISTRAR, action="receive improvement requests (the Clerk-Treasurer does, § 303-11)")
    now = timezone.now()
    presented_at = presented_at or now
    errors = []
    if kind not in ImprovementRequest.Kind.values:
        errors.append(
            Violation(
                "kind",
                "kind",
                "§ 303-11",
                "§ 303-11 covers new streets, resurfacing, curb and gutter, storm sewers, utility work and sidewalks.",
            )
        )
    if not location.strip():
        errors.append(Violation("location", "required", "§ 303-11", "Say where the improvement is asked for."))
    if not petitioners.strip():
        errors.append(Violation("petitioners", "required", "§ 303-11", "Name the owners who ask (§ 303-11)."))
    if signatures is None or signatures < 1:
        errors.append(Violation("signatures", "signatures", "§ 303-11", "A petition has at least one signature."))
    if presented_at > now:
        errors.append(
            Violation("presented_at", "future", "§ 303-11", "A request cannot be presented in the future (§ 303-11).")
        )
    raise_if_broken(errors)
    return ImprovementRequest.objects.create(
        kind=kind,
        street=street,
        location=location.strip(),
        petitioners=petitioners.strip(),
        signatures=signatures,
        description=description.strip(),
        presented_at=presented_at,
        consideration_year=rules.consideration_year(presented_at),
        received_by=by,
        recorded_at=now,
    )


def improvement_list(year: int):
    """§ 303-11: the clerk's list for the Board's budget meeting: the requests considered for installation in `year`."""
    return (
        ImprovementRequest.objects.filter(consideration_year=year)
        .select_related("street")
        .order_by("kind", "presented_at", "pk")
    )


# --- Higher standards (§ 303-3D(11)) ----------------------------------------------------------------------------------


def record_higher_standard(
    *,
    street,
    motion,
    by,
    parcel=None,
    min_width_feet=None,
    min_thickness_inches=None,
    min_driveway_thickness_inches=None,
    reason: str = "",
    today: date | None = None,
) -> HigherStandard:
    """§ 303-3D(11): record a higher sidewalk standard the Board required for a location by a carried motion under
    Clause.HIGHER_STANDARD."""
    require_role(by, *REGISTRAR, action="record the Board's higher sidewalk standards (the Clerk-Treasurer does)")
    today = today or timezone.localdate()
    errors = _motion_errors(motion, Clause.HIGHER_STANDARD, today)
    minimums = (min_width_feet, min_thickness_inches, min_driveway_thickness_inches)
    if all(m is None for m in minimums):
        errors.append(
            Violation(
                "min_width_feet",
                "nothing_set",
                "§ 303-3D(11)",
                "Set at least one minimum the Board required (§ 303-3D(11)).",
            )
        )
    if any(m is not None and m <= 0 for m in minimums):
        errors.append(
            Violation("min_width_feet", "positive", "§ 303-3D(11)", "A minimum is more than zero (§ 303-3D(11)).")
        )
    if parcel is not None and parcel.street_id != street.pk:
        errors.append(Violation("parcel", "not_abutting", "§ 303-3D(11)", f"{parcel} does not abut {street}."))
    raise_if_broken(errors)
    return HigherStandard.objects.create(
        street=street,
        parcel=parcel,
        min_width_feet=min_width_feet,
        min_thickness_inches=min_thickness_inches,
        min_driveway_thickness_inches=min_driveway_thickness_inches,
        reason=reason.strip(),
        motion=motion,
        resolution_number=motion.resolution_number,
        adopted_on=motion.held_on,
        **recorded_by(by),
    )


def higher_standard_for(parcel, today: date) -> HigherStandard | None:
    """§ 303-3D(11): the standard in force for `parcel`'s sidewalk on `today`: the latest one the Board adopted for
    the parcel itself, else the latest for its whole street."""
    if parcel is None:
        return None
    qs = HigherStandard.objects.filter(street_id=parcel.street_id, adopted_on__lte=today).order_by("-adopted_on", "-pk")
    return qs.filter(parcel=parcel).first() or qs.filter(parcel__isnull=True).first()


# --- § 303-9B: terrace areas approved to be covered -----------------------------------------------------------------


def record_terrace_approval(
    *, parcel, area: str, by, motion=None, ends_on: date | None = None, today: date | None = None
) -> TerraceApproval:
    """§ 303-9B: the Village Board (a carried motion, recorded by the clerk) or its designee for § 303-9 on the day
    approves an area of a parcel's terrace to be paved, surfaced or covered."""
    today = today or timezone.localdate()
    require_board_or_designee(
        by, Clause.TERRACE_SURFACE, on=today, action="approve covering an area of a terrace", motion=motion
    )
    approved_on = motion.held_on if motion is not None else today
    errors = []
    if parcel is None:
        errors.append(Violation("parcel", "required", "§ 303-9B", "Choose the parcel whose terrace it is (§ 303-9B)."))
    if not (area or "").strip():
        message = "Describe the area approved and what covers it (§ 303-9B)."
        errors.append(Violation("area", "required", "§ 303-9B", message))
    if ends_on is not None and ends_on < approved_on:
        message = f"The approval cannot end before it was given ({approved_on:%B %-d, %Y}) (§ 303-9B)."
        errors.append(Violation("ends_on", "ends_before_approval", "§ 303-9B", message))
    raise_if_broken(errors)
    return TerraceApproval.objects.create(
        parcel=parcel,
        area=area.strip(),
        approved_on=approved_on,
        ends_on=ends_on,
        motion=motion,
        approved_by=by,
        recorded_at=timezone.now(),
    )


def terrace_approval_for(parcel, day: date) -> TerraceApproval | None:
    """§ 303-9B: the approval of a covered area of `parcel`'s terrace standing on `day` (the latest), if any."""
    if parcel is None:
        return None
    return (
        TerraceApproval.objects.filter(parcel=parcel, approved_on__lte=day)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .order_by("-approved_on", "-pk")
        .first()
    )


def may_record_terrace_approval(user) -> bool:
    """§ 303-9B: the clerk (recording the Board's motion) or the Board's designee for § 303-9 today."""
    return may_decide_for_the_board(user, Clause.TERRACE_SURFACE, on=timezone.localdate())


# --- The street register: widths (§ 303-7D(1), § 303-6B(2)) -----------------------------------------------------------

WIDTH_RECORDERS = (Role.CLERK, Role.DPW_DIRECTOR)  # the Village's records of its streets, kept by the clerk or DPW


def may_record_street_widths(user) -> bool:
    return has_role(user, *WIDTH_RECORDERS)


def record_street_widths(*, street, by, width_feet, traveled_width_feet, sidewalk_width_feet=None):
    """§ 303-7D(1), § 303-6B(2): the Clerk-Treasurer or the Director of Public Works records (or corrects) a street's
    width, traveled width and sidewalk width; the street privilege rules and the § 303-6B(2) authorizations read them.
    Each change is kept in the street's history (who, when)."""
    from permits.models import Street
    from permits.street_facts import width_record_violations

    require_role(
        by,
        *WIDTH_RECORDERS,
        action="record street widths (the Clerk-Treasurer or the Director of Public Works does)",
    )
    errors = []
    if street is None:
        errors.append(Violation("street", "required", "", "Choose the street."))
    errors += width_record_violations(
        width_feet=width_feet, traveled_width_feet=traveled_width_feet, sidewalk_width_feet=sidewalk_width_feet
    )
    raise_if_broken(errors)
    with transaction.atomic():
        locked = Street.objects.select_for_update().get(pk=street.pk)
        locked.width_feet = width_feet
        locked.traveled_width_feet = traveled_width_feet
        locked.sidewalk_width_feet = sidewalk_width_feet
        locked.widths_recorded_by = by
        locked.widths_recorded_at = timezone.now()
        locked.save()
    return locked
