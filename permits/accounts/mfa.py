"""A second factor for the people with power (OWASP ASVS 4.0 V2.2.3, V4.3.1: administrative access needs MFA).

Village staff (permits.roles.is_village_staff, a superuser included) hold the authority of Chapter 303: approving,
issuing, revoking, billing special charges. With ``settings.STAFF_MFA_REQUIRED`` on (the default whenever DEBUG is
off) this middleware:

- sends a signed-in staff member who has no authenticator (an authenticator app or a security key; recovery codes
  alone are not one) to the page that explains enrolment (permits/accounts/enrolment.py): the first factor is set up
  only in a session that opened the emailed enrolment link, never with the password alone. Until then only allauth's
  account pages (logout, email, password) and static files are allowed: the office, the field pages, the back office
  (/admin/), the API's session authentication and allauth's MFA pages are all refused; with the link opened, the MFA
  pages are allowed too;
- sends a staff member whose session never passed the second step (e.g. a password login through /admin/login/,
  which does not run allauth's login stages) to allauth's MFA reauthentication page;
- refuses staff an API token (POST /api/v1/auth/token/) and refuses requests carrying a staff token, with the API's
  JSON error body: a token is a password-only credential and would bypass the second factor.

A staff member who has an authenticator logs in with allauth's own second step (allauth.mfa's login stage).
The embedded demo (DEBUG on, STAFF_MFA_REQUIRED off) changes nothing: the demo accounts sign in with a password.
"""

from __future__ import annotations

import json

from allauth.account.internal.flows.login import get_authentication_records, record_authentication
from allauth.mfa import signals as mfa_signals
from allauth.mfa.models import Authenticator
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.dispatch import receiver
from django.http import HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.http import urlencode

from permits.roles import is_village_staff

CITATION = "OWASP ASVS 4.0 V2.2.3, V4.3.1"
SECOND_FACTORS = [Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN]
SETUP_MESSAGE = (
    "Village staff need a second factor (OWASP ASVS V4.3.1): set up an authenticator app or a security key "
    "before using the Village office, the field pages, the back office or the API."
)
TOKEN_MESSAGE = (
    "API tokens are not issued to Village staff while a second factor is required (OWASP ASVS V2.2.3, V4.3.1): "
    "a token would bypass it. Sign in on the web with your password and authenticator code."
)


def staff_mfa_required() -> bool:
    return bool(getattr(settings, "STAFF_MFA_REQUIRED", False))


def has_second_factor(user) -> bool:
    return is_mfa_enabled(user, SECOND_FACTORS)


def passed_second_step(request, user) -> bool:
    """True when this session recorded an MFA authentication (login stage, reauthentication or activation)."""
    return any(record.get("method") == "mfa" for record in get_authentication_records(request, user))


def mfa_error(message: str, *, code: str, field: str | None = None, status: int = 403) -> JsonResponse:
    """The API's error body (docs/reference/api.md: {"errors": [{"field", "code", "citation", "message"}]})."""
    return JsonResponse(
        {"errors": [{"field": field, "code": code, "citation": CITATION, "message": message}]}, status=status
    )


@receiver(mfa_signals.authenticator_added)
def _record_activation_as_second_step(sender, request, user, authenticator, **kwargs):
    # Activating an authenticator app or a key proves possession of it (a code or a key's signature was checked),
    # so the session counts as having passed the second step; no immediate second prompt.
    if request is not None and authenticator.type in SECOND_FACTORS:
        record_authentication(request, user, "mfa", id=authenticator.pk, type=authenticator.type, activated=True)


class StaffMFAMiddleware:
    """See the module docstring. Placed after AuthenticationMiddleware and allauth's AccountMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        required = staff_mfa_required()
        request.staff_mfa_required = required  # the login page's demo note reads it
        if not required:
            return self.get_response(request)
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        return self._refuse_staff_token(request, response)

    # -- the checks -------------------------------------------------------------------------------------------

    def _refusal(self, request):
        path = request.path_info
        if self._always_allowed(path):
            return self._mfa_page_refusal(request, path) if self._mfa_page(path) else None
        api = path.startswith("/api/")
        if api:
            token_refusal = self._staff_token_refusal(request)
            if token_refusal is not None:
                return token_refusal
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not is_village_staff(user):
            return None
        if not has_second_factor(user):
            return self._enrolment_refusal(request, user, path, api)
        if not passed_second_step(request, user):
            if api:
                return mfa_error(
                    "This session has not passed the second step (OWASP ASVS V2.2.3): sign in again with your "
                    "authenticator.",
                    code="mfa_authentication_required",
                )
            return HttpResponseRedirect(
                reverse("mfa_reauthenticate") + "?" + urlencode({"next": request.get_full_path()})
            )
        return None

    def _mfa_page_refusal(self, request, path: str):
        """allauth's MFA pages are open, except to staff without a factor who have not opened their enrolment link."""
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not is_village_staff(user) or has_second_factor(user):
            return None
        return self._enrolment_refusal(request, user, path, api=False)

    def _enrolment_refusal(self, request, user, path: str, api: bool):
        from permits.accounts.enrolment import may_enrol_first_factor

        if api:
            return mfa_error(SETUP_MESSAGE, code="mfa_setup_required")
        enrolment = reverse("permits:enrolment")
        if path.startswith(enrolment):
            return None
        if may_enrol_first_factor(request, user):
            if self._always_allowed(path):
                return None
            messages.warning(request, SETUP_MESSAGE)
            return HttpResponseRedirect(reverse("mfa_index"))
        if self._always_allowed(path) and not self._mfa_page(path):
            return None
        return HttpResponseRedirect(enrolment)

    @staticmethod
    def _mfa_page(path: str) -> bool:
        return path.startswith(reverse("mfa_index"))

    @staticmethod
    def _always_allowed(path: str) -> bool:
        # allauth's account and MFA pages (login, logout, setup, email, reauthenticate) and static files.
        accounts_prefix = reverse("account_login").rsplit("login/", 1)[0]
        return path.startswith(accounts_prefix) or path.startswith(settings.STATIC_URL)

    @staticmethod
    def _refuse_staff_token(request, response):
        """The token endpoint (whichever ObtainAuthToken view serves it, with its throttling and lockout) answered
        with a token: if it belongs to staff, the token is deleted and the answer is the refusal."""
        from rest_framework.authtoken.models import Token
        from rest_framework.authtoken.views import ObtainAuthToken

        match = getattr(request, "resolver_match", None)
        view_class = getattr(getattr(match, "func", None), "cls", None)
        is_token_view = isinstance(view_class, type) and issubclass(view_class, ObtainAuthToken)
        if response.status_code != 200 or not is_token_view:
            return response
        try:
            key = json.loads(response.content).get("token")
        except (ValueError, AttributeError):
            return response
        token = Token.objects.select_related("user").filter(key=key).first() if key else None
        if token is not None and is_village_staff(token.user):
            token.delete()
            return mfa_error(TOKEN_MESSAGE, code="mfa_token_refused", field="username")
        return response

    @staticmethod
    def _staff_token_refusal(request):
        """A staff member's token is refused however its header is spelled: the header is read by the API's own
        authentication class (DRF's TokenAuthentication: any case of "Token", any whitespace), so this check and the
        API can never disagree on what a token header is. A header DRF refuses is left to DRF's 401."""
        from rest_framework.authentication import TokenAuthentication
        from rest_framework.exceptions import AuthenticationFailed

        try:
            found = TokenAuthentication().authenticate(request)
        except AuthenticationFailed:
            return None
        if found is not None and is_village_staff(found[0]):
            return mfa_error(TOKEN_MESSAGE, code="mfa_token_refused")
        return None
