"""Street privilege permits in the core workflow (permits.workflow.transition asks these on every path: pages, admin,
API, jobs, shell): who may move a permit into each status, what refuses it, and what a transition stamps."""

from __future__ import annotations

from datetime import date

from permits.errors import Violation
from permits.kinds import APPLICANT, Clearer
from permits.models import Permit, Status
from permits.roles import Role
from permits.street_privilege import rules

AUTHORITY = {
    Status.SUBMITTED: frozenset({APPLICANT}),
    Status.WITHDRAWN: frozenset({APPLICANT, Role.CLERK}),
    # § 303-7A: the Building Inspector takes the application up and requests the advisory recommendations.
    Status.UNDER_REVIEW: frozenset({Role.BUILDING_INSPECTOR}),
    # § 303-7A: "may be granted to applicants by the Building Inspector".
    Status.APPROVED: frozenset({Role.BUILDING_INSPECTOR}),
    Status.DENIED: frozenset({Role.BUILDING_INSPECTOR}),
    Status.ISSUED: frozenset({Role.BUILDING_INSPECTOR}),
    # § 303-7D(7): the permittee (or the Building Inspector) reports the work done; the closing inspection follows.
    Status.COMPLETED: frozenset({APPLICANT, Role.BUILDING_INSPECTOR}),
    Status.CLOSED: frozenset({Role.BUILDING_INSPECTOR}),
    # § 303-7E: EXPIRED is entered by the nightly job only (the system): no role.
    # § 303-7D: revocable "by the Village Board, Director of Public Works, Chief of Police, or Building Inspector".
    # The officials act alone; the Board only as a body, by a carried motion (services.revoke_street_privilege
    # records it from the minutes): no trustee, and not the President, revokes alone through any path.
    Status.REVOKED: frozenset({Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.BUILDING_INSPECTOR}),
}


def _privilege(permit: Permit):
    from permits.street_privilege.models import StreetPrivilege

    return StreetPrivilege.objects.filter(permit_id=permit.pk).first()


def _missing(permit: Permit) -> list[Violation]:
    return [
        Violation(None, "no_application", "§ 303-7A", f"{permit.number} has no street privilege application (§ 303-7A)")
    ]


def recommendation_facts(sp) -> dict:
    offices = set(sp.recommendations.values_list("office", flat=True))
    return {"dpw_recommended": "dpw" in offices, "police_recommended": "police" in offices}


def blockers(permit: Permit, to: str, *, today: date) -> list[Violation]:
    """The street privilege rules that refuse moving `permit` to `to` on `today`."""
    if to not in {Status.APPROVED, Status.ISSUED, Status.CLOSED}:
        return []
    sp = _privilege(permit)
    if sp is None:
        return _missing(permit)
    if to == Status.APPROVED:
        return rules.grant_violations(**recommendation_facts(sp))
    if to == Status.ISSUED:
        return [
            *rules.issue_violations(
                **recommendation_facts(sp),
                bond_amount_set=sp.bond_amount is not None,
                bond_filed=sp.bond_filed_at is not None,
                bond_waived=sp.bond_waived,
                balance_due=permit.balance_due_as_stored(),
                is_move=sp.is_move,
                route_prescribed=bool(sp.route_prescribed),
            ),
            *rules.building_permit_violations(
                determined=sp.building_permit_determined,
                required=sp.building_permit_required,
                shown=sp.building_permit_shown,
            ),
            *rules.earlier_end_at_issue_violations(earlier_on=sp.earlier_termination_on, issued_on=today),
            *rules.insurance_condition_violations(
                required_by=[r.get_office_display() for r in sp.recommendations.filter(insurance_required=True)],
                certificate_filed=permit.documents.on_file().filter(kind="insurance").exists(),
            ),
        ]
    return rules.closing_violations(closing_passed=sp.closing_passed)


def stamps(permit: Permit, to: str, *, today: date) -> dict:
    """§ 303-7E: issue sets the last day: three months on, or the Building Inspector's earlier date."""
    if to == Status.ISSUED:
        sp = _privilege(permit)
        return {"expires_on": rules.termination_date(today, sp.earlier_termination_on if sp else None)}
    return {}


_MANAGE = "permits:street_privilege_manage"

# Who clears each blocker above and on which page (the permit page's checklist and its test read it).
CLEARED_BY: dict[str, Clearer] = {
    "no_application": Clearer((APPLICANT,), "permits:street_privilege_apply", "files the application"),
    "no_dpw_recommendation": Clearer((Role.DPW_DIRECTOR,), _MANAGE, "records the DPW's recommendation"),
    "no_police_recommendation": Clearer((Role.POLICE_CHIEF,), _MANAGE, "records the police recommendation"),
    "bond_not_set": Clearer((Role.DPW_DIRECTOR,), _MANAGE, "sets the bond (§ 303-7B)"),
    "bond_not_filed": Clearer((Role.CLERK,), _MANAGE, "files the bond (§ 303-7B)"),
    "fee_unpaid": Clearer((Role.CLERK,), _MANAGE, "records the payment"),
    "no_route": Clearer((Role.CLERK, Role.BOARD, Role.PRESIDENT), _MANAGE, "records the Board's route"),
    "building_permit_not_determined": Clearer((Role.BUILDING_INSPECTOR,), _MANAGE, "records the determination"),
    "building_permit_not_shown": Clearer((Role.BUILDING_INSPECTOR,), _MANAGE, "records the building permit shown"),
    "ends_before_issue": Clearer((Role.BUILDING_INSPECTOR,), _MANAGE, "sets a later end date"),
    "insurance_condition_unmet": Clearer((APPLICANT,), "permits:detail", "uploads the insurance certificate"),
    "closing_not_passed": Clearer((Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR), _MANAGE, "passes the closing"),
}
