"""Residents link themselves to their parcel; the Clerk-Treasurer decides; owners see their property's records.
Views are thin: fetch, bind a form, call one service of permits.applicant.parcel_links."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from permits.access import require_role
from permits.applicant import parcel_links
from permits.forms import add_service_errors
from permits.input_limits import LimitedForm
from permits.models import Parcel, ParcelLinkRequest
from permits.paging import page_of
from permits.roles import Role
from permits.uploads import inspect_upload


class LinkRequestForm(LimitedForm):
    tax_key = forms.CharField(
        label="Parcel tax key number",
        max_length=40,
        help_text="As printed on the property tax bill, e.g. 266-1116-0001.",
    )
    tax_bill_number = forms.CharField(
        label="Tax bill number (proof)",
        max_length=40,
        required=False,
        help_text="The bill number printed on this year's or last year's property tax bill. Or upload a document.",
    )
    document = forms.FileField(label="Or upload a tax bill or deed (PDF, JPEG or PNG, at most 10 MB)", required=False)
    note = forms.CharField(label="Anything the clerk should know (optional)", max_length=300, required=False)

    def clean_tax_key(self):
        value = self.cleaned_data["tax_key"].strip()
        parcel = Parcel.objects.filter(tax_key=value).first()
        if parcel is None:
            raise ValidationError(
                f"Parcel tax key number: no parcel has the tax key {value}; check it on the tax bill."
            )
        return parcel

    def clean_document(self):
        upload = self.cleaned_data.get("document")
        if upload:
            inspect_upload(upload)
        return upload


def _case_relations() -> list:
    """The records kept about a parcel that have a number and a status (sidewalk orders, snow and rubbish cases, and
    any type's future ones): read from the Parcel model's relations, so the core names no permit type (permits.kinds).
    Permits and special charges have their own lists."""
    from permits.ledger.models import SpecialCharge
    from permits.models import Permit

    relations = []
    for rel in Parcel._meta.related_objects:
        model = rel.related_model
        names = {f.name for f in model._meta.get_fields()}
        if rel.one_to_many and {"number", "status"} <= names and model not in (Permit, SpecialCharge):
            relations.append(rel)
    return relations


@login_required
def my_property(request):
    """The owner's parcels with their special charges, orders and cases, and their link requests."""
    from permits.ledger.views import charges_visible_to

    parcels = list(request.user.parcels.select_related("street").order_by("site_address"))
    ids = [p.pk for p in parcels]
    charges_by, cases_by = {}, {}
    for charge in charges_visible_to(request.user).filter(parcel_id__in=ids).order_by("-incurred_on")[:200]:
        charges_by.setdefault(charge.parcel_id, []).append(charge)
    for rel in _case_relations():  # one query per kind of record, whatever the number of parcels
        model = rel.related_model
        for record in model.objects.filter(**{f"{rel.field.name}_id__in": ids}).order_by("-pk")[:200]:
            record.kind_label = model._meta.verbose_name
            cases_by.setdefault(getattr(record, f"{rel.field.name}_id"), []).append(record)
    rows = [(p, charges_by.get(p.pk, []), cases_by.get(p.pk, [])) for p in parcels]
    pending = request.user.parcel_link_requests.select_related("parcel").order_by("-requested_at")[:20]
    return render(request, "permits/my_property.html", {"rows": rows, "requests": pending})


@login_required
@require_http_methods(["GET", "POST"])
def request_link(request):
    form = LinkRequestForm(
        request.POST or None, request.FILES or None, initial={"tax_key": request.GET.get("tax_key", "")}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            parcel_links.request_link(
                user=request.user,
                parcel=data["tax_key"],
                tax_bill_number=data.get("tax_bill_number", ""),
                document=data.get("document") or None,
                note=data.get("note", ""),
            )
        except ValidationError as error:
            add_service_errors(form, error, {"parcel": "tax_key"})
        else:
            messages.success(request, "Request sent: the Clerk-Treasurer compares it with the tax roll and decides.")
            return redirect("permits:my_property")
    return render(request, "permits/parcel_link_request.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def link_requests(request):
    """The Clerk-Treasurer's queue: open requests, oldest first, with their proof and the owner of record."""
    require_role(request.user, Role.CLERK, action="decide parcel link requests (the Clerk-Treasurer does)")
    qs = ParcelLinkRequest.objects.select_related("user", "parcel").filter(status=ParcelLinkRequest.Status.PENDING)
    page = page_of(request, qs.order_by("requested_at", "pk"))
    return render(request, "permits/parcel_link_requests.html", {"page": page})


@login_required
@require_POST
def decide(request, pk, decision):
    require_role(request.user, Role.CLERK, action="decide parcel link requests (the Clerk-Treasurer does)")
    link = get_object_or_404(ParcelLinkRequest.objects.select_related("user", "parcel"), pk=pk)
    reason = request.POST.get("reason", "")
    try:
        if decision == "approve":
            parcel_links.approve_link(link=link, by=request.user, reason=reason)
            messages.success(request, f"{link.user.email} is linked to {link.parcel.site_address}.")
        elif decision == "refuse":
            parcel_links.refuse_link(link=link, by=request.user, reason=reason)
            messages.success(request, f"Request of {link.user.email} refused; they were told why.")
        else:
            raise Http404("No such decision")
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, f"Request {link.pk}: {message}")
    return redirect("permits:parcel_link_requests")


@login_required
def proof(request, pk):
    """The uploaded proof, for the clerk: downloaded, never rendered in the site's origin (as permits' documents)."""
    require_role(request.user, Role.CLERK, action="open parcel link proofs (the Clerk-Treasurer does)")
    link = get_object_or_404(ParcelLinkRequest, pk=pk)
    if not link.document:
        raise Http404("No document")
    response = FileResponse(link.document.open("rb"), content_type=link.document_content_type or "application/pdf")
    response["Content-Disposition"] = f'attachment; filename="parcel-link-{link.pk}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response
