"""Street openings in the core workflow: who may move a permit into each status, what refuses a transition and what
a transition stamps. permits.workflow.transition() asks these on every path (pages, admin, API, jobs, shell), so the
generic back office refuses exactly what the street opening's own verbs refuse."""

from __future__ import annotations

from datetime import date

from permits.errors import Violation
from permits.kinds import APPLICANT, CALENDAR, Clearer
from permits.models import Permit, Status
from permits.roles import Role
from permits.street_opening import rules

AUTHORITY = {
    Status.SUBMITTED: frozenset({APPLICANT}),
    Status.WITHDRAWN: frozenset({APPLICANT, Role.CLERK}),
    # § 303-4B: the Clerk-Treasurer or the Director of Public Works finds the application sufficient.
    Status.UNDER_REVIEW: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    # § 303-4A: a permit "from the Director of Public Works or Village Clerk-Treasurer": either approves and issues it
    # alone. (§ 303-1C(2)'s underground location and plans stay the DPW's: rules refuse approval until recorded.)
    Status.APPROVED: frozenset({Role.DPW_DIRECTOR, Role.CLERK}),
    Status.DENIED: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    # § 303-4A; § 303-4F(2): once the fee is paid to the Clerk-Treasurer, either the clerk or the DPW issues.
    Status.ISSUED: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    Status.ACTIVE: frozenset({APPLICANT, Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR}),
    # § 303-4H(3), § 303-1C(8): the permittee requests completion (permits.street_opening.lifecycle); the DPW
    # Director or a DPW inspector confirms it after the passed final inspection.
    Status.COMPLETED: frozenset({Role.DPW_DIRECTOR, Role.DPW_INSPECTOR}),
    Status.CLOSED: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    # § 303-4D: the nightly job (the system) only, once the 30 days have ended; a permit ended sooner is revoked or
    # withdrawn under their own rules, never marked expired by hand.
    Status.EXPIRED: frozenset(),
    # No REVOKED: Chapter 303 gives no revocation of a street opening permit. § 303-4H(2) revokes the permittee's
    # right to obtain permits for a year (services.revoke_applicant), and work is stopped through its inspections;
    # an empty row here means no role, on any path (admin, API, shell), can mark one revoked.
    Status.REVOKED: frozenset(),
}


def fee_unpaid_violations(permit: Permit) -> list[Violation]:
    """§ 303-4F(2): the permit is issued once its fee is paid."""
    due = permit.balance_due_as_stored()
    if due > 0:
        return [Violation(None, "fee_unpaid", "§ 303-4F(2)", f"The fee is not paid: ${due:.2f} is due (§ 303-4F(2))")]
    return []


def _missing_detail(permit: Permit) -> list[Violation]:
    return [
        Violation(
            None,
            "no_application",
            "§ 303-4B",
            f"{permit.number} has no street opening application on file: it cannot be approved (§ 303-4B)",
        )
    ]


def close_violations(permit: Permit) -> list[Violation]:
    """§ 303-4H(3): a completed permit is closed when its one-year guarantee is over with no defect open."""
    from permits.street_opening.field.models import Guarantee

    if permit.status != Status.COMPLETED:
        return []  # an expired or revoked permit is closed by the office
    errors = []
    if hasattr(permit, "so_guarantee_ended"):  # read with close_facts(): a job asks many at no statement per permit
        guarantee_ended, defect_open = permit.so_guarantee_ended, permit.so_defect_open
    else:
        guarantee_ended = Guarantee.objects.filter(permit=permit, ended=True).exists()
        defect_open = permit.defect_notices.filter(corrected_on__isnull=True, village_repaired_on__isnull=True).exists()
    if not guarantee_ended:
        errors.append(
            Violation(
                None,
                "guarantee_running",
                "§ 303-4H(3)",
                "The one-year guarantee of the work is still running: the permit closes when it ends (§ 303-4H(3))",
            )
        )
    if defect_open:
        errors.append(
            Violation(
                None,
                "defect_open",
                "§ 303-4H(3)",
                "A defect notice is still open: it must be corrected or repaired first (§ 303-4H(3))",
            )
        )
    return errors


def close_facts() -> dict:
    """The annotations of a Permit queryset that close_violations() reads instead of two queries per permit."""
    from django.db.models import Exists, OuterRef

    from permits.street_opening.field.models import DefectNotice, Guarantee

    return {
        "so_guarantee_ended": Exists(Guarantee.objects.filter(permit=OuterRef("pk"), ended=True)),
        "so_defect_open": Exists(
            DefectNotice.objects.filter(
                permit=OuterRef("pk"), corrected_on__isnull=True, village_repaired_on__isnull=True
            )
        ),
    }


def blockers(permit: Permit, to: str, *, today: date) -> list[Violation]:
    """The street opening rules that refuse moving `permit` to `to` on `today`."""
    from permits.street_opening import lifecycle, services

    if to == Status.APPROVED:
        if not _has_detail(permit):
            return _missing_detail(permit)
        so = permit.street_opening
        so.refresh_from_db()  # what the approving verb recorded in this transaction, never a stale copy
        return [
            *services.check_approval(
                permit,
                today=today,
                plans_approved=so.plans_approved_at is not None,
                lane_closure_approved=so.lane_closure_approved_at is not None,
            ),
            *lifecycle.approval_outlook(permit, today=today),  # § 303-4D: no validity ending before the work
        ]
    if to == Status.ISSUED:
        return fee_unpaid_violations(permit)
    if to == Status.COMPLETED:
        return lifecycle.completion_refusals(permit)  # § 303-1C(8), § 303-4F(1), § 303-4H(3)
    if to == Status.CLOSED:
        return close_violations(permit)
    if to == Status.EXPIRED:
        return restoration_running_violations(permit)
    return []


def restoration_running_violations(permit: Permit) -> list[Violation]:
    """§ 303-4D with § 303-5G: a permit whose street was opened is not expired, on any path: its restoration duties,
    inspections, completion and guarantee run on (only its right to open ends, permits.street_opening.lifecycle)."""
    from permits.street_opening import lifecycle

    so = getattr(permit, "street_opening", None) if _has_detail(permit) else None
    if not lifecycle.was_opened(permit, so):
        return []
    return [
        Violation(
            None,
            "restoration_running",
            "§ 303-5G",
            f"The street was opened under {permit.number}: its restoration, inspections, completion and guarantee "
            "continue after the 30 days (§ 303-4D, § 303-5G), so it is not expired. Revoke it if the permittee "
            "defaults (§ 303-4H(2)).",
        )
    ]


def _has_detail(permit: Permit) -> bool:
    return hasattr(permit, "street_opening")  # False when the one-to-one row does not exist


def stamps(permit: Permit, to: str, *, today: date) -> dict:
    """§ 303-4D: approval starts the 30-day validity, which stops short of the frozen-ground season without an
    emergency determination (§ 303-5A)."""
    if to == Status.APPROVED:
        determined = _has_detail(permit) and hasattr(permit.street_opening, "emergency_determination")
        return {"expires_on": rules.approved_valid_through(today, emergency_determined=determined)}
    return {}


# Where the applicant fixes what blocks the next step (the permit page's checklist, permits.permit_page).
MISSING_DOCUMENTS = ("certificate_missing", "bond_missing", "plans_missing")


def fix_link(permit: Permit, violation: Violation) -> tuple[str, str] | None:
    """The applicant's own fix for a blocker: a Diggers Hotline ticket is added, a certificate, bond or plans are
    uploaded; a renewal is asked for. Anything else (the DPW's plan or lane approvals, a Board determination, the
    fee) is the core's link or the Village's to record."""
    from django.urls import reverse

    field = violation.field or ""
    if field.startswith("diggers_hotline"):
        return reverse("permits:street_opening_add_ticket", args=[permit.number]), "Add a Diggers Hotline ticket"
    if violation.code in MISSING_DOCUMENTS:
        return f"{permit.get_absolute_url()}#upload-heading", "Upload the document"
    # A bond or certificate on file that does not count yet (its amount unrecorded, below the Board's amount) is not
    # cured by uploading it again: the Village records it, and the message says who.
    return None


def _by(roles, page: str, how: str) -> Clearer:
    return Clearer(tuple(roles), page, how)


_DPW = (Role.DPW_DIRECTOR, Role.CLERK)  # § 303-4A: either approves
_TICKET = _by((APPLICANT,), "permits:street_opening_add_ticket", "adds a current Diggers Hotline ticket")
_UPLOAD = _by((APPLICANT,), "permits:detail", "uploads the document on the permit page")
_AT_FILING = _by((APPLICANT,), "permits:street_opening_apply", "the application form refuses filing without it")
_FIELD = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)

# Who clears each blocker above and on which page (the permit page's checklist and its test read it).
CLEARED_BY: dict[str, Clearer] = {
    "no_application": _AT_FILING,
    "applicant_revoked": _by((CALENDAR,), "permits:detail", "the year of revocation runs out (§ 303-4H(2))"),
    "before_legal_start": _TICKET,
    "legal_start_too_early": _TICKET,
    "requested_in_future": _TICKET,
    "ticket_missing": _TICKET,
    "ticket_stale": _TICKET,
    "ticket_stale_now": _TICKET,
    "certificate_missing": _UPLOAD,
    "bond_missing": _UPLOAD,
    "signature_required": _AT_FILING,
    "signature_time_missing": _AT_FILING,
    "undertakings_missing": _AT_FILING,
    "insurance_too_low": _AT_FILING,
    "emergency_not_utility": _AT_FILING,
    "too_shallow": _AT_FILING,
    "traffic_control_required": _AT_FILING,
    "insurance_lapses": _by(
        (APPLICANT, Role.CLERK), "permits:street_opening_renew_insurance", "records the renewed certificate's expiry"
    ),
    # The fields "required" at approval (insurance expiry, underground depth, a ticket's request time) are refused
    # empty by the application form, the API and the ticket page: only a row edited in the back office lacks one.
    "required": _AT_FILING,
    "no_annual_bond": _by((Role.CLERK,), "permits:street_opening_annual_bonds", "records the annual bond filed"),
    "plans_not_approved": _by(_DPW, "permits:street_opening_manage", "approves the plans with the location"),
    "lanes_closed": _by(_DPW, "permits:street_opening_manage", "approves the lane closure with the location"),
    "emergency_work_not_approved": _by(_DPW, "permits:street_opening_manage", "approves the emergency work"),
    "emergency_not_determined": _by(_DPW, "permits:street_opening_manage", "records the emergency determination"),
    "frozen_ground": _by(_DPW, "permits:street_opening_manage", "holds the approval or records an emergency"),
    "repaving_planned": _by(_DPW, "permits:street_opening_manage", "records the moratorium exception"),
    "renewal_will_be_needed": _by(_DPW, "permits:street_opening_manage", "approves with new dates or holds"),
    "validity_ends_before_work": _by(_DPW, "permits:street_opening_manage", "approves with new dates or holds"),
    "fee_unpaid": _by((Role.CLERK,), "permits:street_opening_manage", "records the payment"),
    "completion_not_requested": _by((APPLICANT,), "permits:field_permit", "reports the work completed"),
    "final_inspection_not_passed": _by(_FIELD, "permits:field_permit", "passes the final inspection"),
    "inspection_failure_open": _by(_FIELD, "permits:field_permit", "passes the re-inspection"),
    "compaction_failed": _by(_FIELD, "permits:field_permit", "passes the compaction re-test"),
    "covered_before_inspection": _by(_FIELD, "permits:field_permit", "inspects the uncovered work"),
    "temporary_surface": _by((APPLICANT, *_FIELD), "permits:field_permit", "records the permanent pavement"),
    "guarantee_running": _by((CALENDAR,), "permits:field_permit", "the nightly job ends the one-year guarantee"),
    "defect_open": _by((APPLICANT, Role.DPW_DIRECTOR), "permits:field_permit", "corrects or repairs the defect"),
    "restoration_running": _by(_FIELD, "permits:field_permit", "the work goes on to completion (not expired)"),
}
