from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits import kept_lists, kinds, permit_page, services
from permits.access import get_permit_for, require_staff
from permits.accounts import invitations
from permits.applicant import applications
from permits.errors import IllegalTransition
from permits.forms import AddMemberForm, DocumentForm, InformationAnswerForm, add_service_errors
from permits.lookup import PUBLISHED_STATUSES
from permits.models import Organization, Payment, Permit, Status
from permits.paging import page_keys_first, page_of
from permits.pdf import render_pdf
from permits.roles import Role, has_role, is_village_staff
from permits.selectors import answered_requests, list_rows, permits_visible_to
from permits.workflow import is_applicant_side


def home(request):
    types = [(t, kinds.apply_url_for(t)) for t in kinds.all_types()]
    return render(request, "permits/home.html", {"types": types})


@login_required
def start(request):
    """Each role lands on its own start page after logging in."""
    if has_role(request.user, Role.CLERK):
        return redirect("admin:index")  # the back office's index is the clerk's work list (templates/admin/index.html)
    if is_village_staff(request.user):
        return redirect("permits:workspace")
    return redirect("permits:my_applications")


@login_required
def apply(request):
    types = [(t, kinds.apply_url_for(t)) for t in kinds.all_types()]
    return render(request, "permits/apply.html", {"types": types})


@transaction.non_atomic_requests  # read only: no BEGIN and COMMIT round trips around a list of a few queries
@login_required
def my_applications(request):
    user = request.user
    staff = is_village_staff(user)

    def page():
        qs = permits_visible_to(user)
        return page_keys_first(list_rows(qs.filter(applicant=user) if staff else qs), number)

    number = kept_lists.page_number(request.GET.get("page"))
    links, table = kept_lists.kept(
        kept_lists.ROW_TABLES + kept_lists.LINK_TABLES,
        {
            ("links", user.pk): lambda: render_to_string(
                "permits/_my_links.html", {"parcels": user.parcels.all(), "organizations": user.organizations.all()}
            ),
            ("mine", user.pk, staff, number): kept_lists.table_part(
                page, caption="Your applications and permits", empty="You have no applications yet."
            ),
        },
    )
    drafts = []
    for draft in user.drafts.all()[: applications.MAX_DRAFTS]:
        permit_type = kinds.get_type(draft.kind)
        drafts.append(
            {
                "pk": draft.pk,
                "title": draft.title,
                "updated_at": draft.updated_at,
                "kind_title": permit_type.title if permit_type else draft.kind,
                "url": kinds.apply_url_for(permit_type) if permit_type else None,
            }
        )
    return render(request, "permits/my_applications.html", {"links": links, "table": table, "drafts": drafts})


@transaction.non_atomic_requests  # read only, as my_applications
@login_required
def office(request):
    """Village staff: every application, newest first, filterable by status and type."""
    require_staff(request.user)
    status = request.GET.get("status", "")
    if status not in Status.values:
        status = ""  # an unknown value is ignored, never echoed back into the page's links
    qs = permits_visible_to(request.user).exclude(status=Status.DRAFT)
    if status:
        qs = qs.filter(status=status)
    query = f"status={status}" if status else ""
    number = kept_lists.page_number(request.GET.get("page"))
    # Every member of the staff sees every permit: one kept table for all of them.
    (table,) = kept_lists.kept(
        kept_lists.ROW_TABLES,
        {
            ("office", status, number): kept_lists.table_part(
                lambda: page_keys_first(list_rows(qs), number),
                query=query,
                caption="Applications",
                empty="No applications match.",
            )
        },
    )
    context = {
        "table": table,
        "query": query,
        "status": status,
        "statuses": Status.choices,
        "queues": kinds.work_queues_for(request.user),
        "answered": answered_requests()[:50],
    }
    return render(request, "permits/office.html", context)


@login_required
def detail(request, number):
    """The one page of a permit: the type's panel from the registry, the timeline, documents, payments,
    inspections and conditions, and for the applicant what still blocks the next step, each with its fix."""
    permit = get_permit_for(request.user, number)
    context = permit_page.page_context(request, permit, today=timezone.localdate())
    return render(request, permit_page.page_template(permit), context)


@login_required
@require_POST
def upload(request, number):
    permit = get_permit_for(request.user, number)
    if not (is_applicant_side(request.user, permit) or is_village_staff(request.user)):
        raise PermissionDenied
    form = DocumentForm(request.POST, request.FILES)
    if form.is_valid():
        services.upload_document(
            permit=permit, kind=form.cleaned_data["kind"], upload=form.cleaned_data["upload"], by=request.user
        )
        messages.success(request, "Document uploaded.")
        return redirect(permit)
    context = permit_page.page_context(request, permit, today=timezone.localdate(), document_form=form)
    return render(request, permit_page.page_template(permit), context, status=400)


@login_required
@require_POST
def review_document(request, number, pk):
    """The staff review of one document on the permit page: accepted, or rejected with a reason (the service says who
    may, and refuses a rejection without a reason)."""
    from permits.refusals import run_or_show_refusals

    require_staff(request.user)
    permit = get_permit_for(request.user, number)
    document = get_object_or_404(permit.documents, pk=pk)
    decision = request.POST.get("decision")
    if decision not in ("accept", "reject"):
        messages.error(request, "Decision: choose Accept or Reject for the document; nothing was recorded.")
        return redirect(f"{permit.get_absolute_url()}#documents-heading")
    accepted = decision == "accept"
    reason = request.POST.get("reason", "")
    review = lambda: services.review_document(document=document, by=request.user, accepted=accepted, reason=reason)  # noqa: E731
    if run_or_show_refusals(request, review):
        what = "accepted" if accepted else "rejected: the applicant sees why"
        messages.success(request, f"{document.get_kind_display()} {what}.")
    return redirect(f"{permit.get_absolute_url()}#documents-heading")


@login_required
@require_POST
def withdraw(request, number):
    """The applicant withdraws an application (the status table says until when; transition() says who)."""
    permit = get_permit_for(request.user, number)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Withdraw: tick the box to confirm that you withdraw the application.")
        return redirect(permit)
    try:
        applications.withdraw_permit(permit=permit, by=request.user, reason=request.POST.get("reason", ""))
    except IllegalTransition as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{permit.number} is withdrawn.")
    return redirect(permit)


@login_required
@require_POST
def request_information(request, number):
    """Village staff ask the applicant for what is missing: a notice and a timeline entry."""
    permit = get_permit_for(request.user, number)
    try:
        applications.request_information(permit=permit, by=request.user, message=request.POST.get("message", ""))
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, f"Information request: {message}")
    else:
        messages.success(request, "The applicant was asked for the information.")
    return redirect(permit)


@login_required
@require_POST
def answer_information(request, number):
    """The applicant answers the Village's request for information, with documents uploaded with the answer."""
    permit = get_permit_for(request.user, number)
    if not is_applicant_side(request.user, permit):
        raise PermissionDenied("Only the applicant answers the Village's request for information.")
    form = InformationAnswerForm(request.POST, request.FILES)
    if form.is_valid():
        uploads = [(form.cleaned_data["kind"], upload) for upload in form.cleaned_data["documents"]]
        try:
            applications.answer_information_request(
                permit=permit, by=request.user, answer=form.cleaned_data["answer"], uploads=uploads
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Your answer was sent to the Village; the application is back in its review.")
            return redirect(permit)
    if not applications.open_request(permit) or permit.status not in applications.PENDING:
        # Nothing waits for an answer any more (withdrawn, decided, already answered): no form to show it on.
        for message in form.non_field_errors() or ["The Village is not waiting for information on this permit."]:
            messages.error(request, f"Your answer was not sent: {message}")
        return redirect(permit)
    context = permit_page.page_context(request, permit, today=timezone.localdate(), answer_form=form)
    return render(request, permit_page.page_template(permit), context, status=400)


@login_required
def document(request, number, pk):
    permit = get_permit_for(request.user, number)
    return document_response(get_object_or_404(permit.documents, pk=pk))


def document_response(doc):
    response = FileResponse(doc.file.open("rb"), content_type=doc.content_type)
    # An upload is someone else's file: downloaded, never rendered by the browser in the site's origin, never sniffed,
    # and sandboxed if a browser opens it anyway (OWASP File Upload Cheat Sheet; permits/uploads.py checks the content).
    response["Content-Disposition"] = f'attachment; filename="{doc.pk}.{doc.extension}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response


@login_required
def receipt_pdf(request, receipt_number):
    payment = get_object_or_404(Payment.objects.select_related("permit", "received_by"), receipt_number=receipt_number)
    get_permit_for(request.user, payment.permit.number)  # 404 unless the user may see the permit
    pdf = render_pdf("pdf/receipt.html", {"payment": payment, "permit": payment.permit})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{payment.receipt_number}.pdf"'
    return response


def public_status(request, token):
    """The page the permit's PDF links to: anyone on site can check it is genuine and current."""
    permit = Permit.objects.select_related("street").filter(public_token=token).first()
    if permit is None or permit.status == Status.DRAFT:
        raise Http404("No such permit")
    # The link is the applicant's, but it may be passed on: an application the Village does not publish (in review,
    # withdrawn, denied) shows its number, type and status only, never more than the public lookup would.
    published = permit.status in PUBLISHED_STATUSES
    return render(request, "permits/public_status.html", {"permit": permit, "published": published})


@login_required
@require_http_methods(["GET", "POST"])
def organization(request, pk):
    org = get_object_or_404(Organization, pk=pk, memberships__user=request.user)
    is_manager = org.memberships.filter(user=request.user, is_manager=True).exists()
    form = AddMemberForm(request.POST or None, organization=org)
    if request.method == "POST":
        if not is_manager:
            raise PermissionDenied
        if form.is_valid():
            # The same answer whether or not the email has an account (OWASP ASVS V2.1):
            # permits/accounts/invitations.py.
            invitations.invite(organization=org, email=form.cleaned_data["email"], by=request.user)
            messages.success(request, invitations.sent_message(form.cleaned_data["email"]))
            return redirect("permits:organization", pk=org.pk)
    members = org.memberships.select_related("user").order_by("user__email")
    page = page_of(request, members)
    pending = invitations.pending(org) if is_manager else []
    return render(
        request,
        "permits/organization.html",
        {"org": org, "page": page, "form": form, "is_manager": is_manager, "pending": pending},
    )
