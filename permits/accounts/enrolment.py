"""A staff member's first second factor is enrolled from an emailed one-time link, never from the password alone
(OWASP ASVS 4.0 V2.7 / V2.8: an authenticator is bound through a channel the account holder controls). Without this,
whoever first knew a new staff account's password (its creator, anyone who saw it) could sign in and enrol their own
authenticator app, and then hold the account's second factor.

- invite_to_enrol() emails the account holder a link: the account's id and a token of Django's password-reset kind
  (signed with SECRET_KEY, valid PASSWORD_RESET_TIMEOUT, three days by default). The token's hash covers the password
  hash, the email and whether the account already has a second factor, so every link stops working once a factor is
  enrolled (one use), or when the password or the email changes.
- accept_invitation() is the link's page: the person signed in must be the account the link names. It keeps the token
  in the session; may_enrol_first_factor() re-checks it on every MFA page (permits/accounts/mfa.py's middleware), so
  a link opened in one session does not let another session enrol.
- Adding a further factor (a security key beside the app) needs no link: the session passed the second step.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from permits.accounts.mfa import has_second_factor
from permits.errors import RulesBroken
from permits.roles import is_village_staff

CITATION = "OWASP ASVS V2.7"
SESSION_KEY = "permits.staff_enrolment"


class EnrolmentTokens(PasswordResetTokenGenerator):
    key_salt = "permits.accounts.enrolment.EnrolmentTokens"

    def _make_hash_value(self, user, timestamp) -> str:
        return f"{user.pk}{user.password}{user.email}{timestamp}{has_second_factor(user)}"


tokens = EnrolmentTokens()


def link_days() -> int:
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def enrolment_url(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return settings.SITE_URL + reverse("permits:enrolment_accept", args=[uid, tokens.make_token(user)])


def invite_to_enrol(*, user, by=None) -> None:
    """OWASP ASVS V2.7: email `user` the link that lets them enrol their first second factor."""
    if not is_village_staff(user):
        raise RulesBroken.one(
            "user", "not_staff", CITATION, f"{user}: only Village staff enrol a second factor by invitation."
        )
    if not user.email:
        raise RulesBroken.one(
            "email", "required", CITATION, f"{user}: the account has no email address to send the invitation to."
        )
    if has_second_factor(user):
        raise RulesBroken.one(
            "user", "already_enrolled", CITATION, f"{user} already has a second factor: no invitation is needed."
        )
    context = {"url": enrolment_url(user), "days": link_days(), "by": (by and (by.get_full_name() or by.email)) or ""}
    subject = render_to_string("emails/staff_enrolment_subject.txt", context).strip()
    body = render_to_string("emails/staff_enrolment.txt", context)
    # Mailed directly, not kept as a Notice: the link is a credential and has no business in the office's records.
    transaction.on_commit(lambda: send_mail(subject, body, None, [user.email]))


def accept_invitation(request, *, uidb64: str, token: str) -> None:
    """The link's page, opened by the signed-in request.user. Raises RulesBroken (field "invitation") when the link
    is not theirs, has expired, or was used (a factor is enrolled)."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
    except (ValueError, TypeError):
        pk = None
    user = request.user
    if str(user.pk) != pk:
        message = "This enrolment link was sent to another account: sign in as the person it was emailed to."
        raise RulesBroken.one("invitation", "other_account", CITATION, message)
    if has_second_factor(user):
        raise RulesBroken.one("invitation", "used", CITATION, "This account already has a second factor.")
    if not tokens.check_token(user, token):
        message = (
            f"This enrolment link has expired (after {link_days()} days) or is not valid: ask the administrator for "
            "a new one."
        )
        raise RulesBroken.one("invitation", "expired", CITATION, message)
    request.session[SESSION_KEY] = token


def may_enrol_first_factor(request, user) -> bool:
    """OWASP ASVS V2.7: this session opened a valid enrolment link of `user`, who has no second factor yet."""
    token = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    return bool(token) and tokens.check_token(user, token)
