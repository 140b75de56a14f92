"""The API's JSON parser: a body must be one JSON object of bounded depth (OWASP ASVS 4.0 V13.1.1, V5.1.4).

DRF's JSONParser answers a list, a string or a number with the body itself, which the views then took for an object
(500), and a deeply nested body ran Python's decoder out of stack (RecursionError, 500). Here each is a 400 with the
API's error body ({"errors": [...]}, permits.api.errors)."""

from __future__ import annotations

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from permits.input_limits import CITATION, has_lone_surrogate

MAX_DEPTH = 8  # an application is an object of values and short lists: depth 2


def depth(value, limit: int = MAX_DEPTH + 1) -> int:
    """The nesting depth of a decoded JSON value (a scalar is 0), counted no further than `limit`."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((depth(child, limit - 1) for child in children), default=0)


def _kind(value) -> str:
    if value is None or isinstance(value, bool):
        return json_name(value)
    return {list: "a list", str: "a string"}.get(type(value), "a number")


def json_name(value) -> str:
    return {None: "null", True: "true", False: "false"}[value]


TOO_DEEP = f"The JSON body is nested too deeply (at most {MAX_DEPTH} levels, OWASP ASVS V13.1.1)."


class JSONObjectParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
        if not isinstance(data, dict):
            raise ParseError(
                f'Send the request body as one JSON object ({{"field": value, ...}}), not {_kind(data)} '
                "(OWASP ASVS V13.1.1)."
            )
        if depth(data) > MAX_DEPTH:
            raise ParseError(TOO_DEEP)
        refused = not_text_fields(data)
        if refused:
            raise ValidationError(refused)
        return data


def _not_text(value) -> str | None:
    """Why a decoded JSON value (or a key or value under it) cannot be stored as text, or None."""
    if isinstance(value, str):
        if "\x00" in value:
            return "contains a NUL character (\\u0000), which is not text"
        if has_lone_surrogate(value):
            return "contains a character that is not valid text (a lone UTF-16 surrogate)"
        return None
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        why = _not_text(key) if isinstance(key, str) else None
        if why or (why := _not_text(child)):
            return why
    return None


def not_text_fields(data: dict) -> dict:
    """{field: [message]} for each top-level field of the body that holds a NUL or a lone surrogate anywhere: no field
    of the API takes either, PostgreSQL text cannot hold a NUL and UTF-8 cannot encode a lone surrogate, so each is
    refused by name before a serializer, an authentication backend or the database sees it."""
    refused = {}
    for key, value in data.items():
        why = _not_text(key) or _not_text(value)
        if why:
            name = key if not _not_text(key) else "A field name"
            refused[name] = [f"{name}: {why} ({CITATION})."]
    return refused


API_PARSERS = [JSONObjectParser, FormParser, MultiPartParser]
