"""The project's URLs plus the bare views the load test compares against: the same query as the page (the same
selector, the same page of 25 rows) written out as plain text, with no template, no middleware beyond the site's."""

from django.http import HttpResponse
from django.urls import include, path

from permits.models import Status
from permits.paging import page_keys_first
from permits.selectors import list_rows, permits_visible_to


def _rows(qs) -> HttpResponse:
    rows = page_keys_first(list_rows(qs), 1).object_list
    return HttpResponse("\n".join(f"{p.number}\t{p.status}\t{p.balance_due}" for p in rows), content_type="text/plain")


def bare_office(request):
    return _rows(permits_visible_to(request.user).exclude(status=Status.DRAFT))


def bare_mine(request):
    return _rows(permits_visible_to(request.user))


def bare_floor(request):
    """No query of its own: the floor every logged-in page stands on (the middleware, the session, the user)."""
    return HttpResponse(request.user.get_username(), content_type="text/plain")


urlpatterns = [
    path("bench/bare/floor/", bare_floor),
    path("bench/bare/office/", bare_office),
    path("bench/bare/mine/", bare_mine),
    path("", include("theresa_permits.urls")),
]
