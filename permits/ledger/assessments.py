"""Special assessments for curb, gutter and sidewalk work (§ 303-3B(2): "the abutting property owner will be
responsible for 100% of the cost as a special assessment"), levied as Wis. Stat. § 66.0703 requires: the Board's
preliminary resolution, the engineer's report filed for public inspection, the class 1 notice and the mailed copy,
the public hearing, and the Board's final resolution. The Board's two resolutions come from its meetings and motions
(permits.board; permits/ledger/board_matters.py puts each proceeding on the Board's queue); the Clerk-Treasurer
records the rest here. A charge on this route stays "pending" (not billed, not due, never delinquent, not on the roll)
until the final resolution: permits.ledger.services.hearing_errors_for.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.ledger import rules as charge_rules
from permits.ledger.models import AssessmentProceeding, SpecialCharge
from permits.roles import Role
from permits.services import notify_owner

PRELIMINARY = "Wis. Stat. § 66.0703(4)"
REPORT = "Wis. Stat. § 66.0703(5)"
NOTICE = "Wis. Stat. § 66.0703(7)(a)"
FINAL = "Wis. Stat. § 66.0703(8)"


def open_assessment(*, title: str, charges, by) -> AssessmentProceeding:
    """§ 303-3B(2): the Clerk-Treasurer puts the owners' shares recorded as special assessments (the schedule of
    assessments) to the Board for its preliminary resolution (Wis. Stat. § 66.0703(4))."""
    require_role(by, Role.CLERK, action="open special assessment proceedings (the Clerk-Treasurer does)")
    charges = list(charges)
    errors = []
    if not title.strip():
        errors.append(Violation("title", "required", PRELIMINARY, "Name the project the notice will name."))
    if not charges:
        message = "List at least one assessment: the schedule of assessments (Wis. Stat. § 66.0703(5))."
        errors.append(Violation("charges", "no_charges", REPORT, message))
    for charge in charges:
        if charge.route != charge_rules.SPECIAL_ASSESSMENT_ROUTE or charge.status != SpecialCharge.Status.PENDING:
            message = f"{charge.number} is not a pending special assessment (§ 303-3B(2))."
            errors.append(Violation("charges", "not_an_assessment", "§ 303-3B(2)", message))
    raise_if_broken(errors)
    with transaction.atomic():
        proceeding = AssessmentProceeding.objects.create(title=title.strip(), recorded_by=by)
        proceeding.charges.set(charges)
    return proceeding


def _motion_errors(proceeding, motion, clause: str, cite: str, today: date) -> list[Violation]:
    errors = board.board_action_errors(motion, clause=clause, on=today, subject=proceeding)
    if motion is not None and not motion.resolution_number.strip():
        message = f"The motion has no resolution number: record it on the motion first ({cite})."
        errors.append(Violation("motion", "no_resolution_number", cite, message))
    return errors


def adopt_preliminary_resolution(*, proceeding, motion, by, today: date | None = None) -> AssessmentProceeding:
    """Wis. Stat. § 66.0703(4): the Board declares its intent to levy by a preliminary resolution: a carried motion
    with its resolution number, under that clause (the Board acts only as a body)."""
    require_role(by, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
    proceeding.refresh_from_db()  # decide on the proceeding as it is now, not as the caller read it
    today = today or max(timezone.localdate(), motion.held_on if motion else timezone.localdate())
    errors = _motion_errors(proceeding, motion, Clause.SPECIAL_ASSESSMENT_PRELIMINARY, PRELIMINARY, today)
    if proceeding.preliminary_motion_id:
        errors.append(Violation("motion", "already_adopted", PRELIMINARY, "The preliminary resolution is recorded."))
    raise_if_broken(errors)
    AssessmentProceeding.objects.filter(pk=proceeding.pk, preliminary_motion__isnull=True).update(
        preliminary_motion=motion
    )
    proceeding.refresh_from_db()
    return proceeding


def file_engineers_report(*, proceeding, filed_on: date, report: str, by) -> AssessmentProceeding:
    """Wis. Stat. § 66.0703(5): after the preliminary resolution, the engineer's report (plans, estimate, schedule of
    assessments) is filed with the Clerk-Treasurer for public inspection. The Director of Public Works reports; the
    Clerk-Treasurer may record the filing."""
    require_role(by, Role.CLERK, Role.DPW_DIRECTOR, action="file the engineer's report (DPW or the Clerk-Treasurer)")
    proceeding.refresh_from_db()  # decide on the proceeding as it is now, not as the caller read it
    errors = []
    if not report.strip():
        message = "Give the report: plans, estimate and schedule of assessments (Wis. Stat. § 66.0703(5))."
        errors.append(Violation("report", "required", REPORT, message))
    if proceeding.preliminary_motion is None:
        message = "The report follows the Board's preliminary resolution (Wis. Stat. § 66.0703(4), (5))."
        errors.append(Violation("filed_on", "no_preliminary_resolution", REPORT, message))
    elif filed_on < proceeding.preliminary_motion.held_on:
        message = "The report cannot be filed before the Board's preliminary resolution (Wis. Stat. § 66.0703(5))."
        errors.append(Violation("filed_on", "before_preliminary", REPORT, message))
    if proceeding.published_on:
        errors.append(Violation(None, "noticed", REPORT, "The hearing is already noticed on this report."))
    raise_if_broken(errors)
    AssessmentProceeding.objects.filter(pk=proceeding.pk).update(report_filed_on=filed_on, report=report.strip())
    proceeding.refresh_from_db()
    return proceeding


def give_hearing_notice(
    *, proceeding, hearing_on: date, published_on: date, mailed_on: date, place: str = "", by
) -> AssessmentProceeding:
    """Wis. Stat. § 66.0703(7)(a): the class 1 notice of the hearing, published 10 to 40 days before it, and a copy
    mailed to each owner at least 10 days before it; the notice says the report may be inspected and any interested
    person may be heard. The mailed copy is a letter to each owner of record (emailed as well where known)."""
    require_role(by, Role.CLERK, action="give notice of special assessment hearings (the Clerk-Treasurer does)")
    proceeding.refresh_from_db()  # decide on the proceeding as it is now, not as the caller read it
    preliminary = proceeding.preliminary_motion
    field_errors = charge_rules.assessment_notice_field_errors(
        preliminary_on=preliminary.held_on if preliminary else None,
        report_filed_on=proceeding.report_filed_on,
        hearing_on=hearing_on,
        published_on=published_on,
        mailed_on=mailed_on,
    )
    errors = [Violation(field, "notice", NOTICE, message) for field, message in field_errors.items()]
    if proceeding.final_motion_id:
        errors.append(Violation(None, "levied", FINAL, "The assessment is already levied."))
    raise_if_broken(errors)
    with transaction.atomic():
        AssessmentProceeding.objects.filter(pk=proceeding.pk).update(
            hearing_on=hearing_on, published_on=published_on, mailed_on=mailed_on, place=place.strip()
        )
        proceeding.refresh_from_db()
        for charge in proceeding.charges.select_related("parcel"):
            notify_owner(
                charge.parcel,
                template="special_assessment_notice",
                context={"proceeding": proceeding, "charge": charge, "parcel": charge.parcel},
                record=charge,
            )
    return proceeding


def levy_assessment(*, proceeding, motion, by, today: date | None = None) -> AssessmentProceeding:
    """Wis. Stat. § 66.0703(8), § 303-3B(2): after the public hearing the Board levies the assessments by its final
    resolution (a carried motion with its resolution number, at or after the noticed hearing); the charges of the
    schedule are then billed through the ledger."""
    from permits.ledger.services import bill_charges_after_hearings

    require_role(by, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
    proceeding.refresh_from_db()  # decide on the proceeding as it is now, not as the caller read it
    today = today or max(timezone.localdate(), motion.held_on if motion else timezone.localdate())
    errors = _motion_errors(proceeding, motion, Clause.SPECIAL_ASSESSMENT_FINAL, FINAL, today)
    if proceeding.hearing_on is None:
        message = "No public hearing has been noticed: the final resolution follows it (Wis. Stat. § 66.0703(7))."
        errors.append(Violation("motion", "no_hearing", NOTICE, message))
    elif motion is not None and motion.held_on < proceeding.hearing_on:
        message = (
            f"The hearing is noticed for {proceeding.hearing_on:%B %-d, %Y}: the final resolution comes at or after "
            f"it, not on {motion.held_on:%B %-d, %Y} (Wis. Stat. § 66.0703(8))."
        )
        errors.append(Violation("motion", "before_hearing", FINAL, message))
    if proceeding.final_motion_id:
        errors.append(Violation("motion", "already_levied", FINAL, "The final resolution is already recorded."))
    raise_if_broken(errors)
    with transaction.atomic():
        updated = AssessmentProceeding.objects.filter(pk=proceeding.pk, final_motion__isnull=True).update(
            final_motion=motion
        )
        if not updated:
            raise RulesBroken.one("motion", "already_levied", FINAL, "The final resolution is already recorded.")
        proceeding.refresh_from_db()
        bill_charges_after_hearings(today=today, by=by, charges=proceeding.charges.all())
    return proceeding
