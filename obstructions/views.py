"""Enforcement case pages (phone-first): the public complaint form, the officials' queue and case page, the
Clerk-Treasurer's street numbers. Views are thin: fetch, bind the form, call one service, message, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from obstructions import materials, services
from obstructions.forms import (
    CloseForm,
    ComplaintForm,
    MatchForm,
    MaterialsAuthorizationForm,
    OpenCaseForm,
    PhotoForm,
    ReferralForm,
    ReinspectionForm,
    RemovalForm,
    ServeNoticeForm,
    StreetNumberForm,
)
from obstructions.models import Case, MaterialsAuthorization, StreetNumber
from permits.access import require_staff
from permits.errors import IllegalTransition, RulesBroken
from permits.forms import add_service_errors
from permits.ledger.history import trail
from permits.ledger.services import charges_for_work
from permits.paging import page_keys_first, page_of
from permits.public_forms import report_page
from permits.roles import Role, has_role

COMPLAINTS_PER_HOUR = 5  # per address of the complainant, like the snow report
STAFF_ACTION = "open the enforcement pages (Village staff do)"


def _now_initial() -> dict:
    return timezone.localtime().replace(second=0, microsecond=0)


# --- Public -------------------------------------------------------------------------------------------------------


def complaint(request):
    """Anyone may report an obstructed sidewalk, street or drain (§ 303-6, § 303-13): no login, a sum for robots."""

    def submit(data):
        case = services.report_case(address=data["address"], what=data["details"], contact=data["contact"])
        request.session["complaint_number"] = case.number
        return redirect("obstructions:complaint_thanks")

    return report_page(
        request,
        ComplaintForm,
        template="obstructions/complaint.html",
        limit_group="obstructions:complaint",
        per_hour=COMPLAINTS_PER_HOUR,
        submit=submit,
    )


def complaint_thanks(request):
    return render(request, "obstructions/complaint_thanks.html", {"number": request.session.get("complaint_number")})


# --- Staff: the queue and opening a case --------------------------------------------------------------------------


@login_required
def cases(request):
    """The open cases, most urgent first (flagged, then by deadline); "all" lists every case, newest first."""
    require_staff(request.user, action=STAFF_ACTION)
    show_all = request.GET.get("show") == "all"
    qs = Case.objects.select_related("parcel")
    if show_all:
        qs = qs.order_by("-opened_at", "-pk")
    else:
        qs = qs.filter(status__in=[Case.Status.OPEN, Case.Status.NOTICED]).order_by("-attention", "deadline_at", "pk")
    # The page's keys sorted from the cases alone, then those 25 joined to their parcels: joining first would
    # sort every parcel with its cases (measured: docs/bench/measurements.md).
    page = page_keys_first(qs, request.GET.get("page"))
    return render(
        request,
        "obstructions/cases.html",
        {"page": page, "show_all": show_all, "query": "show=all" if show_all else "", "may_open": _may_open(request)},
    )


def _may_open(request) -> bool:
    return has_role(request.user, *services.NUMBER_CASE_ROLES)


@login_required
def open_case(request):
    require_staff(request.user, action=STAFF_ACTION)
    form = OpenCaseForm(request.POST or None, request.FILES or None, initial={"seen_at": _now_initial()})
    if request.method == "POST" and form.is_valid():
        try:
            case = services.open_case(by=request.user, **form.service_arguments())
        except ValidationError as exc:
            add_service_errors(form, exc, aliases={"photo": "photos"})
        else:
            if case.status == Case.Status.EXCEPTED:
                messages.info(request, f"Case {case.number} recorded and closed: no violation (see its history).")
            else:
                messages.success(request, f"Case {case.number} opened: serve the written notice next.")
            return redirect(case)
    status = 400 if request.method == "POST" else 200
    return render(request, "obstructions/open_case.html", {"form": form}, status=status)


# --- Staff: the case page and its steps ----------------------------------------------------------------------------


def _case_for(user, number: str) -> Case:
    require_staff(user, action=STAFF_ACTION)
    case = Case.objects.select_related("parcel", "opened_by").filter(number=number).first()
    if case is None:
        raise Http404("No such case")
    return case


@login_required
def case_page(request, number):
    return _render_case(request, _case_for(request.user, number))


def _render_case(request, case: Case, status: int = 200, **forms):
    now = _now_initial()
    may_work = services.may_work(request.user, case.kind)
    context = {
        "case": case,
        "may_work": may_work,
        "steps": list(case.steps.all()),
        "history": trail(case),
        "charges": charges_for_work(case),
        "is_obstruction": case.kind in services.OBSTRUCTIONS,
        "serve_form": forms.get("serve_form") or ServeNoticeForm(initial={"served_at": now}),
        "reinspect_form": forms.get("reinspect_form") or ReinspectionForm(initial={"at": now}),
        "removal_form": forms.get("removal_form") or RemovalForm(initial={"removed_at": now}),
        "referral_form": forms.get("referral_form") or ReferralForm(initial={"referred_at": now}),
        "photo_form": forms.get("photo_form") or PhotoForm(),
        "close_form": forms.get("close_form") or CloseForm(),
        "match_form": forms.get("match_form")
        or MatchForm(initial={"address": case.reported_address, "kind": case.kind}),
    }
    return render(request, "obstructions/case.html", context, status=status)


def _step_view(form_class, form_name, call, done_message):
    """A POST on the case page: bind `form_class`, call the service, message and back to the case."""

    @login_required
    @require_POST
    def view(request, number):
        case = _case_for(request.user, number)
        form = form_class(request.POST, request.FILES)
        if form.is_valid():
            try:
                call(case, request.user, form.cleaned_data)
            except ValidationError as exc:
                add_service_errors(form, exc, aliases={"referred_on": "referred_at", "parcel": "address"})
            except IllegalTransition as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, done_message)
                return redirect(case)
        case.refresh_from_db()
        return _render_case(request, case, status=400, **{form_name: form})

    return view


def _match(case, user, data):
    parcel = services.find_parcel(data["address"])
    if parcel is None:
        message = "No single parcel has this address: type it as on the tax roll."
        raise RulesBroken.one("address", "unknown_parcel", "", message)
    services.match_case(case=case, parcel=parcel, kind=data["kind"], by=user)


case_serve = _step_view(
    ServeNoticeForm,
    "serve_form",
    lambda case, user, d: services.serve_notice(case=case, by=user, **d),
    "Notice recorded as served; its deadline is on the case.",
)
case_reinspect = _step_view(
    ReinspectionForm,
    "reinspect_form",
    lambda case, user, d: services.record_reinspection(case=case, by=user, **d),
    "Re-inspection recorded.",
)
case_remove = _step_view(
    RemovalForm,
    "removal_form",
    lambda case, user, d: services.record_removal(case=case, by=user, **d),
    "Removal recorded and billed to the owner (§ 303-6F(1)).",
)
case_refer = _step_view(
    ReferralForm,
    "referral_form",
    lambda case, user, d: services.refer_for_forfeiture(case=case, by=user, **d),
    "Referred for a forfeiture (Chapter 1, § 1-5).",
)
case_photo = _step_view(
    PhotoForm,
    "photo_form",
    lambda case, user, d: services.add_photo(case=case, upload=d["photo"], note=d["note"], by=user),
    "Photo added.",
)
case_close = _step_view(
    CloseForm,
    "close_form",
    lambda case, user, d: services.close_case(case=case, by=user, **d),
    "Case closed: no violation.",
)
case_match = _step_view(MatchForm, "match_form", _match, "Complaint matched to its parcel.")


@login_required
def case_photo_file(request, number, pk):
    """A case photo, to Village staff only (never a public media URL)."""
    from django.http import FileResponse

    case = _case_for(request.user, number)
    step = case.steps.filter(pk=pk).exclude(photo="").first()
    if step is None:
        raise Http404("No such photo")
    response = FileResponse(step.photo.open("rb"), content_type=step.photo_type or "application/octet-stream")
    response["X-Content-Type-Options"] = "nosniff"
    return response


# --- The Clerk-Treasurer: street numbers (§ 303-14A) ----------------------------------------------------------------


@login_required
def numbers(request):
    require_staff(request.user, action="open the street numbers (Village staff do)")
    is_clerk = has_role(request.user, Role.CLERK)
    form = StreetNumberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        parcel = services.find_parcel(form.cleaned_data["address"])
        if parcel is None:
            form.add_error("address", "No single parcel has this address: type it as on the tax roll.")
        else:
            try:
                assigned = services.assign_street_number(
                    parcel=parcel,
                    number=form.cleaned_data["number"],
                    suffix=form.cleaned_data["suffix"],
                    building=form.cleaned_data["building"],
                    map_reference=form.cleaned_data["map_reference"],
                    by=request.user,
                )
            except ValidationError as exc:
                add_service_errors(form, exc, aliases={"parcel": "address"})
            else:
                messages.success(request, f"Official number {assigned} assigned (§ 303-14A).")
                return redirect("obstructions:numbers")
    qs = StreetNumber.objects.select_related("parcel", "street", "assigned_by").order_by("street__name", "number", "pk")
    page = page_of(request, qs)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "obstructions/numbers.html", {"page": page, "form": form, "is_clerk": is_clerk}, status=status
    )


# --- Staff: the Building Inspector's materials authorizations (§ 303-6B(2)) ----------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def materials_authorizations(request):
    """§ 303-6B(2): the authorizations of building materials without a § 303-7 permit. Staff read them (an official
    names one when opening a case); the Building Inspector records them."""
    require_staff(request.user, action=STAFF_ACTION)
    may_authorize = materials.may_authorize(request.user)
    if request.method == "POST" and not may_authorize:
        raise PermissionDenied("Only the Building Inspector authorizes building materials (§ 303-6B(2)).")
    form = MaterialsAuthorizationForm(request.POST or None) if may_authorize else None
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        parcel = services.find_parcel(data.pop("address"))
        try:
            made = materials.authorize_materials(by=request.user, parcel=parcel, **data)
        except ValidationError as exc:
            add_service_errors(form, exc, aliases={"parcel": "address"})
        else:
            messages.success(request, f"Authorization {made.number} recorded (§ 303-6B(2)).")
            return redirect("obstructions:materials")
    page = page_of(request, MaterialsAuthorization.objects.select_related("parcel", "authorized_by"))
    status = 400 if request.method == "POST" else 200
    return render(request, "obstructions/materials.html", {"page": page, "form": form}, status=status)
