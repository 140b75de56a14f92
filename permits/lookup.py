"""The public lookup of a permit, without a login: by its number (exact) or by an address (the parcel roll's site
address, the permit's location or street). It shows what the Village publishes and nothing else: permits approved,
issued, under way or finished (the street map's public statuses and those past them), with their number, type,
location, dates and status; never a draft, a withdrawn or denied application, nor a name, phone or email.

Each search counts against its connection's hourly limit (permits/client_ip.py), as the public forms do.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.db.models import QuerySet
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_ratelimit.core import is_ratelimited

from permits.client_ip import ratelimit_key
from permits.models import Permit, Status
from permits.paging import SEARCH_PAGES, page_of
from permits.streetmap.selectors import PUBLIC_STATUSES
from permits.text_search import matching

# The street map's works (approved, issued, under way) and the permits past them: a finished, expired or revoked permit
# is still a public record of the Village. Drafts, applications in review, withdrawn and denied ones are not published.
PUBLISHED_STATUSES = (*PUBLIC_STATUSES, Status.COMPLETED, Status.CLOSED, Status.EXPIRED, Status.REVOKED)
ADDRESS_FIELDS = ("parcel__site_address", "location_description", "street__name")
LOOKUPS_PER_HOUR = 60  # a person looks up a few permits; a robot reading the whole register is refused


def published_permits() -> QuerySet[Permit]:
    """The permits the Village publishes, with what the lookup shows of them (no applicant, no organization)."""
    return (
        Permit.objects.filter(status__in=PUBLISHED_STATUSES)
        .select_related("street", "parcel")
        .only(
            "number",
            "kind",
            "status",
            "public_token",
            "location_description",
            "start_date",
            "end_date",
            "issued_on",
            "expires_on",
            "completed_on",
            "created_at",
            "street__name",
            "parcel__site_address",
        )
    )


def lookup_permits(term: str) -> QuerySet[Permit]:
    """The published permits numbered `term` (exactly, any case); if none, those whose address or location contains
    it. Newest first."""
    term = term.strip()
    published = published_permits().order_by("-created_at", "-id")
    if not term:
        return published.none()
    by_number = published.filter(number__iexact=term)
    if by_number.exists():
        return by_number
    return published.filter(matching(Permit, term, ADDRESS_FIELDS))


class LookupForm(forms.Form):
    q = forms.CharField(
        label="Permit number or address",
        max_length=100,
        min_length=2,
        help_text="A permit number, e.g. SO-2026-0012, or a street address, e.g. 118 Henni Street",
    )


@require_GET
def lookup_page(request):
    """The public lookup page: the form, then the published permits found, a page at a time."""
    form = LookupForm(request.GET if "q" in request.GET else None)
    context = {"form": form, "page": None}
    if form.is_bound and form.is_valid():
        if is_ratelimited(
            request, group="permits.lookup", key=ratelimit_key, rate=f"{LOOKUPS_PER_HOUR}/h", increment=True
        ):
            form.add_error(
                None, "Too many lookups from your connection in the last hour: please call the Village office."
            )
            return render(request, "permits/lookup.html", context, status=429)
        term = form.cleaned_data["q"]
        context["page"] = page_of(request, lookup_permits(term), max_pages=SEARCH_PAGES)
        context["query"] = urlencode({"q": term})
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "permits/lookup.html", context, status=status)
