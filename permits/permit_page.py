"""The one page per permit: what every permit type's page shows, and, for the applicant, the checklist of
what still blocks the next step: the same blockers staff see (the type's `blockers` hook through
workflow.blockers_for), each with a link to fix it where the applicant can.

Views call `page_context`; the type's record adds its panel, its own context and its fix links (permits.kinds).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.urls import NoReverseMatch, reverse

from permits import kinds, workflow
from permits.errors import Violation
from permits.fees import FeeNotConfigured, fee_in_force
from permits.models import Permit, Status
from permits.roles import Role, has_role, is_village_staff
from permits.selectors import with_refund

# The step that waits next, from each status: the one whose blockers the applicant can act on. Under review starts
# without any rule of its own, so a submitted application is checked against its approval.
NEXT_STEP: dict[str, str] = {
    Status.SUBMITTED: Status.APPROVED,
    Status.UNDER_REVIEW: Status.APPROVED,
    Status.APPROVED: Status.ISSUED,
    Status.ISSUED: Status.COMPLETED,
    Status.ACTIVE: Status.COMPLETED,
}

STEP_LABELS = {
    Status.APPROVED: "approval",
    Status.ISSUED: "the permit's issue",
    Status.COMPLETED: "completion",
}


@dataclass(frozen=True)
class ChecklistItem:
    violation: Violation
    fix_url: str | None  # None: the Village does it (a review, a Board decision), or nothing to link to
    fix_label: str
    staff_url: str | None = None  # the page where the staff member looking clears it (the type's cleared_by)


def next_step(status: str) -> str | None:
    return NEXT_STEP.get(str(status))


def core_fix_link(permit: Permit, violation: Violation) -> tuple[str, str] | None:
    """The fixes every type shares: the fee is paid (online where the Village takes cards, else at the office); a
    missing document is uploaded on the page."""
    if violation.code == "fee_unpaid":
        from permits.online_payments import services as online

        if online.online_payments_enabled():
            try:
                return reverse("online_payments:pay_permit", args=[permit.number]), "Pay the fee online"
            except NoReverseMatch:
                return None
        return None
    # Only a document not on file is fixed by an upload; one on file that does not count yet is the Village's to record.
    missing = violation.code.endswith("_missing")
    if missing and violation.field and any(word in violation.field for word in ("certificate", "document", "plans")):
        return f"{permit.get_absolute_url()}#upload-heading", "Upload the document"
    return None


def _page_of(clearer: kinds.Clearer, permit: Permit) -> str | None:
    try:
        return reverse(clearer.page, args=[permit.number])
    except NoReverseMatch:
        return reverse(clearer.page)


def _who_clears(clearer: kinds.Clearer | None) -> str:
    """The applicant's reading of who clears a blocker that is not theirs (the type's cleared_by)."""
    if clearer is None or not clearer.roles:
        return "The Village records this"
    if clearer.roles == (kinds.CALENDAR,):
        return "This clears when its day comes"
    offices = [role for role in clearer.roles if role not in (kinds.APPLICANT, kinds.CALENDAR)]
    return f"The {' or the '.join(offices)} records this" if offices else "The Village records this"


def checklist(permit: Permit, *, today: date, user=None) -> list[ChecklistItem]:
    """What refuses the permit's next step today, each with its fix (the type's link first, then the core's), and,
    for a staff `user` whose step it is, the page where they clear it (the type's cleared_by)."""
    step = next_step(permit.status)
    if step is None:
        return []
    permit_type = kinds.get_type(permit.kind)
    cleared_by = permit_type.cleared_by if permit_type is not None else {}
    items = []
    violations = workflow.blockers_for(permit, step, today=today)
    if permit.status == Status.SUBMITTED:
        # What refuses the review first (a street use's petition, § 303-15F) blocks approval as surely.
        first = workflow.blockers_for(permit, Status.UNDER_REVIEW, today=today)
        violations = first + [v for v in violations if v not in first]
    for violation in violations:
        clearer = cleared_by.get(violation.code)
        staff_roles = [r for r in (clearer.roles if clearer else ()) if r not in (kinds.APPLICANT, kinds.CALENDAR)]
        staff_url = _page_of(clearer, permit) if staff_roles and user and has_role(user, *staff_roles) else None
        link = None
        if permit_type is not None and permit_type.fix_link is not None:
            link = permit_type.fix_link(permit, violation)
        link = link or core_fix_link(permit, violation)
        if link:
            items.append(ChecklistItem(violation, link[0], link[1], staff_url))
        elif violation.code == "fee_unpaid":
            items.append(ChecklistItem(violation, None, "Pay the Clerk-Treasurer at the Village Hall", staff_url))
        else:
            items.append(ChecklistItem(violation, None, _who_clears(clearer), staff_url))
    return items


def fee_preview(permit_type, *, today: date):
    """The Chapter 167 fee an application of `permit_type` is charged if submitted today, with its section; None when
    the type has no fee or the schedule has none in force (the application then says why at submission)."""
    if permit_type is None or not permit_type.fee_code:
        return None
    try:
        return fee_in_force(permit_type.fee_code, today)
    except FeeNotConfigured:
        return None


def pdf_url(permit: Permit) -> str | None:
    """The permit PDF to keep on site, once issued (every type online names its own)."""
    permit_type = kinds.get_type(permit.kind)
    if permit_type is None or not permit_type.pdf_url or permit.issued_on is None:
        return None
    return reverse(permit_type.pdf_url, args=[permit.number])


def information_context(permit: Permit, user, applicant_side: bool, answer_form=None) -> dict:
    """The Village's requests for information and their answers (the staff and the applicant see them all); the
    open one at the top of the page, with the answer form for the applicant while the permit is pending."""
    from permits.applicant.applications import PENDING
    from permits.forms import InformationAnswerForm

    if not (applicant_side or is_village_staff(user)):
        return {"information_requests": [], "open_information_request": None, "may_answer": False}
    requests = list(permit.information_requests.select_related("asked_by", "answered_by").prefetch_related("documents"))
    waiting = next((r for r in requests if r.is_open), None) if permit.status in PENDING else None
    may_answer = applicant_side and waiting is not None
    return {
        "information_requests": requests,
        "open_information_request": waiting,
        "may_answer": may_answer,
        "may_ask": is_village_staff(user) and not applicant_side and permit.status in PENDING and waiting is None,
        "answer_form": (answer_form or InformationAnswerForm()) if may_answer else None,
    }


def documents_with_review(permit: Permit, user, applicant_side: bool) -> list:
    """The permit's documents, each with who reviews it (`reviewer`) and whether `user` may review it here."""
    from permits.services import DOCUMENT_REVIEWERS, document_reviewer

    staff = is_village_staff(user) and not applicant_side
    reviewable = {kind for kind, roles in DOCUMENT_REVIEWERS.items() if staff and has_role(user, *roles)}
    documents = list(permit.documents.select_related("reviewed_by"))
    for document in documents:
        document.reviewer = document_reviewer(document.kind)
        document.may_review = document.kind in reviewable and document.review_status != "rejected"
        document.reviewed_label = workflow.actor_label(document.reviewed_by) if document.reviewed_by_id else ""
    return documents


def page_context(request, permit: Permit, *, today: date, **extra) -> dict:
    from permits.forms import DocumentForm

    user = request.user
    permit_type = kinds.get_type(permit.kind)
    applicant_side = workflow.is_applicant_side(user, permit)
    step = next_step(permit.status)
    context = {
        "permit": permit,
        "detail_template": permit_type.detail_template if permit_type else None,
        "events": permit.events.select_related("actor").all(),
        "documents": documents_with_review(permit, user, applicant_side),
        # The card payments taken online name their gateway payment, for the refund link (one query with a join).
        "payments": with_refund(permit.payments.select_related("online_payment")),
        # Chapter 167: on a withdrawn or denied application the Clerk-Treasurer refunds what was paid and not kept,
        # one receipt at a time (permits.online_payments.services.refund_receipt / refund_online_payment).
        "may_record_refund": bool(permit.refund_due) and has_role(user, Role.CLERK),
        "document_form": extra.pop("document_form", None) or DocumentForm(),
        "may_upload": applicant_side or is_village_staff(user),
        "is_applicant_side": applicant_side,
        "checklist": checklist(permit, today=today, user=user) if applicant_side or is_village_staff(user) else [],
        "next_step_label": STEP_LABELS.get(step, ""),
        "may_withdraw": applicant_side and workflow.may_transition(user, permit, Status.WITHDRAWN),
        "permit_pdf_url": pdf_url(permit),
        **information_context(permit, user, applicant_side, extra.pop("answer_form", None)),
    }
    if permit_type is not None and permit_type.page_context is not None:
        context.update(permit_type.page_context(request, permit))
    context.update(extra)
    return context


def page_template(permit: Permit) -> str:
    permit_type = kinds.get_type(permit.kind)
    return (permit_type.page_template if permit_type else None) or "permits/detail.html"
