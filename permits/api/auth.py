"""POST /api/v1/auth/token/: the API's login, throttled and locked out like the web login (OWASP ASVS V2.2.1,
"anti-automation": django-axes counts each failure under the username and the client address, permits/client_ip.py).

Why DRF's obtain_auth_token alone locked nothing: ATOMIC_REQUESTS wraps the request in a transaction, and DRF's
exception handler marks it for rollback on the 400 of a wrong password, so the AccessAttempt axes had just written
was rolled back with it (150 wrong passwords, 0 attempts recorded). This view runs outside the request transaction;
it refuses a locked-out username+address before checking the password, and answers the failure that reaches the
limit with the lockout itself, always as the API's `{"errors": [...]}` body.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.db import transaction
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.views import ObtainAuthToken

from permits.api.errors import error_response
from permits.api.parsers import API_PARSERS
from permits.api.throttles import TokenRateThrottle
from permits.input_limits import CITATION, MAX_DESCRIPTION, MAX_LOGIN, length_message

LOCKOUT_CITATION = "OWASP ASVS V2.2.1"


def lockout_response():
    hours = settings.AXES_COOLOFF_TIME
    message = (
        f"Too many failed logins for this account from your address: locked for {hours} hour"
        f"{'' if hours == 1 else 's'} ({LOCKOUT_CITATION}). Ask the Village Hall to unlock it sooner."
    )
    return error_response(
        [{"field": "username", "code": "locked_out", "citation": LOCKOUT_CITATION, "message": message}],
        http_status=status.HTTP_429_TOO_MANY_REQUESTS,
    )


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class TokenView(ObtainAuthToken):
    throttle_classes = [TokenRateThrottle]
    throttle_scope = "token"
    # JSON first: the documented request body Swagger UI sends by default is the JSON one. With DRF's
    # order (form first) its "Try it out" sent an empty form body and got a 400.
    parser_classes = API_PARSERS

    @extend_schema(
        request=inline_serializer(
            "TokenRequest", {"username": serializers.CharField(), "password": serializers.CharField()}
        ),
        responses={200: inline_serializer("TokenResponse", {"token": serializers.CharField()})},
        description="Exchange your username (or email) and password for your API token. Send it on every other "
        "call as the header `Authorization: Token <token>`.",
        auth=[],
    )
    def post(self, request, *args, **kwargs):
        # Axes stores the username in a 255-character column; a password is hashed whole before it is compared.
        for name, limit in (("username", MAX_LOGIN), ("password", MAX_DESCRIPTION)):
            value = request.data.get(name)
            if isinstance(value, str) and len(value) > limit:
                message = length_message(name, limit) % {"show_value": len(value)}
                return error_response([{"field": name, "code": "max_length", "citation": CITATION, "message": message}])
        credentials = {"username": request.data.get("username")}
        if not AxesProxyHandler.is_allowed(request._request, credentials):
            return lockout_response()
        try:
            return super().post(request, *args, **kwargs)
        except exceptions.ValidationError:
            if not AxesProxyHandler.is_allowed(request._request, credentials):
                return lockout_response()
            raise


obtain_auth_token = transaction.non_atomic_requests(TokenView.as_view())
