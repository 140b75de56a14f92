"""The public map and its list, the data page and feeds, "tell me about my street", the permittee's calendar, and
the staff pages (place a permit on the map, record that the conflicts were seen). Views are thin: each reads a
selector or calls one service."""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from permits import spreadsheet
from permits.access import get_permit_for, require_staff
from permits.errors import RulesBroken
from permits.forms import add_service_errors
from permits.models import Street
from permits.paging import page_of
from permits.posting import form_page
from permits.streetmap import placement, selectors, services
from permits.streetmap.feeds import blds, ical, wzdx
from permits.streetmap.forms import ConflictReviewForm, MapFilterForm, PlaceForm, SubscribeForm
from permits.streetmap.models import CalendarToken, StreetSubscription


def _filtered(request):
    """(form, today, permits queryset) from the map's filters; bad filters show their errors and no filter."""
    today = timezone.localdate()
    form = MapFilterForm(request.GET or None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        qs = selectors.public_permits(
            today=today,
            kinds=data["kinds"],
            street_id=data["street"].pk if data["street"] else None,
            ends_from=data["date_from"],
            starts_by=data["date_to"],
        )
    else:
        qs = selectors.public_permits(today=today)
    return form, today, qs


def _query_without_page(request) -> str:
    params = request.GET.copy()
    params.pop("page", None)
    return params.urlencode()


@require_GET
def public_map(request, list_only: bool = False):
    """What is closed, dug up, occupied or scheduled: the map and, always, the same works as a list."""
    form, today, qs = _filtered(request)
    # The page's ids first (a narrow sort of the public permits, counted up to the cap), then those rows with their
    # joins: sorting the joined rows of every public permit was the page's cost at 100,000 permits.
    page = page_of(request, qs.values_list("pk", flat=True))
    permits = list(qs.filter(pk__in=list(page.object_list)))
    query = _query_without_page(request)
    week_start = today - timedelta(days=today.weekday())
    context = {
        "form": form,
        "page": page,
        "works": [(w, w.phase(today)) for w in selectors.works(permits)],
        "query": query,
        "list_only": list_only,
        "data_url": reverse("streetmap:map_data") + (f"?{query}" if query else ""),
        "tile_url": settings.MAP_TILE_URL,
        "tile_attribution": settings.MAP_TILE_ATTRIBUTION,
        "this_week": f"date_from={week_start.isoformat()}&date_to={(week_start + timedelta(days=6)).isoformat()}",
        "status": 400 if form.is_bound and form.errors else 200,
    }
    return render(request, "permits/streetmap/map.html", context, status=context["status"])


@require_GET
def map_data(request):
    """The map's GeoJSON: every filtered work (no paging: the map shows them all) and the Village's street lines."""
    _form, today, qs = _filtered(request)
    index = placement.SegmentIndex.load()
    features = [w.map_feature(today) for w in selectors.works(qs, index)]
    streets = [
        {
            "type": "Feature",
            "geometry": s.geometry,
            "properties": {"street": s.street.name, "extent": s.extent},
        }
        for s in index.segments.values()
    ]
    return JsonResponse(
        {
            "type": "FeatureCollection",
            "features": features,
            "streets": {"type": "FeatureCollection", "features": streets},
        }
    )


@require_GET
def data_page(request):
    return render(request, "permits/streetmap/data.html", {"streets": Street.objects.order_by("name")})


@require_GET
def wzdx_feed(request):
    body = wzdx.feed(today=timezone.localdate())
    return HttpResponse(json.dumps(body, indent=1), content_type="application/geo+json")


class _Echo:
    def write(self, value):
        return value


def _csv(rows, fields, filename):
    writer = spreadsheet.DictWriter(_Echo(), fieldnames=fields)

    def stream():
        yield writer.writeheader()
        for row in rows:
            yield writer.writerow(row)

    response = StreamingHttpResponse(stream(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def blds_permits(request, fmt):
    if fmt == "csv":
        return _csv(blds.permit_rows(), blds.PERMIT_FIELDS, "theresa-blds-permits.csv")
    return JsonResponse(list(blds.permit_rows()), safe=False)


@require_GET
def blds_status_changes(request, fmt):
    if fmt == "csv":
        return _csv(blds.status_rows(), blds.STATUS_FIELDS, "theresa-blds-status-changes.csv")
    return JsonResponse(list(blds.status_rows()), safe=False)


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def street_calendar(request, pk):
    street = get_object_or_404(Street, pk=pk)
    body = ical.street_closures(street, today=timezone.localdate(), now=timezone.now())
    return _ics(body, f"street-{street.pk}.ics")


@require_GET
def my_calendar_feed(request, token):
    """A calendar program cannot log in: the private token in the URL is the key (rotate it to revoke)."""
    row = CalendarToken.objects.select_related("user").filter(token=token, user__is_active=True).first()
    if row is None:
        raise Http404("No such calendar")
    return _ics(ical.permittee_deadlines(row.user, now=timezone.now()), "my-permit-deadlines.ics")


@login_required
@require_http_methods(["GET", "POST"])
def my_calendar(request):
    rotate = request.method == "POST"
    row = services.calendar_token_for(request.user, rotate=rotate)
    if rotate:
        messages.success(request, "A new calendar link was made; the old one no longer works.")
        return redirect("streetmap:my_calendar")
    url = request.build_absolute_uri(reverse("streetmap:my_calendar_feed", args=[row.token]))
    return render(request, "permits/streetmap/my_calendar.html", {"feed_url": url})


@require_http_methods(["GET", "POST"])
def subscribe(request):
    form = SubscribeForm(request.POST or None, initial={"street": request.GET.get("street")})
    if request.method == "POST" and form.is_valid():
        services.subscribe(**form.cleaned_data)
        return render(request, "permits/streetmap/subscribe_sent.html", {"email": form.cleaned_data["email"]})
    return form_page(request, "permits/streetmap/subscribe.html", {"form": form})


@require_http_methods(["GET", "POST"])
def subscription(request, token):
    """The link in the emails: GET confirms the address; POST with "unsubscribe" ends the subscription."""
    row = StreetSubscription.objects.select_related("street").filter(token=token).first()
    if row is None:
        raise Http404("No such subscription")
    if request.method == "POST":
        services.unsubscribe(token=token)
        messages.success(request, f"You will no longer be told about {row.street.name}.")
        return redirect("streetmap:map")
    row = services.verify_subscription(token=token)
    return render(request, "permits/streetmap/subscription.html", {"subscription": row})


@login_required
@require_http_methods(["GET", "POST"])
def place(request, number):
    """Village staff: put a permit on the map by segments, or a point or line drawn on the map."""
    require_staff(request.user, action="place permits on the map")
    permit = get_permit_for(request.user, number)
    index = placement.SegmentIndex.load()
    street_id = placement.permit_street_id(permit)
    choices = index.by_street.get(street_id) or list(index.segments.values())
    form = PlaceForm(request.POST or None, segments=choices)
    if request.method == "POST" and form.is_valid():
        try:
            services.place_permit(
                permit=permit,
                by=request.user,
                drawn=form.cleaned_data["geometry"] or None,
                segment_ids=[int(pk) for pk in form.cleaned_data["segments"]],
            )
        except RulesBroken as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{permit.number} is placed on the map.")
            return redirect("permits:detail", number=permit.number)
    current = selectors.works(selectors.with_placement(type(permit).objects.filter(pk=permit.pk)), index)[0]
    context = {
        "permit": permit,
        "form": form,
        "current": current,
        "streets_url": reverse("streetmap:map_data"),
        "tile_url": settings.MAP_TILE_URL,
        "tile_attribution": settings.MAP_TILE_ATTRIBUTION,
    }
    return form_page(request, "permits/streetmap/place.html", context)


@login_required
@require_POST
def conflicts_seen(request, number):
    """The DPW records that it saw the conflicts listed on the review page."""
    require_staff(request.user, action="review conflicts")
    permit = get_permit_for(request.user, number)
    form = ConflictReviewForm(request.POST)
    if form.is_valid():
        services.record_conflict_review(permit=permit, by=request.user, today=timezone.localdate(), **form.cleaned_data)
        messages.success(request, "Recorded: the Director of Public Works saw the conflicts listed.")
    else:
        messages.error(request, "The note is too long (2,000 characters at most).")
    back = request.POST.get("next", "")
    # Only a path of this site: a bare word ("abc") was taken for a URL name by redirect(), a 500.
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    if not back.startswith("/") or not safe:
        back = reverse("permits:detail", args=[permit.number])
    return redirect(back)
