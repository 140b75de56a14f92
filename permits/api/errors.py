"""The API's one error body: {"errors": [{"field", "code", "citation", "message"}]}, every broken rule at once."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.fields import SkipField
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from permits.errors import citation_of, violations_of
from permits.input_limits import CITATION, surrogate_errors


def _flatten(detail, field: str | None = None):
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if key != "non_field_errors" else None
            yield from _flatten(value, name if field is None else f"{field}.{name}" if name else field)
    elif isinstance(detail, list):
        for item in detail:
            yield from _flatten(item, field)
    else:
        code = getattr(detail, "code", "invalid")
        yield {"field": field, "code": code, "citation": citation_of(detail), "message": str(detail)}


def violations_body(violations) -> dict:
    """The API's error body for broken rules: each Violation with its field, code, citation and message."""
    return {"errors": [v.as_dict() for v in violations]}


def rules_broken_response(error: DjangoValidationError) -> Response:
    """The one way the API answers a refusal: 400 with every broken rule of a RulesBroken (or each message of a
    plain ValidationError, read by `violations_of`) as {"field", "code", "citation", "message"}."""
    return Response(violations_body(violations_of(error)), status=status.HTTP_400_BAD_REQUEST)


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        return rules_broken_response(exc)
    if isinstance(exc, RequestDataTooBig):  # Django's own answer is its HTML 400 page
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = f"The request body is larger than {limit // (1024 * 1024)} MB, the most the API reads ({CITATION})."
        error = {"field": None, "code": "too_large", "citation": CITATION, "message": message}
        return Response({"errors": [error]}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = list(_flatten(exc.detail))
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        errors = [
            {
                "field": None,
                "code": getattr(detail, "code", "error"),
                "citation": citation_of(detail),
                "message": str(detail),
            }
        ]
    response.data = {"errors": errors}
    return response


def error_response(errors: list[dict], http_status: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response({"errors": errors}, status=http_status)


def parse_each_field(serializer, raw) -> tuple[dict, list[dict]]:
    """Each field of `serializer` parsed on its own, so a malformed field does not hide the rules others break.

    A body that is not an object is one error; a field holding a lone UTF-16 surrogate is refused by name before
    any validator, message or database sees it (it cannot be encoded as UTF-8, OWASP ASVS V5.1.4)."""
    if not hasattr(raw, "get") or not hasattr(raw, "items"):
        return {}, [
            {
                "field": None,
                "code": "invalid",
                "citation": "OWASP ASVS V13.1.1",
                "message": "Send the request body as one JSON object (OWASP ASVS V13.1.1).",
            }
        ]
    values, errors = {}, surrogate_errors(raw)
    refused = {e["field"] for e in errors}
    for name, field in serializer.fields.items():
        if name in refused:
            continue
        try:
            values[name] = field.run_validation(field.get_value(raw))
        except SkipField:
            continue
        except exceptions.ValidationError as exc:
            errors.extend(_flatten({name: exc.detail}))
    return values, errors
