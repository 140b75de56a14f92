"""The client's address as the Village's own reverse proxy reports it (OWASP ASVS V7.1 / OWASP "IP spoofing via
X-Forwarded-For"): the one place that reads X-Forwarded-For.

`TRUSTED_PROXIES` (settings, from the environment: comma-separated addresses or CIDR networks) lists the proxies
whose X-Forwarded-For header is believed. Empty (the default) trusts nobody and the client is REMOTE_ADDR: a header
sent by a client is then ignored, since anyone can type one. When REMOTE_ADDR is a trusted proxy, the client is the
right-most X-Forwarded-For address that is not itself a trusted proxy (each proxy appends the address it saw; the
left-most entries are whatever the client wrote). django-axes (AXES_CLIENT_IP_CALLABLE), allauth's login limits
(its adapter's get_client_ip), the API's throttles and the public forms' rate limits all key on this address: one
client's failures never count against another behind the same proxy.

A peer without an IP address (gunicorn bound to a unix socket, as behind nginx: REMOTE_ADDR is empty) is the local
reverse proxy, since only a process of this machine allowed to open the socket can connect: its X-Forwarded-For is
believed, as gunicorn itself treats such connections ("not associated with an IP address are treated as allowed").
With no usable address at all the client is UNKNOWN, which the rate limits count as one client and axes records as
no address (NULL: its column is PostgreSQL's inet, which refuses the word).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django_ratelimit.core import is_ratelimited

UNKNOWN = "unknown"


@lru_cache(maxsize=16)
def _networks(spec: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def parse_trusted_proxies(value: str | None) -> tuple[str, ...]:
    """`TRUSTED_PROXIES` from the environment: "10.0.0.1, 10.1.0.0/16" -> ("10.0.0.1", "10.1.0.0/16").

    A malformed entry raises ValueError naming it, so a typo stops the deploy instead of trusting nobody silently."""
    items = tuple(part.strip() for part in (value or "").split(",") if part.strip())
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as exc:
            raise ValueError(f"TRUSTED_PROXIES: {item!r} is not an IP address or CIDR network") from exc
    return items


def _address(value: str | None):
    try:
        return ipaddress.ip_address((value or "").strip())
    except ValueError:
        return None


def is_trusted_proxy(address) -> bool:
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))
    return address is not None and any(address in network for network in networks)


def client_ip(request) -> str:
    """The client address to key lockouts and rate limits on (see the module's docstring)."""
    meta = getattr(request, "META", {})
    remote = _address(meta.get("REMOTE_ADDR"))
    if remote is not None and not is_trusted_proxy(remote):
        return str(remote)
    # Here the peer is a trusted proxy, or has no IP address (a unix socket: the local proxy).
    fallback = str(remote) if remote is not None else UNKNOWN
    forwarded = [part for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    for part in reversed(forwarded):
        address = _address(part)
        if address is None:
            # A garbled hop: nothing to its left can be believed. Key on the proxy rather than on a guess.
            return fallback
        if not is_trusted_proxy(address):
            return str(address)
    return fallback  # the request came from the proxy itself (or only through trusted proxies)


def axes_client_ip(request) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: client_ip(), or None when unknown (axes stores NULL; "unknown" in PostgreSQL's inet
    column was a 500 on every login through a unix socket)."""
    address = client_ip(request)
    return None if address == UNKNOWN else address


def ratelimit_key(group: str, request) -> str:
    """django-ratelimit's `key`: a limit counts per client address."""
    return client_ip(request)


def over_hourly_limit(request, group: str, per_hour: int) -> bool:
    """Count this POST against its client address's hourly limit for `group`: True once it is over `per_hour`.
    Counted in the shared cache (django-ratelimit on settings.RATELIMIT_USE_CACHE), so every web worker adds to one
    count."""
    return is_ratelimited(request, group=group, key=ratelimit_key, rate=f"{per_hour}/h", method="POST", increment=True)
