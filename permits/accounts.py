"""Account verbs: what happens when someone registers. Organization staff join by invitation: permits/invitations.py."""

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
