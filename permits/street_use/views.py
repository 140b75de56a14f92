"""Pages of the street use permit (§ 303-15): apply, the neighbours' petition, the clerk's page (petition, Board,
issue), termination from a phone (§ 303-15H), events in progress, and the permit PDF."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits.access import get_permit_for, require_role
from permits.board.models import Motion
from permits.errors import RulesBroken
from permits.forms import add_violations, service_result
from permits.issued_pdf import issued_permit_pdf
from permits.models import Permit, PermitKind, Status
from permits.paging import page_of
from permits.posting import form_page
from permits.refusals import run_or_show_refusals
from permits.roles import Role
from permits.street_use import services
from permits.street_use.forms import (
    AppearanceForm,
    DecisionForm,
    MeetingForm,
    PaperSignatureForm,
    PetitionAreaForm,
    SignRequestForm,
    StreetUseForm,
    TerminateForm,
)


def _get_street_use(user, number) -> Permit:
    return get_permit_for(user, number, kind=PermitKind.STREET_USE)


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    form = StreetUseForm(request.POST or None)
    if request.method == "POST":
        permit = service_result(form, lambda **data: services.apply_for_street_use(applicant=request.user, data=data))
        if permit is not None:
            messages.success(
                request,
                f"Application {permit.number} submitted. The fee is ${permit.fee_amount}. Share the petition link "
                "with your neighbours (§ 303-15F).",
            )
            return redirect(permit)
    return form_page(request, "permits/street_use/apply.html", {"form": form})


# --- The neighbours' petition (public: reached by the link the applicant shares) -----------------------------------


def _by_token(token) -> Permit:
    return get_object_or_404(
        Permit.objects.select_related("street_use", "street"), public_token=token, kind="street_use"
    )


@require_http_methods(["GET", "POST"])
def petition(request, token):
    permit = _by_token(token)
    su = permit.street_use
    parcels = services.parcels_on(su)
    form = SignRequestForm(request.POST or None, parcels=parcels)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.request_signature_link(permit=permit, **form.cleaned_data)
        except RulesBroken as error:
            add_violations(form, error.violations)
        else:
            messages.success(
                request,
                f"We emailed a link to {form.cleaned_data['email']}. Open it to sign; it is good for "
                f"{services.SIGN_LINK_DAYS} days.",
            )
            return redirect("permits:street_use_petition", token=token)
    if form.errors:
        status = 400
    context = {"permit": permit, "su": su, "form": form, "count": services.petition_count(su), "open": _open(permit)}
    return render(request, "permits/street_use/petition.html", context, status=status)


def _open(permit) -> bool:
    return permit.status == Status.SUBMITTED and permit.street_use.petition_verified_at is None


@require_http_methods(["GET", "POST"])
def sign(request, token):
    try:
        link = services.read_signature_link(token)
    except RulesBroken as error:
        return render(request, "permits/street_use/sign.html", {"errors": error.violations}, status=400)
    context = {**link, "su": link["permit"].street_use}
    if request.method == "POST":
        try:
            services.sign_online(token=token)
        except RulesBroken as error:
            return render(request, "permits/street_use/sign.html", {**context, "errors": error.violations}, status=400)
        messages.success(request, f"Thank you: your signature on the petition of {link['permit'].number} is recorded.")
        return redirect("permits:street_use_petition", token=link["permit"].public_token)
    return render(request, "permits/street_use/sign.html", context)


# --- The clerk's page ---------------------------------------------------------------------------------------------


def _manage_context(permit, **forms):
    su = permit.street_use
    today = timezone.localdate()
    items = services.items_for(permit)
    motions = Motion.objects.filter(item__in=items).select_related("item__meeting")
    roster = services.roster(su, on=today)
    return {
        "permit": permit,
        "su": su,
        "count": services.petition_count(su, on=today),
        "roster": roster,
        "signatures": su.signatures.select_related("resident", "parcel", "entered_by"),
        "items": items,
        "appearances": su.appearances.select_related("item__meeting"),
        "motions": motions,
        "open": _open(permit),
        "area_form": forms.get("area_form") or PetitionAreaForm(street=permit.street),
        "paper_form": forms.get("paper_form") or PaperSignatureForm(roster=roster, initial={"signed_on": today}),
        "meeting_form": forms.get("meeting_form") or MeetingForm(),
        "appearance_form": forms.get("appearance_form")
        or AppearanceForm(items=items, initial={"name": su.applicant_name, "capacity": "applicant"}),
        "decision_form": forms.get("decision_form") or DecisionForm(motions=motions),
        "guarantees_missing": sorted(su.required_guarantees - services.guarantees_on_file(permit)),
    }


def _clerk_permit(request, number) -> Permit:
    require_role(request.user, Role.CLERK, action="open the clerk's street use page")
    return _get_street_use(request.user, number)


@login_required
def manage(request, number):
    permit = _clerk_permit(request, number)
    return render(request, "permits/street_use/manage.html", _manage_context(permit))


@login_required
@require_POST
def act(request, number, action):
    permit = _clerk_permit(request, number)
    user = request.user
    context = _manage_context(permit)
    forms = {
        "area": ("area_form", lambda: PetitionAreaForm(request.POST, street=permit.street)),
        "paper": ("paper_form", lambda: PaperSignatureForm(request.POST, roster=context["roster"])),
        "agenda": ("meeting_form", lambda: MeetingForm(request.POST)),
        "present": ("appearance_form", lambda: AppearanceForm(request.POST, items=context["items"])),
        "decide": ("decision_form", lambda: DecisionForm(request.POST, motions=context["motions"])),
    }
    if action in forms:
        name, make = forms[action]
        form = make()
        if not form.is_valid():
            return render(
                request, "permits/street_use/manage.html", _manage_context(permit, **{name: form}), status=400
            )
        data = form.cleaned_data
    elif action not in ("verify", "issue"):
        raise Http404("No such action")
    calls = {
        "area": lambda: services.set_petition_area(permit=permit, segments=data["segments"], by=user),
        "paper": lambda: services.enter_paper_signature(
            permit=permit,
            by=user,
            signer_name=data["signer_name"],
            parcel=data["resident"].parcel if data["resident"] else None,
            resident=data["resident"],
            signed_on=data["signed_on"],
        ),
        "verify": lambda: services.verify_petition(permit=permit, by=user),
        "agenda": lambda: services.place_on_agenda(permit=permit, meeting=data["meeting"], by=user),
        "present": lambda: services.record_appearance(
            permit=permit, item=data["item"], name=data["name"], capacity=data["capacity"], by=user
        ),
        "decide": lambda: services.decide_street_use(
            permit=permit,
            motion=data["motion"],
            by=user,
            grant=data["decision"] == "grant",
            conditions=data["conditions"],
            requires_indemnity=data["requires_indemnity"],
            requires_insurance=data["requires_insurance"],
            requires_bond=data["requires_bond"],
        ),
        "issue": lambda: services.issue_street_use(permit=permit, by=user),
    }
    done = {
        "area": "Petition area recorded (§ 303-15F).",
        "paper": "Signature entered (§ 303-15F).",
        "verify": "Petition verified; the application goes to the Village Board (§ 303-15C).",
        "agenda": "Placed on the Board's agenda (§ 303-15C).",
        "present": "Presence recorded (§ 303-15C).",
        "decide": "The Board's decision is recorded (§ 303-15C).",
        "issue": "Permit issued (§ 303-15A).",
    }
    if run_or_show_refusals(request, calls[action]):
        messages.success(request, done[action])
    return redirect("permits:street_use_manage", number=permit.number)


# --- § 303-15H: the Village President or a law enforcement officer -------------------------------------------------

TERMINATORS = services.TERMINATORS


@login_required
def in_progress(request):
    """Street use events issued and not over, soonest first: where the President or an officer terminates one."""
    require_role(request.user, *TERMINATORS, Role.CLERK, action="see the street use events")
    now = timezone.now()
    qs = (
        Permit.objects.filter(kind=PermitKind.STREET_USE, status=Status.ISSUED, street_use__ends_at__gte=now)
        .select_related("street", "street_use")
        .order_by("street_use__starts_at", "pk")
    )
    page = page_of(request, qs)
    return render(request, "permits/street_use/in_progress.html", {"page": page, "now": now})


@login_required
@require_http_methods(["GET", "POST"])
def terminate(request, number):
    require_role(request.user, *TERMINATORS, action="terminate a street use permit (§ 303-15H)")
    permit = _get_street_use(request.user, number)
    form = TerminateForm(request.POST or None)
    if request.method == "POST" and service_result(
        form, partial(services.terminate_street_use, permit=permit, by=request.user)
    ):
        messages.success(request, f"{permit.number} terminated (§ 303-15H).")
        return redirect(permit)
    context = {"permit": permit, "su": permit.street_use, "form": form}
    return form_page(request, "permits/street_use/terminate.html", context)


def _pdf_context(permit):
    su = permit.street_use
    return {"su": su, "segments": su.segments.select_related("street")}


@login_required
def permit_pdf(request, number):
    """The issued permit: the closure, the hours, the conditions, and the Board's vote."""
    return issued_permit_pdf(_get_street_use(request.user, number), "pdf/street_use_permit.html", _pdf_context)
