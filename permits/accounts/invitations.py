"""Organization staff by invitation (OWASP ASVS V2.1 / "account enumeration"): a manager invites an email, the
person who controls that verified email accepts while logged in, and only then does a Membership exist.

- invite() answers the same whether or not the email has an account or is already on the staff (nothing is sent
  to a current member, and the page's answer does not change), so the form cannot be used to learn who has an
  account. A second invitation to the same email replaces the pending one (a new link, the old one stops working).
- The link carries the invitation's random token, signed (django.core.signing, salt below) and valid for
  INVITATION_MAX_AGE; accept() also requires the logged-in user to have that email verified (allauth's
  EmailAddress), so a forwarded link does not let someone else join.
- revoke() deletes a pending invitation; its link then finds nothing.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from permits.errors import RulesBroken
from permits.models import Membership, Organization
from permits.models.core import Invitation

SALT = "permits.invitation"
INVITATION_MAX_AGE = timedelta(days=14)
CITATION = "OWASP ASVS V2.1"


def sent_message(email: str) -> str:
    """The one answer the manager gets, whatever the email is (no account, an account, already staff)."""
    return (
        f"Invitation sent to {email} if that address is not already on your staff. The link in it is valid for "
        f"{INVITATION_MAX_AGE.days} days; they join once they accept it while logged in with that email."
    )


def _require_manager(organization: Organization, user) -> None:
    if not organization.memberships.filter(user=user, is_manager=True).exists():
        raise PermissionDenied("Only a manager of the organization may invite or remove staff.")


def signed_token(invitation: Invitation) -> str:
    return signing.dumps(invitation.token, salt=SALT)


def accept_url(invitation: Invitation) -> str:
    return settings.SITE_URL + reverse("permits:invitation_accept", args=[signed_token(invitation)])


def _already_staff(organization: Organization, email: str) -> bool:
    from allauth.account.models import EmailAddress

    users = EmailAddress.objects.filter(email__iexact=email, verified=True).values("user_id")
    return organization.memberships.filter(user__in=users).exists()


@transaction.atomic
def invite(*, organization: Organization, email: str, by) -> Invitation | None:
    """Invite `email` to `organization`'s staff; the manager is told sent_message(email) whatever happens."""
    from permits.services import send_notice

    _require_manager(organization, by)
    email = email.strip().lower()
    if _already_staff(organization, email):
        return None
    Invitation.objects.filter(organization=organization, email=email, accepted_at__isnull=True).delete()
    invitation = Invitation.objects.create(
        organization=organization, email=email, token=secrets.token_urlsafe(32), invited_by=by
    )
    send_notice(
        None,
        to=email,
        template="organization_invitation",
        context={
            "organization": organization,
            "invited_by": by.get_full_name() or by.email,
            "url": accept_url(invitation),
            "days": INVITATION_MAX_AGE.days,
        },
    )
    return invitation


def pending(organization: Organization):
    return organization.invitations.filter(accepted_at__isnull=True).select_related("invited_by")


@transaction.atomic
def revoke(*, invitation: Invitation, by) -> None:
    _require_manager(invitation.organization, by)
    if invitation.accepted_at is not None:
        message = f"This invitation was already accepted ({CITATION})."
        raise RulesBroken.one("invitation", "already_accepted", CITATION, message)
    invitation.delete()


def find(signed: str) -> Invitation:
    """The invitation a link names. Raises RulesBroken (with the reason) for a forged, expired, revoked or
    already used link."""
    try:
        token = signing.loads(signed, salt=SALT, max_age=INVITATION_MAX_AGE)
    except signing.SignatureExpired:
        days = INVITATION_MAX_AGE.days
        message = f"This invitation link has expired (after {days} days): ask for a new one."
        raise RulesBroken.one("invitation", "expired", CITATION, message) from None
    except signing.BadSignature:
        message = "This invitation link is not valid: ask for a new one."
        raise RulesBroken.one("invitation", "invalid_link", CITATION, message) from None
    invitation = Invitation.objects.select_related("organization").filter(token=token).first()
    if invitation is None:
        message = "This invitation was withdrawn or replaced: ask for a new one."
        raise RulesBroken.one("invitation", "withdrawn", CITATION, message)
    return invitation


def user_may_accept(invitation: Invitation, user) -> bool:
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, email__iexact=invitation.email, verified=True).exists()


@transaction.atomic
def accept(*, invitation: Invitation, user) -> Membership:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        raise RulesBroken.one("invitation", "already_accepted", CITATION, "This invitation was already accepted.")
    if not user_may_accept(invitation, user):
        raise PermissionDenied(
            "This invitation was sent to another email address: log in with the account whose verified email it "
            f"was sent to, or verify that address on your account first ({CITATION})."
        )
    membership, _ = Membership.objects.get_or_create(organization=invitation.organization, user=user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership
