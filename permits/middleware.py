"""Query strings without NUL bytes (OWASP ASVS 4.0 V5.1.4).

PostgreSQL text cannot hold a NUL (\\x00): psycopg refuses the query ("PostgreSQL text fields cannot contain NUL
(0x00) bytes"), so `?q=a%00b` on a search or a filter was a 500. No search term or filter of this site means anything
with a NUL in it, so the NULs are dropped from every query-string key and value before a view reads them. Form and
API text is not touched here: its fields refuse a NUL by name (Django's and DRF's ProhibitNullCharactersValidator).
"""

from __future__ import annotations

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
