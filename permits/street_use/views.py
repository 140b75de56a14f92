"""Pages of the street use permit (§ 303-15): apply, the neighbours' petition, the clerk's page (petition, Board,
issue), termination from a phone (§ 303-15H), events in progress, and the permit PDF."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits import services as core
from permits.access import get_permit_for, require_role
from permits.applicant import applications
from permits.board.models import Motion
from permits.client_ip import over_hourly_limit
from permits.errors import RulesBroken
from permits.forms import PaymentForm, add_violations, service_result
from permits.issued_pdf import issued_permit_pdf
from permits.models import Permit, PermitKind, Status
from permits.paging import page_of
from permits.posting import form_page
from permits.refusals import run_or_show_refusals
from permits.roles import Role
from permits.street_use import services
from permits.street_use.forms import (
    AcceptPageForm,
    AppearanceForm,
    ConsentCodeForm,
    ConsentRequestForm,
    DecisionForm,
    DeclarationForm,
    HouseholdEmailForm,
    MeetingForm,
    PageUploadForm,
    PaperSignatureForm,
    PetitionAreaForm,
    StreetUseForm,
    TerminateForm,
    UnitForm,
)
from permits.street_use.models import ConsentCode


def _get_street_use(user, number) -> Permit:
    return get_permit_for(user, number, kind=PermitKind.STREET_USE)


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    contact = applications.contact_details(request.user)
    initial = {"applicant_name": contact.get("name", ""), "applicant_phone": contact.get("phone", "")}
    form = StreetUseForm(request.POST or None, initial=initial)
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

CODE_REQUESTS_PER_HOUR = 10  # per connection, on top of the per-email limit of the service
CODE_REF_SALT = "permits.street_use.consent-code-ref"


def _by_token(token) -> Permit:
    return get_object_or_404(
        Permit.objects.select_related("street_use", "street"), public_token=token, kind="street_use"
    )


def _open(permit) -> bool:
    return permit.status == Status.SUBMITTED and permit.street_use.petition_verified_at is None


@require_http_methods(["GET", "POST"])
def petition(request, token):
    """§ 303-15F: the petition's public page: the count, and an online consent verified by a code sent to the
    household's email. The answer is the same whether or not the email is on file (nobody learns who lives where)."""
    permit = _by_token(token)
    su = permit.street_use
    form = ConsentRequestForm(request.POST or None, street_use=su)
    status = 200
    if request.method == "POST":
        if over_hourly_limit(request, "street_use_consent", CODE_REQUESTS_PER_HOUR):
            form.is_valid()
            form.add_error(
                None, "Too many requests from your connection in the last hour: please call the Village Hall."
            )
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                row = services.request_consent_code(
                    permit=permit,
                    address=data["address"],
                    name=data["name"],
                    email=data["email"],
                    adults=data["adults"],
                )
            except RulesBroken as error:
                add_violations(form, error.violations)
            else:
                messages.success(
                    request,
                    f"If {data['email']} is on file for {data['address']}, we emailed it a code, good for "
                    f"{services.CODE_MINUTES} minutes. If it is not, ask the Clerk-Treasurer or sign the paper "
                    "petition.",
                )
                return redirect("permits:street_use_consent", ref=signing.dumps(row.pk, salt=CODE_REF_SALT))
    if form.errors and status == 200:
        status = 400
    context = {"permit": permit, "su": su, "form": form, "count": services.petition_count(su), "open": _open(permit)}
    return render(request, "permits/street_use/petition.html", context, status=status)


@require_http_methods(["GET", "POST"])
def consent(request, ref):
    """§ 303-15F: the neighbour enters the emailed code; the consent is then recorded."""
    try:
        pk = signing.loads(ref, salt=CODE_REF_SALT, max_age=services.CODE_MINUTES * 60)
    except signing.BadSignature:
        return render(request, "permits/street_use/consent.html", {"expired": True}, status=400)
    row = get_object_or_404(
        ConsentCode.objects.select_related("address__parcel", "address__street_use__permit__street"), pk=pk
    )
    permit = row.address.street_use.permit
    form = ConsentCodeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if over_hourly_limit(request, "street_use_consent_code", CODE_REQUESTS_PER_HOUR * 3):
            form.is_valid()
            form.add_error(None, "Too many tries from your connection in the last hour: please call the Village Hall.")
            status = 429
        elif form.is_valid():
            try:
                services.confirm_consent(code_row=row, code=form.cleaned_data["code"])
            except RulesBroken as error:
                add_violations(form, error.violations)
            else:
                messages.success(request, f"Thank you: your consent to {permit.number} is recorded (§ 303-15F).")
                return redirect("permits:street_use_petition", token=permit.public_token)
        if form.errors and status == 200:
            status = 400
    context = {"row": row, "permit": permit, "su": permit.street_use, "form": form}
    return render(request, "permits/street_use/consent.html", context, status=status)


# --- The clerk's page ---------------------------------------------------------------------------------------------

# The clerk's petition forms share one page: each but the area's has its own prefix, so no two fields share an id.
CLERK_FORMS = {
    "area": ("area_form", lambda su, data, files: PetitionAreaForm(data, street=su.permit.street)),
    "unit": ("unit_form", lambda su, data, files: UnitForm(data, street_use=su, prefix="unit")),
    "declare": ("declaration_form", lambda su, data, files: DeclarationForm(data, street_use=su, prefix="declare")),
    "email": ("email_form", lambda su, data, files: HouseholdEmailForm(data, street_use=su, prefix="email")),
    "page": ("page_form", lambda su, data, files: PageUploadForm(data, files, prefix="page")),
    "paper": ("paper_form", lambda su, data, files: PaperSignatureForm(data, street_use=su, prefix="paper")),
    "accept": ("accept_form", lambda su, data, files: AcceptPageForm(data, street_use=su, prefix="accept")),
    # § 303-15E: the fee paid at the Village office, recorded by the Clerk-Treasurer with its receipt
    "payment": ("payment_form", lambda su, data, files: PaymentForm(data, prefix="pay")),
}


def _manage_context(permit, **forms):
    su = permit.street_use
    today = timezone.localdate()
    items = services.items_for(permit)
    motions = Motion.objects.filter(item__in=items).select_related("item__meeting")
    addresses = services.addresses_of(su)
    signatures = list(su.signatures.select_related("address__parcel", "page", "entered_by"))
    for a in addresses:
        a.listed = [s for s in signatures if s.address_id == a.pk]
        a.verified = sum(1 for s in a.listed if s.is_verified)
    context = {
        "permit": permit,
        "su": su,
        "count": services.petition_count(su, on=today),
        "addresses": addresses,
        "pages": su.pages.select_related("document", "accepted_by"),
        "items": items,
        "appearances": su.appearances.select_related("item__meeting"),
        "motions": motions,
        "open": _open(permit),
        "meeting_form": forms.get("meeting_form") or MeetingForm(),
        "appearance_form": forms.get("appearance_form")
        or AppearanceForm(items=items, initial={"name": su.applicant_name, "capacity": "applicant"}),
        "decision_form": forms.get("decision_form") or DecisionForm(motions=motions),
        "guarantees_missing": sorted(su.required_guarantees - services.guarantees_on_file(permit)),
    }
    for name, make in CLERK_FORMS.values():
        context[name] = forms.get(name) or make(su, None, None)
    context["paper_form"].initial.setdefault("signed_on", today)
    context["payment_form"].initial.update({"amount": permit.balance_due, "method": "cash"})
    return context


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
    su = permit.street_use
    forms = {
        key: (name, lambda make=make: make(su, request.POST, request.FILES))
        for key, (name, make) in CLERK_FORMS.items()
    }
    forms |= {
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
        "unit": lambda: services.add_unit(permit=permit, parcel=data["address"].parcel, unit=data["unit"], by=user),
        "declare": lambda: services.declare_adults(
            permit=permit, address=data["address"], adults=data["adults"], source=data["source"], by=user
        ),
        "email": lambda: services.bind_household_email(
            permit=permit, address=data["address"], email=data["email"], by=user
        ),
        "page": lambda: services.upload_petition_page(
            permit=permit,
            upload=data["file"],
            circulator_name=data["circulator_name"],
            sworn_on=data["sworn_on"],
            by=user,
        ),
        "paper": lambda: services.enter_paper_signature(
            page=data["page"],
            by=user,
            signer_name=data["signer_name"],
            address=data["address"],
            signed_on=data["signed_on"],
        ),
        "accept": lambda: services.accept_petition_page(page=data["page"], by=user),
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
        "payment": lambda: core.record_payment(permit=permit, by=user, **data),
    }
    done = {
        "area": "Petition area recorded (§ 303-15F).",
        "unit": "Unit added (§ 303-15F).",
        "declare": "Declaration recorded (§ 303-15F).",
        "email": "Household email recorded (§ 303-15F).",
        "page": "Page uploaded: enter its consents, then accept it (§ 303-15F).",
        "paper": "Consent entered; it counts once its page is accepted (§ 303-15F).",
        "accept": "Page accepted: its consents count (§ 303-15F).",
        "verify": "Petition verified; the application goes to the Village Board (§ 303-15C).",
        "agenda": "Placed on the Board's agenda (§ 303-15C).",
        "present": "Presence recorded (§ 303-15C).",
        "decide": "The Board's decision is recorded (§ 303-15C).",
        "issue": "Permit issued (§ 303-15A).",
        "payment": "Payment recorded (§ 303-15E).",
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
