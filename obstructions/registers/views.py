"""The Clerk-Treasurer's registers as pages: grades (§ 303-1A, § 303-1B) and the improvement requests listed by the
year the Board considers them (§ 303-11), with the list as CSV for the budget meeting. Staff read; the clerk records."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from obstructions.registers import services
from obstructions.registers.forms import (
    GradeAlterationForm,
    GradeForm,
    HigherStandardForm,
    ImprovementRequestForm,
    StreetWidthsForm,
    TerraceApprovalForm,
    VillageContractForm,
)
from obstructions.registers.models import Grade, HigherStandard, ImprovementRequest, TerraceApproval
from permits import spreadsheet
from permits import village_contracts as contracts
from permits.forms import service_result
from permits.input_limits import plausible_year
from permits.models import Street, VillageContract
from permits.paging import page_of
from permits.roles import Role, has_role


def _require_reader(user) -> None:
    if not services.may_read_registers(user):
        raise PermissionDenied("Only Village staff and the Board read the Clerk-Treasurer's registers.")


def _clerk_form(request, form_class, refusal: str):
    """A register page's form: the Clerk-Treasurer's, bound to what was posted; None for the other readers, who see
    the register and may not post to it (`refusal` says who does)."""
    _require_reader(request.user)
    if has_role(request.user, Role.CLERK):
        return form_class(request.POST or None)
    if request.method == "POST":
        raise PermissionDenied(refusal)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def grades(request):
    _require_reader(request.user)
    clerk = has_role(request.user, Role.CLERK)
    altering = request.POST.get("form") == "alteration"
    form = GradeForm(None if altering else request.POST or None) if clerk else None
    alteration = GradeAlterationForm(request.POST if altering else None) if clerk else None
    if request.method == "POST":
        if not clerk:
            raise PermissionDenied("Only the Clerk-Treasurer records grades (§ 303-1A(1), § 303-1B).")
        bound, verb = (alteration, services.alter_grade) if altering else (form, services.record_grade)
        grade = service_result(bound, partial(verb, by=request.user))
        if grade is not None:
            messages.success(request, f"Recorded: {grade} ({grade.get_basis_display()}).")
            return redirect("obstructions:registers:grades")
    q = request.GET.get("q", "").strip()[:100]
    qs = Grade.objects.select_related("street", "authorized_by").order_by("street__name", "way", "-in_force", "-pk")
    if q:
        qs = qs.filter(street__name__icontains=q)
    page = page_of(request, qs)
    return render(
        request,
        "obstructions/registers/grades.html",
        {"page": page, "form": form, "alteration": alteration, "q": q, "query": f"q={q}" if q else ""},
    )


@login_required
@require_http_methods(["GET", "POST"])
def higher_standards(request):
    form = _clerk_form(
        request, HigherStandardForm, "Only the Clerk-Treasurer records the Board's standards (§ 303-3D(11))."
    )
    if request.method == "POST":
        standard = service_result(form, partial(services.record_higher_standard, by=request.user))
        if standard is not None:
            messages.success(request, f"Recorded: {standard}. Sidewalk applications there are held to it.")
            return redirect("obstructions:registers:higher_standards")
    qs = HigherStandard.objects.select_related("street", "parcel").order_by("street__name", "-adopted_on", "-pk")
    page = page_of(request, qs)
    return render(request, "obstructions/registers/higher_standards.html", {"page": page, "form": form})


def _year(request) -> int:
    """The year asked for (?year=), else next year: what the coming budget meeting considers (§ 303-11)."""
    return plausible_year(request.GET.get("year", "")) or timezone.localdate().year + 1


@login_required
@require_http_methods(["GET", "POST"])
def improvements(request):
    form = _clerk_form(
        request, ImprovementRequestForm, "Only the Clerk-Treasurer receives improvement requests (§ 303-11)."
    )
    if request.method == "POST":
        received = service_result(form, partial(services.receive_improvement_request, by=request.user))
        if received is not None:
            messages.success(
                request,
                f"Received: {received.get_kind_display()} at {received.location}, for the Board to consider for "
                f"{received.consideration_year} (§ 303-11).",
            )
            return redirect(f"{request.path}?year={received.consideration_year}")
    year = _year(request)
    page = page_of(request, services.improvement_list(year))
    years = (
        ImprovementRequest.objects.values("consideration_year")
        .annotate(n=Count("pk"))
        .order_by("-consideration_year")[:10]
    )
    return render(
        request,
        "obstructions/registers/improvements.html",
        {"page": page, "form": form, "year": year, "years": years, "query": f"year={year}"},
    )


@login_required
def improvements_csv(request):
    """§ 303-11: the clerk's list for the Board's budget meeting, one row per request."""
    _require_reader(request.user)
    year = _year(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="improvement-requests-{year}.csv"'
    writer = spreadsheet.writer(response)
    writer.writerow(["Considered for", "Improvement", "Location", "Street", "Petitioners", "Signatures", "Presented"])
    for r in services.improvement_list(year).iterator(chunk_size=500):
        writer.writerow(
            [
                r.consideration_year,
                r.get_kind_display(),
                r.location,
                r.street.name if r.street_id else "",
                r.petitioners,
                r.signatures,
                timezone.localtime(r.presented_at).strftime("%Y-%m-%d %H:%M"),
            ]
        )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def terrace_approvals(request):
    """§ 303-9B: the terrace areas approved to be covered. The clerk records the Board's motions; the Board's
    designee for § 303-9 records his own approvals; every reader of the registers sees them."""
    _require_reader(request.user)
    may_record = services.may_record_terrace_approval(request.user)
    if request.method == "POST" and not may_record:
        raise PermissionDenied("Only the Board's designee for § 303-9, or the clerk recording the Board's motion, may.")
    form = TerraceApprovalForm(request.POST or None) if may_record else None
    if request.method == "POST":
        approval = service_result(form, partial(services.record_terrace_approval, by=request.user))
        if approval is not None:
            messages.success(request, f"Recorded: {approval}. Enforcement cases on that terrace read it (§ 303-9B).")
            return redirect("obstructions:registers:terrace_approvals")
    qs = TerraceApproval.objects.select_related("parcel", "motion__item__meeting", "approved_by")
    page = page_of(request, qs.order_by("-approved_on", "-pk"))
    return render(request, "obstructions/registers/terrace_approvals.html", {"page": page, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def village_contracts(request):
    """§ 303-3C: the Village's contracts for sidewalk work. Staff read the register; the Clerk-Treasurer keeps it. A
    sidewalk permit filed as the Village's contractor is accepted only on a contract here covering the parcel."""
    form = _clerk_form(
        request, VillageContractForm, "Only the Clerk-Treasurer keeps the Village's contract register (§ 303-3C)."
    )
    if request.method == "POST":
        contract = service_result(form, partial(contracts.record_contract, by=request.user))
        if contract is not None:
            messages.success(request, f"Recorded: {contract}.")
            return redirect("obstructions:registers:village_contracts")
    qs = VillageContract.objects.select_related("organization", "motion__item__meeting").prefetch_related("parcels")
    page = page_of(request, qs.order_by("-starts_on", "number"))
    return render(request, "obstructions/registers/village_contracts.html", {"page": page, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def street_widths(request):
    """The street register: each street's width, traveled width and sidewalk width (§ 303-7D(1), § 303-6B(2)). Staff
    read it; the Clerk-Treasurer or the Director of Public Works records them."""
    _require_reader(request.user)
    recorder = services.may_record_street_widths(request.user)
    if request.method == "POST" and not recorder:
        raise PermissionDenied("Only the Clerk-Treasurer or the Director of Public Works records street widths.")
    form = StreetWidthsForm(request.POST or None, initial={"street": request.GET.get("street")}) if recorder else None
    if request.method == "POST":
        street = service_result(form, partial(services.record_street_widths, by=request.user))
        if street is not None:
            messages.success(request, f"Recorded the widths of {street}.")
            return redirect("obstructions:registers:street_widths")
    q = request.GET.get("q", "").strip()[:100]
    qs = Street.objects.select_related("widths_recorded_by").order_by("name")
    if q:
        qs = qs.filter(name__icontains=q)
    page = page_of(request, qs)
    return render(
        request,
        "obstructions/registers/street_widths.html",
        {"page": page, "form": form, "q": q, "query": f"q={q}" if q else ""},
    )
