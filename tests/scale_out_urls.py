"""URLs of the web processes that tests/test_scale_out.py starts: the site's own, plus one endpoint that hands out a
number through services.next_number (the one source of every permit and receipt number), so the test can ask two
web processes for numbers at once without building an application per request."""

from django.http import HttpResponse
from django.urls import include, path

from permits import services


def next_number(request):
    return HttpResponse(services.next_number("ZZ", 2026), content_type="text/plain")


urlpatterns = [
    path("_test/next-number/", next_number),
    path("", include("theresa_permits.urls")),
]
