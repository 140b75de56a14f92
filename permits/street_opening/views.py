"""Pages of the street opening permit: apply, staff actions, tickets, renewal requests, and the permit PDF."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits import kinds, permit_page, services
from permits.access import get_permit_for, require_role, require_staff
from permits.applicant import applications, draft_pages
from permits.forms import add_service_errors, service_result
from permits.input_limits import MAX_DESCRIPTION, length_message
from permits.issued_pdf import issued_permit_pdf
from permits.models import PermitKind, Status
from permits.paging import page_of
from permits.posting import form_page, submitted_application
from permits.refusals import run_or_show_refusals
from permits.roles import Role, has_role, is_village_staff
from permits.street_opening import lifecycle
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so_services
from permits.street_opening.forms import (
    AnnualBondForm,
    ApproveForm,
    ApproveWithDatesForm,
    BondAmountForm,
    DecideRenewalForm,
    EmergencyReportForm,
    InsuranceRenewalForm,
    ReasonForm,
    RenewalRequestForm,
    RenewForm,
    StaffPaymentForm,
    StreetOpeningForm,
    TicketForm,
)
from permits.street_opening.models import DiggersTicket
from permits.workflow import is_applicant_side


def _get_street_opening(user, number):
    return get_permit_for(user, number, kind=PermitKind.STREET_OPENING)


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    step = draft_pages.draft_step(request, kind=PermitKind.STREET_OPENING)
    if step.response is not None:
        return step.response
    form = StreetOpeningForm(request.POST if step.submitting else None, user=request.user, initial=step.initial)
    if step.save_error is not None:  # a field too long to keep: the form shows it, checked
        form = StreetOpeningForm(request.POST, user=request.user)
        form.is_valid()
        add_service_errors(form, step.save_error)
    if step.submitting:
        apply_for = applications.submit_from_draft(so_services.apply_for_street_opening, step.draft)
        permit = submitted_application(form, apply_for, applicant=request.user)
        if permit is not None:
            can_come = permit.street_opening.approval_can_come_later
            when = (
                f" Approval can come on or after {can_come:%B %-d, %Y}: a permit is valid 30 days from its approval "
                "and must cover your planned work (§ 303-4D)."
                if can_come
                else ""
            )
            messages.success(request, f"Application {permit.number} submitted. The fee is ${permit.fee_amount}.{when}")
            return redirect(permit)
    context = {
        "form": form,
        "exemption": ordinance.VILLAGE_WORK_EXEMPTION,
        "draft": step.draft,
        "draft_step": step,
        "fee": permit_page.fee_preview(kinds.get_type(PermitKind.STREET_OPENING), today=timezone.localdate()),
    }
    return form_page(request, "permits/street_opening/apply.html", context)


# The manage page's forms that an action binds, by their name on the page.
ACTION_FORMS = {
    "dates_form": ApproveWithDatesForm,
    "payment_form": StaffPaymentForm,
    "renew_form": RenewForm,
    "bond_amount_form": BondAmountForm,
}


def _manage_context(request, permit, **forms):
    so = permit.street_opening
    return {
        "permit": permit,
        "so": so,
        "tickets": so.tickets.select_related("verified_by"),
        "approve_form": forms.get("approve_form") or ApproveForm(),
        "payment_form": forms.get("payment_form") or StaffPaymentForm(initial={"amount": permit.balance_due}),
        "renew_form": forms.get("renew_form") or RenewForm(initial={"work_begun_on": so.work_begun_on}),
        "reason_form": forms.get("reason_form") or ReasonForm(),
        # § 303-4H(3): the bond filed for this permit, read from its document (it counts once its amount is recorded)
        "bond_amount_form": forms.get("bond_amount_form")
        or BondAmountForm(initial={"amount": so.guarantee_bond_amount}),
        "bond_in_force": so_services.bond_amount_in_force("guarantee", timezone.localdate()),
        "bond_filed": not so.annual_bond and permit.documents.on_file().filter(kind="bond").exists(),
        "approval_blockers": so_services.check_approval(permit, today=timezone.localdate(), plans_approved=True)
        if permit.status == Status.UNDER_REVIEW
        else [],
        # § 303-4D: what the 30-day validity says about approving today (a refusal, or a warning), and the way out
        "validity_outlook": lifecycle.approval_outlook(permit, today=timezone.localdate())
        if permit.status == Status.UNDER_REVIEW
        else [],
        "dates_form": forms.get("dates_form") or ApproveWithDatesForm(),
        "renewal_request": lifecycle.pending_request(so),
        "renewals_waiting": lifecycle.renewals_waiting_for_fee(so),
        "decide_form": forms.get("decide_form") or DecideRenewalForm(),
        # Each role sees only the actions it may take (the services refuse the rest on every path).
        "may": {
            "review": has_role(request.user, *so_services.REVIEWERS),
            "approve": has_role(request.user, *so_services.APPROVERS),
            "hold": has_role(request.user, *lifecycle.APPROVERS),
            "pay": has_role(request.user, Role.CLERK),
            "issue": has_role(request.user, *so_services.ISSUERS),
            "renew": has_role(request.user, Role.CLERK, Role.DPW_DIRECTOR),
            "revoke": has_role(request.user, *so_services.REVOKERS),
            # the clerk records the Board's motions; the Board, its President and its designees determine
            "determine": has_role(request.user, Role.CLERK, Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT),
        },
    }


@login_required
def manage(request, number):
    """Village staff: the actions on one street opening, each calling one service."""
    require_staff(request.user)
    return _manage_page(request, _get_street_opening(request.user, number))


def _manage_page(request, permit, *, status=200, **forms):
    return render(
        request, "permits/street_opening/manage.html", _manage_context(request, permit, **forms), status=status
    )


@login_required
@require_POST
def act(request, number, action):
    require_staff(request.user)
    permit = _get_street_opening(request.user, number)
    user = request.user
    reason_form = ReasonForm(request.POST)
    reason = {"reason": reason_form.data.get("reason", "")}
    # Each action: its service, the arguments it takes besides the permit and the user, the message once it is done.
    actions = {
        "review": (so_services.begin_review, {}, "Review started."),
        "issue": (so_services.issue_street_opening, {}, "Permit issued."),
        "emergency": (
            so_services.record_emergency_determination,
            reason,
            "Emergency determination recorded (§ 303-5A).",
        ),
        "moratorium": (so_services.grant_moratorium_exception, reason, "Moratorium exception recorded (§ 303-5I)."),
        "revoke_applicant": (
            so_services.revoke_applicant,
            reason,
            "Right to obtain permits revoked for one year (§ 303-4H(2)).",
        ),
        "hold": (
            lifecycle.hold_approval,
            {"conditions": reason_form.data.get("conditions", "")},
            "Approval held; the applicant was told when it can come (§ 303-4D).",
        ),
        "emergency_work": (
            so_services.approve_emergency_underground_work,
            {},
            "Emergency underground construction approved (§ 303-1C(7)).",
        ),
    }
    # The actions that take a form of their own, by its name on the page; an invalid one shows the page again.
    form_actions = {
        "approve_with_dates": (
            "dates_form",
            lifecycle.approve_with_dates,
            "Approved with the new planned dates; the applicant was told (§ 303-4D).",
        ),
        "payment": ("payment_form", services.record_payment, "Payment recorded."),
        "bond_amount": (
            "bond_amount_form",
            so_services.record_guarantee_bond_amount,
            "Amount of the bond for this permit recorded (§ 303-4H(3)).",
        ),
        "renew": (
            "renew_form",
            so_services.renew_street_opening,
            "Renewed for 30 days; the renewal fee was added (§ 303-4E).",
        ),
    }
    # The reason and the conditions the actions below read as typed: refused whole when too long, never cut or lost.
    for name in ("reason", "conditions"):
        if len(request.POST.get(name, "")) > MAX_DESCRIPTION:
            messages.error(request, length_message(name, MAX_DESCRIPTION) % {"show_value": len(request.POST[name])})
            return _manage_page(request, permit, status=400)
    if action == "approve":
        form = ApproveForm(request.POST)
        if not form.is_valid():  # approved without the conditions typed was worse than not approved
            return _manage_page(request, permit, status=400, approve_form=form)
        service, arguments = so_services.approve_street_opening, form.cleaned_data
        success = "Location approved; the permit is valid for 30 days (§ 303-4D)."
    elif action in form_actions:
        form_name, service, success = form_actions[action]
        form = ACTION_FORMS[form_name](request.POST)
        if not form.is_valid():
            return _manage_page(request, permit, status=400, **{form_name: form})
        arguments = form.cleaned_data
    elif action in actions:
        service, arguments, success = actions[action]
    else:
        raise Http404("No such action")
    if run_or_show_refusals(request, lambda: service(permit=permit, by=user, **arguments)):
        messages.success(request, success)
    return redirect("permits:street_opening_manage", number=permit.number)


@login_required
@require_POST
def verify_ticket(request, number, pk):
    permit = _get_street_opening(request.user, number)
    ticket = get_object_or_404(DiggersTicket, pk=pk, street_opening__permit=permit)
    if run_or_show_refusals(request, lambda: so_services.verify_ticket(ticket=ticket, by=request.user)):
        messages.success(request, f"Ticket {ticket.number} verified.")
    return redirect(permit)


@login_required
@require_http_methods(["GET", "POST"])
def add_ticket(request, number):
    permit = _get_street_opening(request.user, number)
    if not (is_applicant_side(request.user, permit) or is_village_staff(request.user)):
        raise PermissionDenied
    form = TicketForm(request.POST or None)
    if request.method == "POST":
        aliases = {"diggers_hotline_requested_at": "requested_at", "diggers_hotline_legal_start": "legal_start"}
        ticket = service_result(form, partial(so_services.add_diggers_ticket, permit=permit, by=request.user), aliases)
        if ticket is not None:
            messages.success(request, "Ticket added. It shows as entered by applicant until an inspector verifies it.")
            return redirect(permit)
    return form_page(request, "permits/street_opening/add_ticket.html", {"permit": permit, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def request_renewal(request, number):
    permit = _get_street_opening(request.user, number)
    if not is_applicant_side(request.user, permit):
        raise PermissionDenied
    form = RenewalRequestForm(request.POST or None)
    if request.method == "POST" and service_result(
        form, partial(lifecycle.request_renewal, permit=permit, by=request.user)
    ):
        messages.success(
            request,
            "Renewal requested in writing. The Clerk-Treasurer or the DPW decides; if granted, the renewal fee is "
            "added and the renewal takes effect when it is paid (§ 303-4E).",
        )
        return redirect(permit)
    so = permit.street_opening
    return form_page(
        request,
        "permits/street_opening/request_renewal.html",
        {
            "permit": permit,
            "form": form,
            "pending": lifecycle.pending_request(so),
            "requests": so.renewal_requests.select_related("decided_by")[:20],
        },
    )


@login_required
@require_POST
def decide_renewal(request, number):
    """§ 303-4E: the Clerk-Treasurer or the DPW grants (adding the fee) or refuses the permittee's written request."""
    require_staff(request.user)
    permit = _get_street_opening(request.user, number)
    form = DecideRenewalForm(request.POST)
    if not form.is_valid():
        return _manage_page(request, permit, status=400, decide_form=form)
    note = form.cleaned_data["note"]
    if form.cleaned_data["decision"] == "grant":
        call = (
            lambda: so_services.renew_street_opening(permit=permit, by=request.user, note=note),
            "Renewal granted; the renewal fee was added. It takes effect when the fee is paid (§ 303-4E).",
        )
    else:
        call = (
            lambda: lifecycle.refuse_renewal(permit=permit, by=request.user, reason=note),
            "Renewal refused; the permittee was told why (§ 303-4E).",
        )
    if run_or_show_refusals(request, call[0]):
        messages.success(request, call[1])
    return redirect("permits:street_opening_manage", number=permit.number)


@login_required
def held_approvals(request):
    """§ 303-4D: the DPW's queue of approvals held until their 30 days cover the planned work, soonest first."""
    require_role(request.user, *lifecycle.APPROVERS, Role.CLERK, action="see the held approvals")
    today = timezone.localdate()
    page = page_of(request, lifecycle.held_approvals())
    return render(request, "permits/street_opening/held_approvals.html", {"page": page, "today": today})


def _pdf_context(permit):
    so = permit.street_opening
    return {"so": so, "tickets": so.tickets.all(), "renewals": so.renewals.all()}


@login_required
def permit_pdf(request, number):
    """The issued permit, to keep on site: number, permittee, location, validity, conditions, notices, status link."""
    return issued_permit_pdf(_get_street_opening(request.user, number), "pdf/street_opening_permit.html", _pdf_context)


@login_required
@require_http_methods(["GET", "POST"])
def report_emergency(request):
    form = EmergencyReportForm(request.POST or None, user=request.user)
    if request.method == "POST":
        # § 303-5H: only a utility (and its staff) may claim an emergency; that refusal is on the organization.
        report = service_result(
            form, partial(so_services.report_emergency, by=request.user), {"emergency": "organization"}
        )
        if report is not None:
            deadline = ordinance.emergency_filing_deadline(report.began_on)
            messages.success(
                request,
                f"The Village office has been told. Apply for the permit by {deadline:%A, %B %-d, %Y} (§ 303-5H).",
            )
            return redirect("permits:street_opening_apply")
    return form_page(request, "permits/street_opening/report_emergency.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def renew_insurance(request, number):
    """§ 303-4G: the applicant (or the Clerk-Treasurer) records a renewed certificate of insurance and its expiry."""
    permit = _get_street_opening(request.user, number)
    if not (is_applicant_side(request.user, permit) or has_role(request.user, Role.CLERK)):
        raise PermissionDenied
    form = InsuranceRenewalForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and service_result(
        form, partial(so_services.renew_insurance, permit=permit, by=request.user)
    ):
        messages.success(
            request, "Renewed insurance recorded. The Clerk-Treasurer reviews the new certificate (§ 303-4G)."
        )
        return redirect(permit)
    return form_page(
        request,
        "permits/street_opening/renew_insurance.html",
        {"permit": permit, "form": form, "on_file": permit.street_opening.insurance_expires},
    )


@login_required
@require_http_methods(["GET", "POST"])
def annual_bonds(request):
    """§ 303-4H(5): the Clerk-Treasurer's register of contractors' annual bonds, and the form recording one."""
    require_role(request.user, Role.CLERK, action="record annual bonds (the Clerk-Treasurer does, § 303-4H(5))")
    form = AnnualBondForm(request.POST or None)
    if request.method == "POST":
        bond = service_result(form, partial(so_services.record_annual_bond, by=request.user))
        if bond is not None:
            messages.success(request, f"Recorded: {bond}.")
            return redirect("permits:street_opening_annual_bonds")
    page = page_of(request, so_services.annual_bonds())
    return form_page(request, "permits/street_opening/annual_bonds.html", {"form": form, "page": page})
