"""Sidewalk permits in the core workflow (§ 303-3C): who may move a permit into each status and what refuses it.
permits.workflow.transition() asks these on every path, so the back office refuses what the sidewalk pages refuse."""

from __future__ import annotations

from datetime import date

from permits.errors import Violation
from permits.kinds import APPLICANT, CALENDAR, Clearer
from permits.models import Permit, Status
from permits.roles import Role

INSPECTORS = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)

AUTHORITY = {
    Status.SUBMITTED: frozenset({APPLICANT}),
    Status.WITHDRAWN: frozenset({APPLICANT, Role.CLERK}),
    # § 303-3C: the Village Clerk-Treasurer reviews and issues sidewalk permits.
    Status.UNDER_REVIEW: frozenset({Role.CLERK}),
    Status.APPROVED: frozenset({Role.CLERK}),
    Status.DENIED: frozenset({Role.CLERK}),
    Status.ISSUED: frozenset({Role.CLERK}),
    # The Village's inspectors see the work under way and passed (§ 303-3D).
    Status.ACTIVE: frozenset({*INSPECTORS, Role.CLERK}),
    Status.COMPLETED: frozenset({*INSPECTORS, Role.CLERK}),
    Status.CLOSED: frozenset({Role.CLERK, Role.DPW_DIRECTOR}),
    # § 303-3 sets no validity period: a sidewalk permit never expires (permits.workflow.expiry_violations).
    Status.EXPIRED: frozenset(),
    # No REVOKED: § 303-3 gives no revocation of a sidewalk permit; § 303-3D(10) stops the work (the inspections),
    # so no role, on any path, marks one revoked.
    Status.REVOKED: frozenset(),
}


def fee_unpaid_violations(permit: Permit) -> list[Violation]:
    """§ 303-3C: the Chapter 167 fee is paid before the permit is issued."""
    due = permit.balance_due_as_stored()
    if due > 0:
        return [
            Violation(
                "amount",
                "fee_unpaid",
                "§ 303-3C",
                f"Record the fee payment of ${due:.2f} before issuing the permit (§ 303-3C, Chapter 167).",
            )
        ]
    return []


def lead_time_violations(permit: Permit, today: date) -> list[Violation]:
    """§ 303-3C: the permit is obtained at least three days before the work: issuing it today, the planned pour must be
    on or after today + 3 (a permit issued the day before the pour is refused, on every path)."""
    from sidewalks import rules

    detail = getattr(permit, "sidewalk", None)
    if detail is None:
        return []
    return rules.check_lead_time(
        obtained_on=today, pour_date=detail.pour_date, village_contract=detail.village_contract
    )


def completion_violations(permit: Permit) -> list[Violation]:
    """§ 303-3D: the permit stays open until every stage's latest inspection passed."""
    from sidewalks.services import completion_blockers

    open_stages = completion_blockers(permit)
    if open_stages:
        return [
            Violation(
                None,
                "inspections_open",
                "§ 303-3D",
                "The permit stays open until every inspection has passed (§ 303-3D): " + "; ".join(open_stages) + ".",
            )
        ]
    return []


def blockers(permit: Permit, to: str, *, today: date) -> list[Violation]:
    if to == Status.ISSUED:
        from sidewalks.services import issue_violations

        return [*fee_unpaid_violations(permit), *lead_time_violations(permit, today), *issue_violations(permit, today)]
    if to == Status.COMPLETED:
        return completion_violations(permit)
    return []


def fix_link(permit: Permit, violation: Violation) -> tuple[str, str] | None:
    """The applicant's own fix for a § 303-3C standing that does not hold: an owner links the account to the parcel;
    an agent uploads the owner's written authorization (the clerk then accepts it)."""
    from django.urls import reverse

    if violation.code == "not_owner_of_record":
        return reverse("permits:parcel_link_request"), "Link your account to the parcel"
    if violation.code == "authorization_not_accepted":
        return f"{permit.get_absolute_url()}#upload-heading", "Upload the owner's written authorization"
    return None


_CLERK_PAGE = Clearer((Role.CLERK,), "sidewalks:permit", "the Clerk-Treasurer's steps on the permit's page")

# Who clears each blocker above and on which page (the permit page's checklist and its test read it).
CLEARED_BY: dict[str, Clearer] = {
    "fee_unpaid": Clearer((Role.CLERK,), "sidewalks:permit", "records the fee payment"),
    "too_soon": Clearer((CALENDAR,), "sidewalks:permit", "issued three days before the pour, or the pour moved"),
    "not_owner_of_record": Clearer((APPLICANT,), "permits:parcel_link_request", "links the account to the parcel"),
    "standing_unknown": Clearer((APPLICANT,), "permits:parcel_link_request", "links the account to the parcel"),
    "authorization_not_accepted": _CLERK_PAGE,
    "contract_not_confirmed": Clearer(
        (Role.CLERK,), "obstructions:registers:village_contracts", "records the Village contract"
    ),
    "no_such_contract": Clearer((Role.CLERK,), "obstructions:registers:village_contracts", "records the contract"),
    "contract_not_for_parcel": Clearer(
        (Role.CLERK,), "obstructions:registers:village_contracts", "records the contract for this parcel"
    ),
    "contract_not_in_force": Clearer(
        (Role.CLERK,), "obstructions:registers:village_contracts", "records the contract in force"
    ),
    "contract_of_another": Clearer(
        (Role.CLERK,), "obstructions:registers:village_contracts", "records the filer's own contract"
    ),
    "inspections_open": Clearer(INSPECTORS, "sidewalks:inspect", "passes every inspection"),
}
