"""The signed-in person's own account pages: accepting an organization's invitation, revoking one (managers), and
their API token (OWASP ASVS V3.5: a token the owner can see and revoke; its key shown once, when created)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from permits.accounts import enrolment as staff_enrolment
from permits.accounts import invitations
from permits.accounts.mfa import TOKEN_MESSAGE, staff_mfa_required
from permits.errors import RulesBroken, violations_of
from permits.models.core import Invitation
from permits.roles import is_village_staff


def _invitation_error(request, error: ValidationError, status: int = 410):
    message = " ".join(v.message for v in violations_of(error))
    return render(request, "permits/invitation_accept.html", {"error": message}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request, signed):
    try:
        invitation = invitations.find(signed)
    except ValidationError as error:
        return _invitation_error(request, error, status=404)
    if invitation.accepted_at is not None:
        if invitation.accepted_by_id == request.user.pk:
            return redirect("permits:organization", pk=invitation.organization_id)
        return _invitation_error(
            request,
            RulesBroken.one(
                "invitation", "already_accepted", invitations.CITATION, "This invitation was already accepted."
            ),
        )
    may_accept = invitations.user_may_accept(invitation, request.user)
    if request.method == "POST":
        try:
            invitations.accept(invitation=invitation, user=request.user)
        except PermissionDenied as denied:
            return render(
                request, "permits/invitation_accept.html", {"invitation": invitation, "error": str(denied)}, status=403
            )
        messages.success(request, f"You joined {invitation.organization.name}: you now see its applications.")
        return redirect("permits:organization", pk=invitation.organization_id)
    return render(
        request,
        "permits/invitation_accept.html",
        {"invitation": invitation, "may_accept": may_accept},
        status=200 if may_accept else 403,
    )


@login_required
@require_POST
def invitation_revoke(request, pk):
    invitation = get_object_or_404(Invitation, pk=pk, organization__memberships__user=request.user)
    try:
        invitations.revoke(invitation=invitation, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"The invitation to {invitation.email} was withdrawn: its link no longer works.")
    return redirect("permits:organization", pk=invitation.organization_id)


def key_hint(key: str) -> str:
    return f"…{key[-4:]}"


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """/account/tokens/: the user's API token (DRF keeps one per user), its creation date and last four characters;
    "Create" shows the new key once (this response only, never stored in a message or the session)."""
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "revoke":
            deleted, _ = Token.objects.filter(user=request.user).delete()
            if deleted:
                messages.success(request, "Your API token was revoked: programs using it are refused from now on.")
            return redirect("permits:tokens")
        if action != "create":
            messages.error(request, "Choose Create or Revoke.")
            return redirect("permits:tokens")
        if staff_mfa_required() and is_village_staff(request.user):
            messages.error(request, TOKEN_MESSAGE)  # a token would bypass the second factor the web asks of staff
            return redirect("permits:tokens")
        Token.objects.filter(user=request.user).delete()
        new_key = Token.objects.create(user=request.user).key
    token = Token.objects.filter(user=request.user).first()
    return render(
        request,
        "permits/tokens.html",
        {"token": token, "hint": key_hint(token.key) if token else "", "new_key": new_key},
    )


@login_required
@never_cache
def enrolment(request):
    """Where staff without a second factor are sent (permits/accounts/mfa.py): it comes from the emailed link."""
    return render(request, "permits/enrolment.html")


@login_required
@never_cache
def enrolment_accept(request, uidb64, token):
    try:
        staff_enrolment.accept_invitation(request, uidb64=uidb64, token=token)
    except ValidationError as error:
        message = " ".join(v.message for v in violations_of(error))
        return render(request, "permits/enrolment.html", {"error": message}, status=410)
    return redirect("mfa_activate_totp")
