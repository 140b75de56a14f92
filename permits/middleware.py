"""Query strings without NUL bytes, and form bodies that hold none (OWASP ASVS 4.0 V5.1.4).

PostgreSQL text cannot hold a NUL (\\x00): psycopg refuses the query ("PostgreSQL text fields cannot contain NUL
(0x00) bytes"), so `?q=a%00b` on a search or a filter was a 500. No search term or filter of this site means anything
with a NUL in it, so the NULs are dropped from every query-string key and value before a view reads them.

A form body is refused instead (400 naming the field): a form's own text fields refuse a NUL by name (Django's
ProhibitNullCharactersValidator), but a view that reads a value itself (a withdrawal's reason, a draft, a refusal's
reason) handed it to PostgreSQL, a 500 after part of the request's work. No field of this site takes a NUL, so the
one check is here, before any view. JSON bodies are checked by the API's parser (permits.api.parsers).
"""

from __future__ import annotations

from django.http import JsonResponse
from django.template.response import TemplateResponse

from permits.input_limits import CITATION

NUL = "\x00"


def without_nul(query):
    """A copy of the QueryDict `query` with every NUL removed from its keys and values (the same object if none)."""
    if not any(NUL in key or any(NUL in v for v in values) for key, values in query.lists()):
        return query
    clean = query.copy()
    clean.clear()
    for key, values in query.lists():
        clean.setlist(key.replace(NUL, ""), [v.replace(NUL, "") for v in values])
    clean._mutable = False
    return clean


class StripNulFromQueryMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "%00" in request.META.get("QUERY_STRING", "") or NUL in request.META.get("QUERY_STRING", ""):
            request.GET = without_nul(request.GET)
        return self.get_response(request)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def field_with_nul(data) -> str | None:
    """The name of the first field of the QueryDict `data` whose name or a value holds a NUL, or None."""
    for key, values in data.lists():
        if NUL in key or any(isinstance(v, str) and NUL in v for v in values):
            return key.replace(NUL, "\\x00")
    return None


def nul_message(name: str) -> str:
    return f"{name}: contains a NUL character (\\x00), which is not text; nothing was saved ({CITATION})"


class RefuseNulInFormBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("POST", "PUT", "PATCH") and request.content_type in FORM_TYPES:
            name = field_with_nul(request.POST)
            if name is not None:
                return refusal(request, name)
        return self.get_response(request)


def refusal(request, name: str):
    message = nul_message(name)
    if request.path.startswith("/api/"):
        error = {"field": name, "code": "null_characters_not_allowed", "citation": CITATION, "message": message}
        return JsonResponse({"errors": [error]}, status=400)
    return TemplateResponse(request, "400.html", {"message": message}, status=400).render()
