"""Field pages of a street opening, built for a phone: the inspector's list and inspection forms, and the
permittee's notices, pavement and completion. Views are thin: fetch through the access helper, bind the form, call
one service in field_work.py, message, redirect."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits.access import get_permit_for, require_role
from permits.errors import RulesBroken
from permits.forms import service_result
from permits.models import PermitKind, Status
from permits.paging import MAX_PAGES, PAGE_SIZE, page_of
from permits.posting import form_page
from permits.roles import has_role
from permits.street_opening import lifecycle
from permits.street_opening.field import rules as field_rules
from permits.street_opening.field import services as field_work
from permits.street_opening.field.forms import (
    INSPECTION_FORMS,
    CoveringHoldForm,
    DefectFindingForm,
    FaultyWorkNoticeForm,
    PermanentPavementForm,
    PermitteeNoticeForm,
    PlanWorkForm,
    TemporaryPavementForm,
    VillageExpenseForm,
    VillageRepairForm,
    add_violations,
)
from permits.street_opening.field.models import DefectNotice, Inspection


def _street_opening_for(user, number):
    return get_permit_for(user, number, kind=PermitKind.STREET_OPENING)  # 404 for anyone who may not see it


def _field_url(permit) -> str:
    return reverse("permits:field_permit", args=[permit.number])


def _require_inspector(user) -> None:
    require_role(user, *field_work.INSPECTORS, action="open the inspectors' pages")


@login_required
def inspections(request):
    """The inspector's list: street openings with work under way, work announced for today first."""
    _require_inspector(request.user)
    today = timezone.localdate()
    queue = field_work.InspectionQueue(today=today, count_at_most=PAGE_SIZE * MAX_PAGES + 1)
    page = page_of(request, queue)
    return render(request, "permits/street_opening/field/inspections.html", {"page": page, "today": today})


# The permittee's forms on the field page, by their name in the page's context: the form and its field prefix.
PERMITTEE_FORMS = {
    "plan_form": (PlanWorkForm, "plan"),
    "notice_form": (PermitteeNoticeForm, "notice"),
    "temporary_form": (TemporaryPavementForm, "temp"),
    "permanent_form": (PermanentPavementForm, "perm"),
}


def _permittee_form(name: str, data=None):
    form_class, prefix = PERMITTEE_FORMS[name]
    return form_class(data, prefix=prefix)


def _permit_context(request, permit, **forms):
    user = request.user
    is_permittee = field_work.may_act_as_permittee(user, permit)
    context = {
        "permit": permit,
        "inspections": page_of(request, permit.inspections.select_related("inspector", "photo")),
        "notices": permit.permittee_notices.all(),
        "restoration": getattr(permit, "pavement_restoration", None),
        "guarantee": getattr(permit, "guarantee", None),
        "defects": permit.defect_notices.all(),
        "covering_hold": field_work.open_covering_hold(permit),
        "may_bill_expenses": has_role(user, *field_work.EXPENSE_BILLERS),
        "expenses": permit.village_expenses.all(),
        "may_hold_covering": field_work.may_hold_covering(user, permit),
        "hold_form": CoveringHoldForm(prefix="hold"),
        "is_inspector": has_role(user, *field_work.INSPECTORS),
        "is_dpw_director": has_role(user, *field_work.DEFECT_RECORDERS),
        "may_record_defect": field_work.may_record_defect_notice(user, permit),
        "is_permittee": is_permittee,
        "can_log": has_role(user, *field_work.INSPECTORS) and permit.status in field_work.INSPECTABLE,
        "permittee_forms": is_permittee and permit.status in field_work.WORK_UNDER_WAY,
        "can_complete": is_permittee and permit.status in (Status.ISSUED, Status.ACTIVE),
        "can_confirm": has_role(user, *lifecycle.COMPLETION_CONFIRMERS)
        and permit.status in (Status.ISSUED, Status.ACTIVE),
        "so": field_work.detail_of(permit),
        "kinds": Inspection.Kind.choices,
        "notice_rules": field_rules.NOTICE_RULES.values(),
        "blockers": lifecycle.completion_refusals(permit) if permit.status in (Status.ISSUED, Status.ACTIVE) else [],
        **{name: _permittee_form(name) for name in PERMITTEE_FORMS},
    }
    context.update(forms)
    return context


@login_required
def permit_page(request, number):
    """One street opening's field record; its forms depend on who is looking."""
    permit = _street_opening_for(request.user, number)
    return render(request, "permits/street_opening/field/permit.html", _permit_context(request, permit))


@login_required
@require_http_methods(["GET", "POST"])
def inspect(request, number, kind):
    _require_inspector(request.user)
    permit = _street_opening_for(request.user, number)
    form_class = INSPECTION_FORMS.get(kind)
    if form_class is None:
        raise Http404("No such inspection")
    initial = {}
    detail = field_work.detail_of(permit)
    if kind in ("pavement", "saw_cut") and detail is not None and detail.surface in ("bituminous", "concrete"):
        initial["surface"] = detail.surface
    form = form_class(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        notes, photo = data.pop("notes", ""), data.pop("photo", None)
        try:
            inspection = field_work.log_inspection(
                permit=permit, kind=kind, by=request.user, values=data, notes=notes, photo=photo
            )
        except RulesBroken as broken:
            add_violations(form, broken.violations)
        except ValidationError as error:  # the photo's type or size (permits.uploads)
            form.add_error("photo", error)
        else:
            label = inspection.get_kind_display()
            if inspection.result == Inspection.Result.PASS:
                messages.success(request, f"{label}: passed.")
            else:
                detail_text = " ".join(f["message"] for f in inspection.failures)
                messages.error(request, f"{label}: FAILED. {detail_text}")
            return redirect(_field_url(permit))
    context = {
        "permit": permit,
        "form": form,
        "kind": kind,
        "label": Inspection.Kind(kind).label,
        "citation": field_rules.INSPECTION_CITATIONS[kind],
    }
    return form_page(request, "permits/street_opening/field/inspect.html", context)


def _bound_or_error(request, permit, form, service, success: str, form_name: str):
    """Run `service(form.cleaned_data)` for a valid form; otherwise show the permit page with the form's errors."""
    if form.is_valid():
        try:
            service(form.cleaned_data)
        except RulesBroken as broken:
            add_violations(form, broken.violations)
        else:
            messages.success(request, success)
            return redirect(_field_url(permit))
    return render(
        request,
        "permits/street_opening/field/permit.html",
        _permit_context(request, permit, **{form_name: form}),
        status=400,
    )


def _permittee_form_view(form_name: str, service, success: str):
    """A POST view of one permittee form of the field page: `service(permit=, by=, **cleaned_data)`, then back to the
    page (with the form's errors when it is invalid or the service refuses)."""

    @login_required
    @require_POST
    def view(request, number):
        permit = _street_opening_for(request.user, number)
        form = _permittee_form(form_name, request.POST)

        def run(data):
            service(permit=permit, by=request.user, **data)

        return _bound_or_error(request, permit, form, run, success, form_name)

    return view


plan_work = _permittee_form_view(
    "plan_form",
    field_work.schedule_notice_reminders,
    "Work planned. You will be reminded a day before each notice is due.",
)
temporary_pavement = _permittee_form_view(
    "temporary_form", field_work.record_temporary_pavement, "Temporary surface recorded."
)
permanent_pavement = _permittee_form_view(
    "permanent_form", field_work.record_permanent_pavement, "Permanent pavement recorded."
)


@login_required
@require_POST
def give_notice(request, number):
    permit = _street_opening_for(request.user, number)
    form = _permittee_form("notice_form", request.POST)

    def record(d):
        notice = field_work.record_permittee_notice(permit=permit, by=request.user, **d)
        if notice.timeliness == "late":
            messages.warning(request, field_rules.notice_late_message(notice.kind, timezone.localtime(notice.due_by)))

    return _bound_or_error(request, permit, form, record, "Notice recorded.", "notice_form")


@login_required
@require_POST
def covering_hold(request, number):
    """§ 303-1C(4): the Director of Public Works asks to check the underground construction before it is covered."""
    permit = _street_opening_for(request.user, number)
    form = CoveringHoldForm(request.POST, prefix="hold")
    try:
        if not form.is_valid():
            raise RulesBroken([field_rules.Violation("note", "invalid", "§ 303-1C(4)", "The note is too long.")])
        field_work.request_inspection_before_covering(permit=permit, by=request.user, note=form.cleaned_data["note"])
    except RulesBroken as broken:
        for v in broken.violations:
            messages.error(request, v.message)
    else:
        messages.success(
            request, "The permittee was told not to cover the construction until the DPW has checked it (§ 303-1C(4))."
        )
    return redirect(_field_url(permit))


@login_required
@require_POST
def report_completion(request, number):
    """§ 303-4H(3): the permittee requests completion; the DPW confirms it after the passed final inspection."""
    permit = _street_opening_for(request.user, number)
    try:
        lifecycle.request_completion(permit=permit, by=request.user)
    except RulesBroken as broken:
        for v in broken.violations:
            messages.error(request, v.message)
    except PermissionDenied as denied:
        messages.error(request, str(denied))
    else:
        messages.success(
            request,
            "Completion requested. The permit stays open until the DPW confirms it after a passed final inspection of "
            "the restored surface; the one-year guarantee starts on that date (§ 303-1C(8), § 303-4H(3)).",
        )
    return redirect(_field_url(permit))


@login_required
@require_POST
def confirm_completion(request, number):
    """§ 303-1C(8): the DPW Director or a DPW inspector confirms (or refuses, saying why) the requested completion."""
    require_role(request.user, *lifecycle.COMPLETION_CONFIRMERS, action="confirm completion (§ 303-1C(8))")
    permit = _street_opening_for(request.user, number)
    refuse = request.POST.get("decision") == "refuse"
    try:
        if refuse:
            lifecycle.refuse_completion(permit=permit, by=request.user, reason=request.POST.get("reason", ""))
        else:
            guarantee = lifecycle.confirm_completion(permit=permit, by=request.user)
    except RulesBroken as broken:
        for v in broken.violations:
            messages.error(request, v.message)
    else:
        if refuse:
            messages.success(request, "Completion refused; the permittee was told why.")
        else:
            messages.success(
                request,
                f"Completion confirmed. The work is guaranteed until {guarantee.ends_on:%B %-d, %Y} (§ 303-4H(3)).",
            )
    return redirect(_field_url(permit))


@login_required
@require_http_methods(["GET", "POST"])
def defect_notice(request, number):
    """While the work is under way, the DPW Director's notice of faulty work (§ 303-4H(2)); in the guarantee year, the
    clerk records the Village Board's finding of defective work from its minutes (§ 303-4H(4))."""
    permit = _street_opening_for(request.user, number)
    if not field_work.may_record_defect_notice(request.user, permit):
        raise PermissionDenied
    board_finding = field_work.defect_notice_kind(permit) == DefectNotice.Kind.BOARD_FINDING
    initial = {"served_on": timezone.localdate(), "addressed_to": "permittee"}
    if board_finding:
        form = DefectFindingForm(request.POST or None, initial=initial, permit=permit)
        service = partial(field_work.record_defect_finding, permit=permit, by=request.user)
    else:
        form = FaultyWorkNoticeForm(request.POST or None, initial=initial)
        service = partial(field_work.record_faulty_work_notice, permit=permit, by=request.user)
    if request.method == "POST" and service_result(form, service):
        messages.success(request, "Defect notice recorded and sent.")
        return redirect(_field_url(permit))
    return form_page(
        request,
        "permits/street_opening/field/defect.html",
        {"permit": permit, "form": form, "board_finding": board_finding},
    )


@login_required
@require_http_methods(["GET", "POST"])
def village_repair(request, number, pk):
    """The DPW records the Village's repair of an uncorrected defect and bills it plus 20% (§ 303-4H(2))."""
    require_role(
        request.user, *field_work.DEFECT_RECORDERS, action="record the Village's repair of a defect (§ 303-4H(2))"
    )
    permit = _street_opening_for(request.user, number)
    notice = get_object_or_404(DefectNotice, pk=pk, permit=permit)
    form = VillageRepairForm(request.POST or None, initial={"repaired_on": timezone.localdate()})
    if request.method == "POST":
        repaired = service_result(form, partial(field_work.record_village_repair, notice=notice, by=request.user))
        if repaired is not None:
            messages.success(request, f"Village repair billed: ${repaired.repair_total} (§ 303-4H(2)).")
            return redirect(_field_url(permit))
    return form_page(
        request, "permits/street_opening/field/repair.html", {"permit": permit, "notice": notice, "form": form}
    )


@login_required
@require_http_methods(["GET", "POST"])
def village_expenses(request, number):
    """§ 303-4F(2): the DPW or the clerk bills the Village's actual expenses on the opening, added to the permit fee."""
    require_role(request.user, *field_work.EXPENSE_BILLERS, action="bill the Village's expenses (§ 303-4F(2))")
    permit = _street_opening_for(request.user, number)
    form = VillageExpenseForm(
        request.POST or None, request.FILES or None, initial={"incurred_on": timezone.localdate()}
    )
    if request.method == "POST":
        billed = service_result(form, partial(field_work.bill_village_expenses, permit=permit, by=request.user))
        if billed is not None:
            messages.success(
                request, f"Village expenses billed: ${billed.total} added to the permit fee (§ 303-4F(2))."
            )
            return redirect(_field_url(permit))
    return form_page(
        request,
        "permits/street_opening/field/expenses.html",
        {"permit": permit, "form": form, "expenses": permit.village_expenses.select_related("receipt")},
    )


@login_required
@require_POST
def defect_corrected(request, number, pk):
    permit = _street_opening_for(request.user, number)
    notice = get_object_or_404(DefectNotice, pk=pk, permit=permit)
    field_work.record_correction(notice=notice, by=request.user)
    messages.success(request, "Correction recorded.")
    return redirect(_field_url(permit))
