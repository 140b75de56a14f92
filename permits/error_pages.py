"""The designed error pages, in the demo too.

With DEBUG on (the embedded demo), Django answers a missing page with its technical 404, which lists every URL of
the site, and a wrong method with an empty 405. A newcomer trying the demo should see what a resident would see, so
this middleware puts the designed 404.html in place of the technical page (DESIGNED_ERROR_PAGES=0 brings Django's
back, for a developer tracing a URL), and gives a 405 a page that says what happened, keeping its Allow header."""

from __future__ import annotations

from django.conf import settings
from django.template.response import TemplateResponse
from django.views.defaults import page_not_found

# Django's technical pages (404 and 500) carry this robots line; the designed pages do not.
TECHNICAL_PAGE_MARK = b'content="NONE,NOARCHIVE"'


class DesignedErrorPagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(settings, "DESIGNED_ERROR_PAGES", True) or "html" not in response.get("Content-Type", ""):
            return response
        if response.status_code == 404 and TECHNICAL_PAGE_MARK in getattr(response, "content", b""):
            return page_not_found(request, None)
        if response.status_code == 405 and not getattr(response, "content", b""):
            page = TemplateResponse(request, "405.html", {"allowed": response.get("Allow", "")}, status=405)
            page["Allow"] = response.get("Allow", "")
            return page.render()
        return response
