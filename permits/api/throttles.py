"""The API's rate limits keyed on the client behind the Village's proxy (permits/client_ip.py), not on DRF's
get_ident, which believes any X-Forwarded-For a client sends (OWASP ASVS V2.2.1, anti-automation).

Kept apart from permits/api/auth.py: REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] imports this module while DRF's own
views are being imported, and importing rest_framework.authtoken.views from here would be circular."""

from __future__ import annotations

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle

from permits.client_ip import client_ip


class ClientIPAnonRateThrottle(AnonRateThrottle):
    """REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon"] per client address."""

    def get_ident(self, request):
        return client_ip(request)


class TokenRateThrottle(ScopedRateThrottle):
    """REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"] token requests per client address (OWASP ASVS V2.2.1)."""

    def get_ident(self, request):
        return client_ip(request)
