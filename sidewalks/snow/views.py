"""Snow and ice (§ 303-8) and rubbish (§ 303-2) pages: the public report form and the DPW's pages (phone-first)."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from permits.access import require_role, require_staff
from permits.errors import IllegalTransition
from permits.forms import add_service_errors, service_result
from permits.ledger.history import trail
from permits.ledger.services import charges_for_work
from permits.paging import page_of
from permits.posting import transacted_result
from permits.public_forms import report_page
from permits.roles import Role, has_role, is_village_staff
from sidewalks.models import RubbishCase, SnowCase, Snowfall
from sidewalks.snow import rules as snow_rules
from sidewalks.snow import services as snow
from sidewalks.snow.forms import (
    AssignParcelForm,
    ClearingForm,
    CloseCaseForm,
    RubbishNoticeForm,
    RubbishRemovalForm,
    SnowfallForm,
    SnowReportForm,
    StaffSnowReportForm,
    UnoccupiedForm,
)

REPORTS_PER_HOUR = 5  # per address of the reporter: the public form is not a way to flood the DPW


def _is_dpw(user) -> bool:
    return has_role(user, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)


# --- Public ----------------------------------------------------------------------------------------------------


def snow_report(request):
    """Anyone may report an uncleared sidewalk (§ 303-8A): no login, a sum for robots, a few reports an hour."""

    def submit(data):
        case = snow.report_snow_case(
            address=data["address"],
            details=data["details"],
            contact=data["contact"],
            by=request.user if request.user.is_authenticated else None,
        )
        request.session["snow_report_number"] = case.number
        request.session["snow_report_follow"] = case.follow_token
        return redirect("sidewalks:snow_report_thanks")

    return report_page(
        request,
        SnowReportForm,
        template="sidewalks/snow_report.html",
        limit_group="sidewalks:snow-report",
        per_hour=REPORTS_PER_HOUR,
        submit=submit,
    )


def snow_report_thanks(request):
    token = request.session.get("snow_report_follow")
    return render(
        request,
        "sidewalks/snow_report_thanks.html",
        {"number": request.session.get("snow_report_number"), "follow_token": token},
    )


def snow_follow(request, token):
    """The reporter's page (no login, the unguessable link from the thanks page): the case's status, the owner's
    deadline (§ 303-8A), when the Village may clear (§ 303-8B) and the outcome; nothing about the owner."""
    case = (
        SnowCase.objects.select_related("snowfall").filter(follow_token=token).exclude(follow_token="").first()
        if token
        else None
    )
    if case is None:
        raise Http404("No such report")
    clock = _clock(case, timezone.now())
    response = render(request, "sidewalks/snow_follow.html", {"case": case, "clock": clock})
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: it is not sent on to other sites
    return response


# --- DPW: snowfalls and cases ------------------------------------------------------------------------------------


@login_required
def snow_office(request):
    """The DPW's snow page: record a snowfall, report a walk, and the open cases with when the crew may clear."""
    require_staff(request.user, action="open the snow and ice page (Village staff do)")
    dpw = _is_dpw(request.user)
    snowfall_form, report_form = SnowfallForm(prefix="snowfall"), StaffSnowReportForm(prefix="report")
    if request.method == "POST":
        require_role(request.user, *snow.DPW_ROLES, action="record snowfalls or report walks here (DPW does)")
        if "snowfall-stopped_at" in request.POST:
            snowfall_form = SnowfallForm(request.POST, prefix="snowfall")
            snowfall = service_result(snowfall_form, partial(snow.record_snowfall, by=request.user))
            if snowfall is not None:
                messages.success(request, f"{snowfall} recorded.")
                return redirect("sidewalks:snow")
        else:
            report_form = StaffSnowReportForm(request.POST, prefix="report")
            # § 303-8A: an address that is not of the Village is refused on the form, with suggestions.
            case = service_result(report_form, partial(snow.report_snow_case, by=request.user))
            if case is not None:
                messages.success(request, f"Case {case.number} opened.")
                return redirect(case)
    cases = SnowCase.objects.filter(status=SnowCase.Status.OPEN).select_related("parcel", "snowfall")
    page = page_of(request, cases.order_by("reported_at"))
    now = timezone.now()
    latest = snow.snowfall_at(now)  # one query for every row: the later snowfall that restarts the 24 hours
    rows = [(case, _clock(case, now, latest=latest)) for case in page]
    return render(
        request,
        "sidewalks/snow_office.html",
        {
            "page": page,
            "rows": rows,
            "snowfalls": Snowfall.objects.all()[:5],
            "dpw": dpw,
            "snowfall_form": snowfall_form,
            "report_form": report_form,
        },
        status=400 if request.method == "POST" else 200,
    )


def _clock(case: SnowCase, now, *, latest=None):
    """When the owner's 24 hours end, when the Village may clear, and the § 303-8C hours so far, counted from the
    snowfall the case is about or a later one that restarted them (§ 303-8A)."""
    if case.snowfall_id is None:
        return None
    at = case.cleared_at or now
    running = snow.clock_snowfall(case, at, latest=latest if case.cleared_at is None else None)
    stopped = running.stopped_at
    return {
        "owner_deadline": snow_rules.owner_clearing_deadline(stopped),
        "may_clear": snow_rules.village_may_clear(stopped, now),
        "hours": snow_rules.hours_of_violation(stopped, at),
        "restarted_by": running if running.pk != case.snowfall_id else None,
    }


@login_required
def snowfall_detail(request, pk):
    require_staff(request.user, action="open snowfall records (Village staff do)")
    snowfall = Snowfall.objects.filter(pk=pk).first()
    if snowfall is None:
        raise Http404
    page = page_of(request, snowfall.cases.select_related("parcel").order_by("reported_at"))
    return render(request, "sidewalks/snowfall_detail.html", {"snowfall": snowfall, "page": page})


def _case_for(user, number: str) -> SnowCase:
    """Staff see every case; the owner of the parcel sees the case behind a charge on it."""
    case = SnowCase.objects.select_related("parcel", "street", "snowfall", "cleared_by").filter(number=number).first()
    if case is None or not (is_village_staff(user) or (case.parcel and case.parcel.owners.filter(pk=user.pk).exists())):
        raise Http404("No such case")
    return case


@login_required
def snow_case(request, number):
    case = _case_for(request.user, number)
    return _render_case(request, case)


def _render_case(
    request, case, *, clearing_form=None, close_form=None, assign_form=None, unoccupied_form=None, status=200
):
    dpw = _is_dpw(request.user)
    parcel = case.parcel
    return render(
        request,
        "sidewalks/snow_case.html",
        {
            "case": case,
            "clock": _clock(case, timezone.now()),
            "walks": snow_rules.walks_owner_must_clear(parcel.corner_lot, parcel.crosswalk_adjacent) if parcel else [],
            "charges": charges_for_work(case),
            "dpw": dpw and case.status == SnowCase.Status.OPEN,
            "clearing_form": clearing_form
            or ClearingForm(initial={"at": timezone.localtime().replace(second=0, microsecond=0)}),
            "close_form": close_form or CloseCaseForm(),
            "assign_form": assign_form or AssignParcelForm(),
            "village_staff": is_village_staff(request.user),
            "unoccupied_form": unoccupied_form or UnoccupiedForm(initial={"unoccupied": case.unoccupied}),
            "history": trail(case),
        },
        status=status,
    )


def _case_step(form_class, form_name: str, action: str, call):
    """A DPW step posted on the case page (the DPW roles only, `action` saying what they do): bind `form_class`, call
    the service (`call(case, user, data)` returns the message shown), back to the case; a refusal, or a change
    another crew made meanwhile (the case is reloaded), on the form."""

    @login_required
    @require_POST
    def view(request, number):
        require_role(request.user, *snow.DPW_ROLES, action=action)
        case = _case_for(request.user, number)
        form = form_class(request.POST)
        if form.is_valid():
            try:
                done = call(case, request.user, form.cleaned_data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            except IllegalTransition as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, done)
                return redirect(case)
        return _render_case(request, case, status=400, **{form_name: form})

    return view


def _clear(case, user, data) -> str:
    """§ 303-8B: the crew logs the Village's clearing; the charge from the fee schedule follows."""
    with transaction.atomic():
        charge = snow.log_village_clearing(case=case, by=user, **data)
    return f"Clearing logged; charge {charge.number} of ${charge.amount} billed to the owner."


def _close(case, user, data) -> str:
    snow.close_snow_case(case=case, by=user, **data)
    return f"Case {case.number} closed."


def _assign(case, user, data) -> str:
    snow.assign_case(case=case, by=user, parcel=data["tax_key"])
    return "Parcel assigned."


def _flag_unoccupied(case, user, data) -> str:
    """§ 303-8B: DPW staff record that the lot is unoccupied or abandoned (no written notice), or that it is not."""
    snow.set_unoccupied(case=case, by=user, unoccupied=data["unoccupied"])
    return "Occupancy recorded."


snow_case_clear = _case_step(ClearingForm, "clearing_form", "log Village snow clearing (DPW does, § 303-8B)", _clear)
snow_case_close = _case_step(CloseCaseForm, "close_form", "close snow cases (DPW does)", _close)
snow_case_assign = _case_step(AssignParcelForm, "assign_form", "assign snow cases (DPW does)", _assign)
snow_case_unoccupied = _case_step(
    UnoccupiedForm,
    "unoccupied_form",
    "flag a lot as unoccupied or abandoned (DPW does, § 303-8B)",
    _flag_unoccupied,
)


# --- Rubbish (§ 303-2) --------------------------------------------------------------------------------------------


@login_required
def rubbish_cases(request):
    require_staff(request.user, action="open the rubbish notices (Village staff do)")
    may_serve = snow.may_serve_rubbish_notice(request.user, on=timezone.localdate())
    form = RubbishNoticeForm(initial={"served_at": timezone.localtime().replace(second=0, microsecond=0)})
    if request.method == "POST":
        if not may_serve:
            raise PermissionDenied(
                "You may not serve rubbish notices: only the Village Board's designee for § 303-2 may (§ 303-2)."
            )
        form = RubbishNoticeForm(request.POST)

        def serve(*, tax_key, **data):
            with transaction.atomic():
                return snow.serve_rubbish_notice(parcel=tax_key, by=request.user, **data)

        case = service_result(form, serve)
        if case is not None:
            messages.success(request, f"Notice {case.number} recorded.")
            return redirect(case)
    qs = RubbishCase.objects.select_related("parcel").order_by("-served_at")
    page = page_of(request, qs)
    return render(
        request,
        "sidewalks/rubbish_cases.html",
        {"page": page, "form": form, "may_serve": may_serve},
        status=400 if request.method == "POST" else 200,
    )


def _rubbish_for(user, number: str) -> RubbishCase:
    case = RubbishCase.objects.select_related("parcel").filter(number=number).first()
    if case is None or not (is_village_staff(user) or case.parcel.owners.filter(pk=user.pk).exists()):
        raise Http404("No such case")
    return case


@login_required
def rubbish_case(request, number):
    case = _rubbish_for(request.user, number)
    form = RubbishRemovalForm(initial={"at": timezone.localtime().replace(second=0, microsecond=0)})
    status = 200
    if request.method == "POST":
        require_role(request.user, *snow.DPW_ROLES, action="log rubbish removal (DPW does, § 303-2)")
        if request.POST.get("action") == "owner_removed":
            try:
                snow.record_rubbish_removed_by_owner(case=case, by=request.user)
            except IllegalTransition as exc:
                messages.error(request, str(exc))
            return redirect(case)
        form = RubbishRemovalForm(request.POST)
        # A case closed by someone else meanwhile is refused on the form as a whole.
        charge = transacted_result(form, partial(snow.log_rubbish_removal, case=case, by=request.user))
        if charge is not None:
            messages.success(request, f"Removal logged; charge {charge.number} of ${charge.amount} billed.")
            return redirect(case)
        status = 400
    return render(
        request,
        "sidewalks/rubbish_case.html",
        {
            "case": case,
            "form": form,
            "charges": charges_for_work(case),
            "dpw": _is_dpw(request.user) and case.status == RubbishCase.Status.NOTICED,
            "history": trail(case),
        },
        status=status,
    )
