"""Pages of the street privilege permit: apply, the Village's actions, the applicant's requests, the queue and the
permit PDF. Each view fetches through the access helper, binds a form and calls one service."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from permits import services
from permits.access import get_permit_for, require_role, require_staff
from permits.board.clauses import Clause
from permits.board.models import Motion
from permits.issued_pdf import issued_permit_pdf
from permits.models import PermitKind, Status
from permits.paging import page_of
from permits.posting import form_page, submitted_application
from permits.refusals import run_or_show_refusals
from permits.roles import Role, has_role
from permits.street_privilege import services as sp_services
from permits.street_privilege.forms import (
    BondForm,
    BuildingPermitForm,
    ClosingForm,
    CostForm,
    EndDateForm,
    FileBondForm,
    GrantForm,
    MotionForm,
    ObstructionForm,
    ReasonForm,
    RecommendationForm,
    RemovalForm,
    StaffPaymentForm,
    StreetPrivilegeForm,
)
from permits.street_privilege.models import Recommendation, SidewalkObstruction, StreetPrivilege
from permits.workflow import is_applicant_side

QUEUE_ROLES = (Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.CLERK, Role.BOARD, Role.PRESIDENT)
PRIVILEGE_CLAUSES = (Clause.PRIVILEGE_BOND_WAIVER, Clause.MOVE_ROUTE, Clause.MOVE_DAY_AND_NIGHT)


def _get_privilege(user, number):
    return get_permit_for(user, number, kind=PermitKind.STREET_PRIVILEGE)


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    form = StreetPrivilegeForm(request.POST or None, user=request.user)
    if request.method == "POST":
        permit = submitted_application(form, sp_services.apply_for_street_privilege, applicant=request.user)
        if permit is not None:
            messages.success(
                request,
                f"Application {permit.number} submitted. The fee is ${permit.fee_amount}, plus any actual Village "
                "costs (§ 303-7C).",
            )
            return redirect(permit)
    return form_page(request, "permits/street_privilege/apply.html", {"form": form})


def _board_motions(sp: StreetPrivilege):
    """Carried motions of the Board on this permit's matters, not applied yet, for the clerk to apply."""
    ct = ContentType.objects.get_for_model(StreetPrivilege)
    used = {sp.bond_waiver_motion_id, sp.route_motion_id, sp.day_and_night_motion_id} - {None}
    return (
        Motion.objects.filter(
            item__subject_type=ct,
            item__subject_id=sp.pk,
            item__clause__in=PRIVILEGE_CLAUSES,
            outcome=Motion.Outcome.CARRIED,
        )
        .exclude(pk__in=used)
        .select_related("item__meeting")
    )


def _obstruction_motions(sp: StreetPrivilege):
    ct = ContentType.objects.get_for_model(SidewalkObstruction)
    waiting = sp.obstructions.filter(status=SidewalkObstruction.Status.REPORTED).values_list("pk", flat=True)
    return Motion.objects.filter(
        item__subject_type=ct,
        item__subject_id__in=list(waiting),
        item__clause=Clause.PRIVILEGE_OBSTRUCTION_NOTICE,
        outcome=Motion.Outcome.CARRIED,
    ).select_related("item__meeting")


def _manage_context(request, permit, **forms):
    sp = permit.street_privilege
    user = request.user
    return {
        "permit": permit,
        "sp": sp,
        "recommendations": sp.recommendations.select_related("by"),
        "cost_lines": sp.cost_lines.all(),
        "obstructions": sp.obstructions.select_related("parcel", "charge"),
        "is_inspector": has_role(user, Role.BUILDING_INSPECTOR),
        "is_dpw": has_role(user, Role.DPW_DIRECTOR),
        "is_recommender": has_role(user, Role.DPW_DIRECTOR, Role.POLICE_CHIEF),
        "is_clerk": has_role(user, Role.CLERK),
        "may_revoke": has_role(user, *sp_services.REVOKERS),
        "may_cost": has_role(user, *sp_services.COST_RECORDERS),
        "may_close": has_role(user, *sp_services.CLOSING_INSPECTORS),
        "may_record_board": has_role(user, *sp_services.BOARD_RECORDERS),
        "board_motions": _board_motions(sp),
        "obstruction_motions": _obstruction_motions(sp),
        "blockers": sp_services.workflow.blockers_for(permit, Status.ISSUED)
        if permit.status in sp_services.BEFORE_ISSUE
        else [],
        "recommendation_form": forms.get("recommendation_form") or RecommendationForm(),
        "bond_form": forms.get("bond_form") or BondForm(initial={"bond_amount": sp.bond_amount}),
        "building_permit_form": forms.get("building_permit_form")
        or BuildingPermitForm(
            initial={
                "required": {True: "yes", False: "no"}.get(sp.building_permit_required),
                "shown_number": sp.building_permit_shown_number or sp.building_permit_number,
            }
        ),
        "file_bond_form": forms.get("file_bond_form") or FileBondForm(),
        "cost_form": forms.get("cost_form") or CostForm(),
        "grant_form": forms.get("grant_form") or GrantForm(),
        "end_date_form": forms.get("end_date_form")
        or EndDateForm(initial={"earlier_termination_on": sp.earlier_termination_on}),
        "reason_form": forms.get("reason_form") or ReasonForm(),
        "closing_form": forms.get("closing_form") or ClosingForm(),
        "payment_form": forms.get("payment_form") or StaffPaymentForm(initial={"amount": permit.balance_due}),
        "obstruction_form": forms.get("obstruction_form") or ObstructionForm(street=permit.street),
        "removal_form": RemovalForm(),
    }


def _manage_page(request, permit, status: int = 200, **forms):
    """The staff page of one permit; `forms` bound ones shown with their errors in place of the empty ones."""
    return render(
        request, "permits/street_privilege/manage.html", _manage_context(request, permit, **forms), status=status
    )


def _step_on_manage(request, permit, call, done: str):
    """A staff step of the permit's page: `call()`, then `done` as a message or each refusal; back to the page."""
    if run_or_show_refusals(request, call):
        messages.success(request, done)
    return redirect("permits:street_privilege_manage", number=permit.number)


@login_required
def manage(request, number):
    """Village staff: the actions on one street privilege permit, each calling one service."""
    require_staff(request.user)
    permit = _get_privilege(request.user, number)
    return _manage_page(request, permit)


FORMS = {
    "recommend": ("recommendation_form", RecommendationForm),
    "bond": ("bond_form", BondForm),
    "building_permit": ("building_permit_form", BuildingPermitForm),
    "file_bond": ("file_bond_form", FileBondForm),
    "cost": ("cost_form", CostForm),
    "grant": ("grant_form", GrantForm),
    "end_date": ("end_date_form", EndDateForm),
    "deny": ("reason_form", ReasonForm),
    "revoke": ("reason_form", ReasonForm),
    "closing": ("closing_form", ClosingForm),
    "payment": ("payment_form", StaffPaymentForm),
    "board": ("motion_form", MotionForm),
}


def _calls(permit, user, data, request):
    sp = permit.street_privilege
    return {
        "review": (lambda: sp_services.begin_review(permit=permit, by=user), "Recommendations requested."),
        "recommend": (
            lambda: sp_services.record_recommendation(permit=permit, by=user, **data),
            "Advisory recommendation recorded (§ 303-7A).",
        ),
        "bond": (
            lambda: sp_services.set_bond(permit=permit, by=user, amount=data["bond_amount"]),
            "Bond set (§ 303-7B).",
        ),
        "building_permit": (
            lambda: sp_services.record_building_permit_determination(permit=permit, by=user, **data),
            "Building permit determination recorded (§ 303-7A).",
        ),
        "file_bond": (lambda: sp_services.file_bond(permit=permit, by=user, **data), "Bond filed (§ 303-7B)."),
        "cost": (lambda: sp_services.add_cost(permit=permit, by=user, **data), "Cost added (§ 303-7C)."),
        "grant": (lambda: sp_services.grant_street_privilege(permit=permit, by=user, **data), "Permit granted."),
        "end_date": (
            lambda: sp_services.set_earlier_termination(permit=permit, by=user, **data),
            "End date set (§ 303-7E).",
        ),
        "deny": (lambda: sp_services.deny_street_privilege(permit=permit, by=user, **data), "Permit denied."),
        "issue": (lambda: sp_services.issue_street_privilege(permit=permit, by=user), "Permit issued."),
        "revoke": (lambda: sp_services.revoke_street_privilege(permit=permit, by=user, **data), "Permit revoked."),
        "closing": (
            lambda: sp_services.record_closing_inspection(permit=permit, by=user, **data),
            "Closing inspection recorded (§ 303-7D(7)).",
        ),
        "payment": (lambda: services.record_payment(permit=permit, by=user, **data), "Payment recorded."),
        "board": (lambda: _apply_motion(sp, user, data), "The Board's decision is recorded on the permit."),
    }


def _apply_motion(sp, user, data):
    motion = get_object_or_404(Motion.objects.select_related("item__meeting"), pk=data["motion"])
    clause = motion.item.clause
    if clause == Clause.PRIVILEGE_BOND_WAIVER:
        return sp_services.waive_bond(permit=sp.permit, motion=motion, by=user)
    if clause == Clause.PRIVILEGE_REVOCATION:
        return sp_services.revoke_street_privilege(permit=sp.permit, motion=motion, by=user)
    if clause == Clause.MOVE_ROUTE:
        return sp_services.prescribe_route(
            permit=sp.permit, motion=motion, route=data.get("route") or motion.text, by=user
        )
    if clause == Clause.MOVE_DAY_AND_NIGHT:
        return sp_services.order_day_and_night(permit=sp.permit, motion=motion, by=user)
    if clause == Clause.PRIVILEGE_OBSTRUCTION_NOTICE:
        obstruction = get_object_or_404(SidewalkObstruction, pk=motion.item.subject_id, privilege=sp)
        return sp_services.give_obstruction_notice(obstruction=obstruction, motion=motion, by=user)
    raise Http404("Not a street privilege motion")


@login_required
@require_POST
def act(request, number, action):
    require_staff(request.user)
    permit = _get_privilege(request.user, number)
    data = {}
    if action in FORMS:
        name, form_class = FORMS[action]
        form = form_class(request.POST)
        if not form.is_valid():
            return _manage_page(request, permit, status=400, **{name: form})
        data = form.cleaned_data
    calls = _calls(permit, request.user, data, request)
    if action not in calls:
        raise Http404("No such action")
    call, done = calls[action]
    return _step_on_manage(request, permit, call, done)


@login_required
@require_POST
def obstruction(request, number):
    """§ 303-7F: report a sidewalk obstruction under the permit for the Board's notice."""
    require_staff(request.user)
    permit = _get_privilege(request.user, number)
    form = ObstructionForm(request.POST, street=permit.street)
    if not form.is_valid():
        return _manage_page(request, permit, status=400, obstruction_form=form)
    return _step_on_manage(
        request,
        permit,
        partial(sp_services.report_obstruction, permit=permit, by=request.user, **form.cleaned_data),
        "Obstruction reported: it waits for the Board's notice (§ 303-7F).",
    )


@login_required
@require_POST
def obstruction_removed(request, number, pk, by_whom):
    require_staff(request.user)
    permit = _get_privilege(request.user, number)
    item = get_object_or_404(SidewalkObstruction, pk=pk, privilege__permit=permit)
    if by_whom == "village":
        form = RemovalForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Give the cost of the removal in dollars and cents (§ 303-7F).")
            return redirect("permits:street_privilege_manage", number=permit.number)
        call = lambda: sp_services.record_village_removal(  # noqa: E731
            obstruction=item, by=request.user, cost=form.cleaned_data["cost"]
        )
        done = "Removal recorded; the cost is a special charge on the parcel (§ 303-7F)."
    elif by_whom == "owner":
        call = lambda: sp_services.record_owner_removal(obstruction=item, by=request.user)  # noqa: E731
        done = "Removal by the owner recorded."
    else:
        raise Http404("No such action")
    return _step_on_manage(request, permit, call, done)


@login_required
@require_POST
def request_waiver(request, number):
    permit = _get_privilege(request.user, number)
    if run_or_show_refusals(request, lambda: sp_services.request_bond_waiver(permit=permit, by=request.user)):
        messages.success(request, "Your request is on the Village Board's list: the Board decides (§ 303-7B).")
    return redirect(permit)


@login_required
@require_POST
def report_done(request, number):
    permit = _get_privilege(request.user, number)
    if not is_applicant_side(request.user, permit):
        raise PermissionDenied
    if run_or_show_refusals(request, lambda: sp_services.report_completion(permit=permit, by=request.user)):
        messages.success(request, "Reported done. The Building Inspector makes the closing inspection (§ 303-7D(7)).")
    return redirect(permit)


@login_required
def queue(request):
    """The Village's street privilege permits, newest first, paged (a fixed number of queries per page)."""
    require_role(request.user, *QUEUE_ROLES, action="see the street privilege permits")
    status = request.GET.get("status") or ""
    qs = StreetPrivilege.objects.select_related("permit__street", "permit__applicant", "permit__organization")
    if status in Status.values:
        qs = qs.filter(permit__status=status)
    page = page_of(request, qs.order_by("-permit__created_at", "-pk"))
    return render(
        request,
        "permits/street_privilege/queue.html",
        {"page": page, "status": status, "statuses": Status.choices},
    )


def _pdf_context(permit):
    sp = permit.street_privilege
    return {"sp": sp, "recommendations": Recommendation.objects.filter(privilege=sp), "cost_lines": sp.cost_lines.all()}


@login_required
def permit_pdf(request, number):
    """The issued permit: permittee, place, dates, end date, conditions of every official, bond, route."""
    return issued_permit_pdf(_get_privilege(request.user, number), "pdf/street_privilege_permit.html", _pdf_context)
