"""Account verbs: what happens when someone registers. Organization staff join by invitation:
permits/accounts/invitations.py."""

from allauth.account.adapter import DefaultAccountAdapter
from django.db import transaction

from permits.models import Membership, Organization


@transaction.atomic
def complete_signup_details(*, user, data: dict) -> None:
    user.first_name = data["first_name"].strip()
    user.last_name = data["last_name"].strip()
    user.save(update_fields=["first_name", "last_name"])
    kind = data["applicant_type"]
    if kind in (Organization.Kind.CONTRACTOR, Organization.Kind.UTILITY):
        organization = Organization.objects.create(
            name=data["organization_name"].strip(), kind=kind, phone=data.get("phone", "")
        )
        Membership.objects.create(user=user, organization=organization, is_manager=True)


def axes_username(request, credentials: dict | None) -> str | None:
    """The name django-axes counts failed logins under: what the person typed in the login box, lower-cased.

    allauth calls authenticate(username=...) or authenticate(email=...), so axes' default (credentials["login"])
    found nothing and counted every failure under None.
    """
    credentials = credentials or {}
    value = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if not value and request is not None:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        value = data.get("login") or data.get("username")
    return value.strip().lower() if isinstance(value, str) and value.strip() else None


# --- Account emails: in the Village's name, with links on the configured site -------------------------

ACCOUNT_EMAIL_FROM_NAME = "Village of Theresa permits"


def on_site(url: str) -> str:
    """`url` (absolute, built from whatever host the request came in on, e.g. 127.0.0.1:8000) moved onto SITE_URL."""
    from urllib.parse import urlsplit

    from django.conf import settings

    parts = urlsplit(url)
    if not parts.scheme:
        return settings.SITE_URL + url
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return settings.SITE_URL + path


class AccountAdapter(DefaultAccountAdapter):
    """allauth's emails say "Village of Theresa permits", link to SITE_URL (never the host and port a request came
    in on) and name the person by the email they registered with (never a generated username they did not choose)."""

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        from django.conf import settings

        context = dict(context)
        for key, value in list(context.items()):
            if key.endswith("_url") and isinstance(value, str):
                context[key] = on_site(value)
        context.pop("username", None)
        context.update(
            SITE_URL=settings.SITE_URL, VILLAGE_NAME=settings.VILLAGE_NAME, site_title=ACCOUNT_EMAIL_FROM_NAME
        )
        super().send_mail(template_prefix, email, context)

    def get_client_ip(self, request) -> str:
        """The address allauth's login limits ("10/m/ip") count under: the client behind the Village's proxy
        (permits/client_ip.py), not the proxy, so one client's 10 failures do not stop everyone's login. allauth's
        own answer is REMOTE_ADDR (the proxy) and a 403 when there is none (a unix-socket bind)."""
        from permits.client_ip import client_ip

        return client_ip(request)


def user_display(user) -> str:
    """How allauth names a person: their email (what they chose), never the username it generated."""
    return user.email or user.get_full_name() or "you"
