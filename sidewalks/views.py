"""Pages for sidewalk permits (apply, the permit, the inspector's phone page), parcel search, block-by-block
surveys and the Board's orders. Views are thin: fetch through an access helper, bind a form, call one service."""

from __future__ import annotations

from datetime import date
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits import kinds, permit_page, workflow
from permits.access import get_permit_for, require_role, require_staff
from permits.applicant import applications
from permits.errors import IllegalTransition
from permits.forms import PaymentForm, add_service_errors, service_result
from permits.input_limits import posted_ids
from permits.ledger.history import trail
from permits.models import Parcel, PermitKind, Status
from permits.paging import page_of
from permits.pdf import render_pdf
from permits.posting import form_page
from permits.roles import Role, has_role, is_village_staff
from permits.services import record_payment
from permits.text_search import matching
from permits.workflow import is_applicant_side
from sidewalks import forms, services
from sidewalks.models import MinorSidewalkRepair, SidewalkInspection, SidewalkOrder, SidewalkPermit, SidewalkSurvey

SURVEY_ACTION = "survey sidewalks (DPW inspectors and the Director of Public Works do, § 303-3E)"
ALIASES = {"service_method": "method", "service_proof": "proof"}


def _form_errors(form, error: ValidationError) -> None:
    add_service_errors(form, error, ALIASES)


# --- Permits ----------------------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    today = timezone.localdate()
    draft = applications.draft_for(request.user, request.POST.get("draft") or request.GET.get("draft"))
    if request.method == "POST" and request.POST.get("save_draft"):
        data = applications.form_data(request.POST)
        try:
            draft = applications.save_draft(applicant=request.user, kind=PermitKind.SIDEWALK, data=data, draft=draft)
        except ValidationError as error:  # a field too long to keep: the form shows it, checked
            form = forms.SidewalkApplicationForm(request.POST, request.FILES, user=request.user, today=today)
            form.is_valid()
            _form_errors(form, error)
            fee = permit_page.fee_preview(kinds.get_type(PermitKind.SIDEWALK), today=today)
            return form_page(request, "sidewalks/apply.html", {"form": form, "draft": draft, "fee": fee})
        messages.success(request, "Draft saved: continue it from My applications. Nothing was sent to the Village.")
        return redirect("permits:my_applications")
    initial = {"parcel": request.GET.get("parcel", ""), **applications.draft_initial(draft)}
    form = forms.SidewalkApplicationForm(
        request.POST or None, request.FILES or None, user=request.user, today=today, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            permit = services.apply_for_sidewalk_permit(applicant=request.user, today=today, **data)
        except ValidationError as error:
            _form_errors(form, error)
        except PermissionDenied as error:
            form.add_error("organization", str(error))
        else:
            if draft is not None:
                applications.delete_draft(draft=draft, by=request.user)
            messages.success(request, f"Application {permit.number} submitted. Fee: ${permit.fee_amount}.")
            return redirect("sidewalks:permit", permit.number)
    context = {
        "form": form,
        "draft": draft,
        "fee": permit_page.fee_preview(kinds.get_type(PermitKind.SIDEWALK), today=today),
    }
    return form_page(request, "sidewalks/apply.html", context)


def page_context(request, permit) -> dict:
    """What the sidewalk permit adds to the permit's one page (the registry's page_context)."""
    user = request.user
    today = timezone.localdate()
    under_review = permit.status in (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)
    may_issue = has_role(user, Role.CLERK) and under_review
    standing_problems = services.standing_violations(permit) if under_review else []
    return {
        "on_sidewalk_page": True,
        "sidewalk": permit.sidewalk,
        # § 303-3C: the clerk sees on what standing the filer files, and accepts an agent's or contractor's.
        "standing_problems": standing_problems,
        "standing_form": forms.StandingForm(permit=permit)
        if may_issue and standing_problems and permit.sidewalk.standing != "owner"
        else None,
        "inspections": permit.sidewalk_inspections.select_related("inspector").order_by("-inspected_at", "-pk"),
        "blockers": services.completion_blockers(permit) if permit.status == Status.ACTIVE else [],
        "may_issue": has_role(user, Role.CLERK)
        and permit.status in (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED),
        "may_inspect": has_role(user, *services.INSPECTING_ROLES) and permit.status in (Status.ISSUED, Status.ACTIVE),
        "may_complete": workflow.may_transition(user, permit, Status.COMPLETED) and not is_applicant_side(user, permit),
        "earliest_if_issued_today": services.ordinance.earliest_work_date(today),
        "pour_too_soon": "; ".join(v.message for v in services.workflow_lead_time(permit, today))
        if permit.status in (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)
        else "",
        "payment_form": PaymentForm(initial={"amount": permit.balance_due, "method": "cash"}),
    }


def _permit_context(request, permit, **extra):
    return permit_page.page_context(request, permit, today=timezone.localdate(), **extra)


@login_required
def permit_detail(request, number):
    """The sidewalk permit's address shows the permit's one page: the same content as permits:detail."""
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    return render(request, permit_page.page_template(permit), _permit_context(request, permit))


@login_required
def permit_pdf(request, number):
    """§ 303-3C: the issued sidewalk permit, to keep on site: parcel, work, dimensions, when work may start, the
    inspections, and the link that checks it is genuine."""
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    if permit.issued_on is None:
        raise Http404("The permit is not issued yet")
    context = {
        "permit": permit,
        "sw": permit.sidewalk,
        "earliest": services.ordinance.earliest_work_date(permit.issued_on),
    }
    response = HttpResponse(render_pdf("pdf/sidewalk_permit.html", context), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{permit.number}.pdf"'
    return response


@login_required
@require_POST
def record_fee_payment(request, number):
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    require_role(request.user, Role.CLERK, action="record fee payments (the Clerk-Treasurer does)")
    form = PaymentForm(request.POST)
    payment = service_result(form, partial(record_payment, permit=permit, by=request.user), ALIASES)
    if payment is not None:
        messages.success(request, f"Payment recorded; receipt {payment.receipt_number}.")
        return redirect("sidewalks:permit", number)
    return render(request, "sidewalks/permit.html", _permit_context(request, permit, payment_form=form), status=400)


@login_required
@require_POST
def accept_standing(request, number):
    """§ 303-3C: the Clerk-Treasurer accepts an agent's written authorization or confirms the Village's contract."""
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    require_role(request.user, Role.CLERK, action="accept a filer's standing (the Clerk-Treasurer does, § 303-3C)")
    form = forms.StandingForm(request.POST, permit=permit)
    if form.is_valid():
        try:
            services.accept_standing(
                permit=permit,
                by=request.user,
                document=form.cleaned_data.get("document"),
                reference=form.cleaned_data.get("reference") or "",
            )
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(request, f"{permit.number}: the filer's standing is accepted (§ 303-3C).")
            return redirect("sidewalks:permit", number)
    return render(request, "sidewalks/permit.html", _permit_context(request, permit, standing_form=form), status=400)


@login_required
@require_POST
def issue(request, number):
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    pour_date = None
    raw = (request.POST.get("pour_date") or "").strip()
    if raw:
        try:
            pour_date = date.fromisoformat(raw)
        except ValueError:
            messages.error(request, "Planned pour date: enter a date such as 2026-06-08 (§ 303-3C).")
            return redirect("sidewalks:permit", number)
    try:
        services.issue_sidewalk_permit(permit=permit, by=request.user, pour_date=pour_date)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, f"{permit.number} is issued.")
    return redirect("sidewalks:permit", number)


@login_required
@require_http_methods(["GET", "POST"])
def inspect(request, number):
    """The inspector's phone page: pick a stage, enter what was measured, the rules decide."""
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    require_role(request.user, *services.INSPECTING_ROLES, action="inspect sidewalk work (DPW inspectors do)")
    stage = request.POST.get("stage") or request.GET.get("stage")
    if stage not in SidewalkInspection.Stage.values:
        stage = None
    form = forms.InspectionForm(request.POST or None, stage=stage) if stage else None
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            inspection = services.record_inspection(
                permit=permit,
                stage=stage,
                by=request.user,
                other_defect=form.cleaned_data["other_defect"],
                notes=form.cleaned_data["notes"],
                **form.measurements(),
            )
        except ValidationError as error:
            _form_errors(form, error)
        else:
            label = inspection.get_stage_display().split(" (")[0]
            if inspection.result == SidewalkInspection.Result.PASSED:
                messages.success(request, f"{label}: passed.")
            else:
                messages.error(request, f"{label}: failed. {inspection.findings}")
            return redirect("sidewalks:inspect", number)
    latest = services.latest_inspections(permit)
    context = {
        "permit": permit,
        "sidewalk": permit.sidewalk,
        "stage": stage,
        "stage_label": SidewalkInspection.Stage(stage).label if stage else "",
        "stages": [(s, latest.get(s.value)) for s in SidewalkInspection.Stage],
        "form": form,
        "blockers": services.completion_blockers(permit),
        "may_complete": permit.status == Status.ACTIVE,
    }
    return render(request, "sidewalks/inspect.html", context, status=400 if form is not None and form.errors else 200)


@login_required
def to_inspect(request):
    """The inspector's phone list: issued sidewalk work and work under way, soonest pour first."""
    require_role(request.user, *services.INSPECTING_ROLES, action="open the inspection list (DPW inspectors do)")
    # The kind is implied, but naming it lets the page's count read the small partial index of open sidewalk
    # permits (permit_open_sidewalk_idx) instead of every permit by primary key.
    qs = (
        SidewalkPermit.objects.filter(
            permit__kind=PermitKind.SIDEWALK, permit__status__in=[Status.ISSUED, Status.ACTIVE]
        )
        .select_related("permit", "parcel", "permit__organization", "permit__applicant")
        .order_by("pour_date", "permit__number")
    )
    page = page_of(request, qs)
    return render(request, "sidewalks/to_inspect.html", {"page": page})


@login_required
@require_POST
def complete(request, number):
    permit = get_permit_for(request.user, number, kind=PermitKind.SIDEWALK)
    try:
        services.complete_sidewalk_permit(permit=permit, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    except workflow.IllegalTransition as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{permit.number} is completed.")
    return redirect(
        request.POST.get("next") == "inspect"
        and reverse("sidewalks:inspect", args=[number])
        or reverse("sidewalks:permit", args=[number])
    )


# --- Parcels ----------------------------------------------------------------------------------------------------------


def search_parcels(text: str):
    text = (text or "").strip()
    # Ordered by address (its index), not by street name first: a join sorts every match, and this stops at a page.
    qs = Parcel.objects.select_related("street").order_by("site_address", "tax_key")
    if not text:
        return qs.none()
    return qs.filter(matching(Parcel, text, ["site_address", "owner_name", "tax_key"]))


@login_required
def parcel_search(request):
    q = request.GET.get("q", "")
    page = page_of(request, search_parcels(q))
    return render(request, "sidewalks/parcel_search.html", {"q": q, "page": page})


# --- Surveys ----------------------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def surveys(request):
    require_staff(request.user, action="open sidewalk surveys (Village staff do)")
    may_survey = has_role(request.user, *services.SURVEYING_ROLES)
    form = forms.SurveyForm(request.POST or None, initial={"surveyed_on": timezone.localdate(), "block_area_sqft": 20})
    if request.method == "POST":
        require_role(request.user, *services.SURVEYING_ROLES, action=SURVEY_ACTION)
        if form.is_valid():
            survey = services.start_survey(by=request.user, **form.cleaned_data)
            return redirect(survey)
    qs = SidewalkSurvey.objects.select_related("street", "inspector").annotate(
        block_count=Count("blocks", distinct=True),
        defective_count=Count("blocks", filter=Q(blocks__defective=True), distinct=True),
    )
    page = page_of(request, qs.order_by("-surveyed_on", "-pk"))
    return form_page(request, "sidewalks/surveys.html", {"page": page, "form": form, "may_survey": may_survey})


@login_required
@require_http_methods(["GET", "POST"])
def survey(request, pk):
    """The block-by-block survey on a phone: one block at a time, the rule marks it defective or not."""
    require_staff(request.user, action="open sidewalk surveys (Village staff do)")
    survey = get_object_or_404(SidewalkSurvey.objects.select_related("street", "inspector"), pk=pk)
    may_survey = has_role(request.user, *services.SURVEYING_ROLES) and survey.orders_proposed_on is None
    form = forms.BlockForm(request.POST or None, street=survey.street)
    if request.method == "POST":
        require_role(request.user, *services.SURVEYING_ROLES, action=SURVEY_ACTION)
        if survey.orders_proposed_on is not None:
            raise PermissionDenied("You may not re-measure a survey whose orders were proposed: start a new survey.")
        block = service_result(form, partial(services.record_block, survey=survey, by=request.user), ALIASES)
        if block is not None:
            verdict = f"defective: {block.defects}" if block.defective else "not defective"
            messages.success(request, f"{block.parcel.site_address} block {block.block_number} recorded, {verdict}.")
            return redirect(f"{survey.get_absolute_url()}?parcel={block.parcel_id}&next={block.block_number + 1}")
    elif request.GET.get("parcel"):
        form = forms.BlockForm(
            street=survey.street, initial={"parcel": request.GET["parcel"], "block_number": request.GET.get("next", 1)}
        )
    blocks = survey.blocks.select_related("parcel").order_by("parcel__site_address", "block_number")
    page = page_of(request, blocks, per_page=50)
    context = {
        "survey": survey,
        "form": form,
        "page": page,
        "may_survey": may_survey,
        "summary": services.survey_summary(survey),
        "may_propose": has_role(request.user, *services.SURVEYING_ROLES, Role.CLERK)
        and survey.orders_proposed_on is None,
    }
    return form_page(request, "sidewalks/survey.html", context)


@login_required
@require_POST
def propose(request, pk):
    survey = get_object_or_404(SidewalkSurvey, pk=pk)
    orders = services.propose_orders(survey=survey, by=request.user)
    messages.success(request, f"{len(orders)} order(s) proposed for the Board.")
    return redirect(reverse("sidewalks:orders") + f"?survey={survey.pk}")


# --- Orders ---------------------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def orders(request):
    """Staff: the Board's sidewalk orders; the clerk records a resolution adopting the proposed ones."""
    require_staff(request.user, action="open the Board's sidewalk orders (Village staff do)")
    may_adopt = has_role(request.user, Role.CLERK)
    form = forms.AdoptForm(request.POST or None)
    if request.method == "POST":
        require_role(request.user, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
        try:
            ids = posted_ids(request.POST.getlist("order"), "order")
        except ValidationError as error:
            ids = []
            form.add_error(None, error.messages)
        chosen = SidewalkOrder.objects.filter(pk__in=ids, status=SidewalkOrder.Status.PROPOSED)
        if form.is_valid():
            if not chosen:
                form.add_error(None, "Tick the orders the Board adopted.")
            else:
                try:
                    done = services.adopt_orders(orders=list(chosen), by=request.user, **form.cleaned_data)
                except ValidationError as error:
                    _form_errors(form, error)
                else:
                    messages.success(
                        request,
                        f"{done} order(s) adopted by resolution {form.cleaned_data['motion'].resolution_number}.",
                    )
                    return redirect("sidewalks:orders")
    qs = SidewalkOrder.objects.select_related("parcel", "survey__street")
    status = request.GET.get("status", "")
    if status in SidewalkOrder.Status.values:
        qs = qs.filter(status=status)
    if request.GET.get("survey", "").isdigit():
        qs = qs.filter(survey_id=request.GET["survey"])
    page = page_of(request, qs.order_by("-created_at", "-pk"))
    context = {
        "page": page,
        "form": form,
        "may_adopt": may_adopt,
        "status": status,
        "statuses": SidewalkOrder.Status.choices,
        "query": f"status={status}" if status else "",
    }
    return form_page(request, "sidewalks/orders.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def order_illegal(request):
    """§ 303-3F: DPW or the clerk proposes that an illegal walk be replaced."""
    require_role(
        request.user,
        *services.SURVEYING_ROLES,
        Role.CLERK,
        action="propose sidewalk orders (DPW or the Clerk-Treasurer does, § 303-3F)",
    )
    form = forms.IllegalSidewalkForm(request.POST or None)
    if request.method == "POST":
        order = service_result(form, partial(services.order_illegal_sidewalk, by=request.user), ALIASES)
        if order is not None:
            messages.success(request, f"Order {order.number} proposed: replace the walk (§ 303-3F).")
            return redirect(order)
    return form_page(request, "sidewalks/order_illegal.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def order_board(request):
    """§ 303-3A: DPW or the clerk proposes sidewalk or curb and gutter work for the Board to order."""
    require_role(
        request.user,
        *services.SURVEYING_ROLES,
        Role.CLERK,
        action="propose Board orders (DPW or the Clerk-Treasurer does, § 303-3A)",
    )
    form = forms.BoardOrderForm(request.POST or None)
    if request.method == "POST":
        order = service_result(form, partial(services.propose_board_order, by=request.user), ALIASES)
        if order is not None:
            messages.success(
                request, f"Order {order.number} proposed: {order.get_element_display().lower()} (§ 303-3A)."
            )
            return redirect(order)
    return form_page(request, "sidewalks/order_board.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def minor_repairs(request):
    """§ 303-3B(3), Wis. Stat. § 66.0907: DPW (or the clerk) records a minor repair made at once; the clerk records
    the Board's authority and its cost limit."""
    require_role(
        request.user,
        Role.DPW_DIRECTOR,
        Role.CLERK,
        action="record minor sidewalk repairs (DPW or the Clerk-Treasurer does)",
    )
    may_authorise = has_role(request.user, Role.CLERK)
    form = forms.MinorRepairForm(None if "limit" in request.POST else (request.POST or None))
    authority_form = forms.MinorRepairAuthorityForm(request.POST if "limit" in request.POST else None)
    if request.method == "POST" and "limit" in request.POST:
        require_role(request.user, Role.CLERK, action="record the Board's resolutions (the Clerk-Treasurer does)")
        authority = service_result(authority_form, partial(services.set_minor_repair_authority, by=request.user))
        if authority is not None:
            messages.success(
                request, f"Recorded: minor repairs up to ${authority.limit} from {authority.effective_from:%B %-d, %Y}."
            )
            return redirect("sidewalks:minor_repairs")
    elif request.method == "POST":
        repair = service_result(form, partial(services.record_minor_repair, by=request.user))
        if repair is not None:
            messages.success(request, f"Minor repair {repair.number} recorded; charge {repair.charge.number} billed.")
            return redirect(repair)
    context = {
        "form": form,
        "authority_form": authority_form if may_authorise else None,
        "authority": services.minor_repair_authority_on(timezone.localdate()),
        "repairs": MinorSidewalkRepair.objects.select_related("parcel", "charge")[:20],
    }
    status = 400 if form.errors or authority_form.errors else 200
    return render(request, "sidewalks/minor_repairs.html", context, status=status)


@login_required
def minor_repair(request, number):
    """A minor repair and its charge: staff, or the owner of record of the parcel."""
    qs = MinorSidewalkRepair.objects.select_related("parcel", "charge", "authority__motion", "recorded_by")
    if not is_village_staff(request.user):
        qs = qs.filter(parcel__owners=request.user)
    repair = get_object_or_404(qs, number=number)
    return render(
        request, "sidewalks/minor_repair.html", {"repair": repair, "is_owner_view": not is_village_staff(request.user)}
    )


ORDER_ACTIONS = {
    "serve": (forms.ServeForm, lambda order, by, d: services.serve_order(order=order, by=by, **d), "Service recorded."),
    "owner": (
        forms.OwnerWorkForm,
        lambda order, by, d: services.record_owner_work(order=order, by=by, **d),
        "Recorded: the owner did the work.",
    ),
    "withdraw": (
        forms.WithdrawForm,
        lambda order, by, d: services.withdraw_order(order=order, by=by, **d),
        "The order is withdrawn.",
    ),
    "village": (
        forms.VillageWorkForm,
        lambda order, by, d: services.record_village_work(order=order, by=by, **d),
        "The Village's work is recorded.",
    ),
}


def _order_context(order, user, **bound):
    try:
        charge_url = order.charge.get_absolute_url() if order.charge_id else None
    except NoReverseMatch:
        charge_url = None
    S = SidewalkOrder.Status
    clerk = has_role(user, Role.CLERK)
    return {
        "order": order,
        "charge_url": charge_url,
        "is_owner_view": not is_village_staff(user),
        "serve_form": bound.get("serve")
        or (
            forms.ServeForm(initial={"served_on": timezone.localdate()})
            if clerk and order.status == S.ADOPTED
            else None
        ),
        "owner_form": bound.get("owner")
        or (forms.OwnerWorkForm() if is_village_staff(user) and order.status in (S.ADOPTED, S.SERVED) else None),
        "village_form": bound.get("village")
        or (
            forms.VillageWorkForm(initial={"cost": order.estimated_cost, "done_on": timezone.localdate()})
            if has_role(user, Role.CLERK, Role.DPW_DIRECTOR) and order.status == S.SERVED
            else None
        ),
        "may_charge": clerk and order.status == S.VILLAGE_DONE,
        "history": trail(order),
        "withdraw_form": bound.get("withdraw")
        or (forms.WithdrawForm() if clerk and order.status in (S.PROPOSED, S.ADOPTED, S.SERVED) else None),
    }


@login_required
def order_detail(request, number):
    """Staff see every order; the owner of record sees the orders against their own parcel (no actions)."""
    qs = SidewalkOrder.objects.select_related("parcel", "survey__street", "owner_permit", "charge")
    if not is_village_staff(request.user):
        qs = qs.filter(parcel__owners=request.user)
    order = get_object_or_404(qs, number=number)
    return render(request, "sidewalks/order.html", _order_context(order, request.user))


@login_required
@require_POST
def order_act(request, number, action):
    require_staff(request.user, action="act on sidewalk orders (Village staff do)")
    order = get_object_or_404(
        SidewalkOrder.objects.select_related("parcel", "survey__street", "owner_permit", "charge"), number=number
    )
    if action == "charge":
        try:
            charge = services.charge_order(order=order, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        except IllegalTransition as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, f"Charge {charge.number} of ${charge.amount} recorded against {order.parcel.tax_key}."
            )
        return redirect(order)
    if action not in ORDER_ACTIONS:
        raise Http404
    form_class, act, done = ORDER_ACTIONS[action]
    form = form_class(request.POST)
    if form.is_valid():
        try:
            act(order, request.user, form.cleaned_data)
        except ValidationError as error:
            _form_errors(form, error)
        except IllegalTransition as error:  # someone else moved the order meanwhile (it is reloaded)
            form.add_error(None, str(error))
        else:
            messages.success(request, done)
            return redirect(order)
    return render(request, "sidewalks/order.html", _order_context(order, request.user, **{action: form}), status=400)
