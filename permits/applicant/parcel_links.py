"""Residents link themselves to their parcel: a request with proof that the Clerk-Treasurer
approves. Approved, the person is one of the parcel's `owners` (permits.models.Parcel) and sees its special charges
(Wis. Stat. § 66.0627: charges against the property of its owner of record), its sidewalk orders (§ 303-3) and its
cases (§ 303-8 snow and ice, § 303-2 rubbish).

The ordinance says nothing of how an owner proves who they are online; the Village's rule, interpreted once here:
the proof is the number printed on the parcel's property tax bill, or an uploaded document (a tax bill, a deed), and
the clerk, who holds the tax roll, compares it with the owner of record before approving.
"""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.input_limits import require_within
from permits.models import Parcel, ParcelLinkRequest
from permits.roles import Role, has_role
from permits.state import change_state

CITATION = "Wis. Stat. § 66.0627"  # the owner of record, whom the special charges and their notices concern
TAX_BILL_NUMBER = re.compile(r"^[0-9A-Za-z][0-9A-Za-z./ -]{2,38}[0-9A-Za-z]$")


def proof_violations(*, tax_bill_number: str, has_document: bool) -> list[Violation]:
    """Wis. Stat. § 66.0627 (the owner of record): a link request carries proof, the tax bill's number or a
    document; a number given is 4 to 40 letters, digits, dashes, dots or slashes as printed on the bill."""
    number = (tax_bill_number or "").strip()
    if not number and not has_document:
        return [
            Violation(
                "tax_bill_number",
                "proof_required",
                CITATION,
                "Give the number printed on your property tax bill, or upload a tax bill or deed: the Clerk-Treasurer "
                f"links owners of record only ({CITATION}).",
            )
        ]
    if number and not TAX_BILL_NUMBER.match(number):
        return [
            Violation(
                "tax_bill_number",
                "tax_bill_number_invalid",
                CITATION,
                "The tax bill number is 4 to 40 letters, digits, dashes, dots or slashes, as printed on the bill "
                f"({CITATION}).",
            )
        ]
    return []


def already_linked_violations(*, linked: bool, pending: bool, site_address: str) -> list[Violation]:
    """Wis. Stat. § 66.0627: one link per owner and parcel, one open request at a time."""
    if linked:
        return [
            Violation("parcel", "already_linked", CITATION, f"You are already linked to {site_address} ({CITATION}).")
        ]
    if pending:
        return [
            Violation(
                "parcel",
                "request_pending",
                CITATION,
                f"Your request for {site_address} is waiting for the Clerk-Treasurer ({CITATION}).",
            )
        ]
    return []


def request_link(
    *, user, parcel: Parcel, tax_bill_number: str = "", document=None, note: str = ""
) -> ParcelLinkRequest:
    """Ask to be linked to `parcel` as its owner, with proof. Nothing is stored when a rule refuses."""
    from permits.uploads import inspect_upload

    tax_bill_number = (tax_bill_number or "").strip()
    violations = [
        *already_linked_violations(
            linked=parcel.owners.filter(pk=user.pk).exists(),
            pending=ParcelLinkRequest.objects.filter(
                user=user, parcel=parcel, status=ParcelLinkRequest.Status.PENDING
            ).exists(),
            site_address=parcel.site_address,
        ),
        *proof_violations(tax_bill_number=tax_bill_number, has_document=document is not None),
    ]
    raise_if_broken(violations)
    content_type = ""
    if document is not None:
        content_type, _extension = inspect_upload(document)  # a ValidationError on the upload; nothing stored
    try:
        with transaction.atomic():
            link = ParcelLinkRequest(
                user=user,
                parcel=parcel,
                tax_bill_number=tax_bill_number,
                note=(note or "").strip()[:300],
                document_content_type=content_type,
            )
            if document is not None:
                link.document.save("proof", document, save=False)
            link.save()
    except IntegrityError:  # the same request twice at once: parcel_link_one_pending
        raise RulesBroken(
            already_linked_violations(linked=False, pending=True, site_address=parcel.site_address)
        ) from None
    return link


def _decide(link: ParcelLinkRequest, *, by, to: str, reason: str) -> ParcelLinkRequest:
    if not has_role(by, Role.CLERK):
        raise PermissionDenied(
            "You may not decide parcel link requests (the Clerk-Treasurer does, who keeps the tax roll)."
        )
    require_within(reason, "reason")  # the resident reads it in an email: refused, not kept whole or cut
    now = timezone.now()
    approved = to == ParcelLinkRequest.Status.APPROVED
    with transaction.atomic():
        # Conditional update: two clerks cannot both decide the same request.
        change_state(
            link,
            to=to,
            from_states={ParcelLinkRequest.Status.PENDING},
            by=by,
            reason=reason or ("Approved: the proof matches the owner of record" if approved else "Refused"),
            refusal=Violation(None, "already_decided", CITATION, "This request was already decided; reload the page."),
            decided_at=now,
            decided_by=by,
            decision_reason=reason[:300],
        )
        if approved:
            link.parcel.owners.add(link.user)
        _tell(link, approved=approved, reason=reason)
    return link


def _tell(link: ParcelLinkRequest, *, approved: bool, reason: str) -> None:
    from permits.services import send_notice

    send_notice(
        None,
        to=link.user.email,
        template="parcel_link_decided",
        context={"link": link, "parcel": link.parcel, "approved": approved, "reason": reason},
        record=link,
    )


def approve_link(*, link: ParcelLinkRequest, by, reason: str = "") -> ParcelLinkRequest:
    """The Clerk-Treasurer found the proof matches the owner of record: the person becomes one of the owners."""
    return _decide(link, by=by, to=ParcelLinkRequest.Status.APPROVED, reason=(reason or "").strip())


def refuse_link(*, link: ParcelLinkRequest, by, reason: str) -> ParcelLinkRequest:
    """The proof does not match the owner of record: refused, with the reason the person reads."""
    reason = (reason or "").strip()
    if not reason:
        raise RulesBroken(
            [Violation("reason", "reason_required", CITATION, "Say why the request is refused: the resident reads it.")]
        )
    return _decide(link, by=by, to=ParcelLinkRequest.Status.REFUSED, reason=reason)
