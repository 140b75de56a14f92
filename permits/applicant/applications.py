"""Applicant verbs: withdraw an application, be asked for more information, keep a draft. Views, the
admin and the API call these; the status changes go through workflow.transition() like every other."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from permits import kinds, workflow
from permits.errors import RulesBroken
from permits.input_limits import CITATION, MAX_DESCRIPTION, length_message
from permits.models import (
    ApplicationDraft,
    Document,
    InformationRequest,
    Organization,
    Permit,
    PermitEvent,
    Status,
)
from permits.roles import is_village_staff

MAX_DRAFTS = 20  # per person: a draft is a convenience, not storage
MAX_DRAFT_BYTES = 20_000  # what a form's fields can hold; files are Documents of the draft (below)
MAX_DRAFT_DOCUMENTS = 10  # the documents a type's checklist asks for, with room for a few more


@transaction.atomic
def withdraw_permit(*, permit: Permit, by, reason: str = "") -> Permit:
    """The applicant (or the Clerk-Treasurer) withdraws an application before the permit is issued. The status table
    says when (workflow.TRANSITIONS) and the type's authority who; the fee already paid is the clerk's to refund."""
    reason = reason.strip()[:500]
    return workflow.transition(permit, Status.WITHDRAWN, by=by, reason=reason or "Withdrawn by the applicant")


# While the Village waits on the applicant, or on its own review: staff may ask, the applicant may answer.
PENDING = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)
MAX_ANSWER_DOCUMENTS = 5


def open_request(permit: Permit) -> InformationRequest | None:
    """The request that waits for the applicant's answer, if any (at most one: a constraint holds it)."""
    return permit.information_requests.filter(answered_at__isnull=True).select_related("asked_by").first()


def _refuse_unless_pending(permit: Permit, what: str) -> None:
    if permit.status not in PENDING:
        message = f"{permit.number} is {permit.get_status_display().lower()}: {what}"
        raise RulesBroken.one(None, "nothing_pending", "", message)


@transaction.atomic
def request_information(*, permit: Permit, by, message: str):
    """Village staff ask the applicant for what the application lacks: an open InformationRequest the applicant
    sees on the permit page and on My applications, recorded on the timeline and noticed to the applicant (topic
    "needs information"); the permit keeps its status. One request waits at a time: ask again once it is answered."""
    from permits.services import record_event, send_notice

    if not is_village_staff(by):
        raise PermissionDenied("You may not ask applicants for information (Village staff do).")
    message = (message or "").strip()
    if not message:
        raise RulesBroken.one("message", "required", "", "Say what the applicant must add or correct.")
    if len(message) > 2000:
        raise RulesBroken.one("message", "too_long", "", "Keep the request under 2,000 characters.")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    _refuse_unless_pending(permit, "nothing is pending on it.")
    waiting = open_request(permit)
    if waiting is not None:
        asked = timezone.localdate(waiting.asked_at).strftime("%b %-d, %Y")
        message_ = f"The applicant has not yet answered the request asked on {asked}: wait for the answer."
        raise RulesBroken.one("message", "already_waiting", "", message_)
    InformationRequest.objects.create(permit=permit, question=message, asked_by=by, asked_at=timezone.now())
    record_event(permit, by=by, kind=PermitEvent.Kind.NOTE, reason=f"Information requested: {message}")
    return send_notice(
        permit,
        to=permit.applicant.email,
        template="permit_needs_information",
        context={"permit": permit, "message": message},
    )


@transaction.atomic
def answer_information_request(*, permit: Permit, by, answer: str, uploads=()) -> InformationRequest:
    """The applicant (or a member of the applicant's organization) answers the Village's open request: the text,
    and documents uploaded with it (`uploads`: (kind, file) pairs, checked as every upload is). The answer goes on
    the timeline, the staff member who asked is told, and the permit shows "Answered" in the office list. Refused
    when the permit no longer waits (withdrawn, denied, issued...) or nothing was asked."""
    from permits.services import record_event, send_notice, upload_document

    if not workflow.is_applicant_side(by, permit):
        raise PermissionDenied("Only the applicant answers the Village's request for information.")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    _refuse_unless_pending(permit, "it no longer waits for information, so the answer was not sent.")
    waiting = open_request(permit)
    if waiting is None:
        raise RulesBroken.one(None, "nothing_asked", "", "The Village is not waiting for information on this permit.")
    answer = (answer or "").strip()
    uploads = list(uploads)
    if not answer:
        raise RulesBroken.one("answer", "required", "", "Write your answer to the Village's question.")
    if len(answer) > 4000:
        raise RulesBroken.one("answer", "too_long", "", "Keep the answer under 4,000 characters.")
    if len(uploads) > MAX_ANSWER_DOCUMENTS:
        message = f"Attach at most {MAX_ANSWER_DOCUMENTS} documents; upload more below the answer."
        raise RulesBroken.one("documents", "too_many", "", message)
    documents = [upload_document(permit=permit, kind=kind, upload=upload, by=by) for kind, upload in uploads]
    waiting.answer, waiting.answered_by, waiting.answered_at = answer, by, timezone.now()
    waiting.save(update_fields=["answer", "answered_by", "answered_at"])
    waiting.documents.set(documents)
    attached = f" ({len(documents)} document{'s' if len(documents) != 1 else ''} attached)" if documents else ""
    record_event(permit, by=by, kind=PermitEvent.Kind.NOTE, reason=f"Information given{attached}: {answer}")
    send_notice(
        permit,
        to=waiting.asked_by.email,
        template="permit_information_answered",
        context={"permit": permit, "question": waiting.question, "answer": answer, "documents": documents},
    )
    return waiting


# What a POST of the application form carries besides the application's own fields: not kept in the draft's data.
DRAFT_BUTTONS = ("csrfmiddlewaretoken", "save_draft", "draft", "upload_document", "remove_document")
DOCUMENT_PREFIX = "draft_document"  # the upload box's fields (permits.applicant.draft_pages.DraftDocumentForm)


def _clean_data(data: dict) -> dict:
    cleaned = {}
    for key, value in data.items():
        if key in DRAFT_BUTTONS or key.startswith(f"{DOCUMENT_PREFIX}-"):
            continue
        cleaned[key] = value if isinstance(value, list) else str(value)
    return cleaned


@transaction.atomic
def save_draft(*, applicant, kind: str, data: dict, draft: ApplicationDraft | None = None) -> ApplicationDraft:
    """Keep what the applicant typed so far, unchecked: the type's rules run when it is submitted. `data` is the
    form's fields (a QueryDict's lists are kept as lists)."""
    if kinds.registry().get(kind) is None:
        raise RulesBroken.one(None, "unknown_kind", "", f"There is no online application of kind {kind!r}.")
    cleaned = _clean_data(data)
    for key, value in cleaned.items():
        for text in value if isinstance(value, list) else [value]:
            if len(str(text)) > MAX_DESCRIPTION:  # no field of an application holds more: name the one too long
                message = length_message(key, MAX_DESCRIPTION) % {"show_value": len(str(text))}
                raise RulesBroken.one(key, "max_length", CITATION, message)
    if len(repr(cleaned)) > MAX_DRAFT_BYTES:
        raise RulesBroken.one(
            None, "draft_too_large", "", "The draft is too large to keep; shorten the longest answers."
        )
    title = cleaned.get("location_description") or cleaned.get("work_description") or ""
    title = title.strip()[:200] if isinstance(title, str) else ""
    if draft is not None:
        if draft.applicant_id != applicant.pk:
            raise PermissionDenied("This draft is someone else's.")
        draft.data, draft.title = cleaned, title
        draft.save(update_fields=["data", "title", "updated_at"])
        return draft
    if ApplicationDraft.objects.filter(applicant=applicant).count() >= MAX_DRAFTS:
        message = f"You have {MAX_DRAFTS} drafts: submit or delete one before saving another."
        raise RulesBroken.one(None, "too_many_drafts", "", message)
    return ApplicationDraft.objects.create(applicant=applicant, kind=kind, data=cleaned, title=title)


def delete_draft(*, draft: ApplicationDraft, by) -> None:
    """The draft and the files uploaded to it (its Documents go with it; their files once the deletion commits)."""
    _refuse_unless_owner(draft, by)
    files = [document.file for document in draft.documents.all()]
    with transaction.atomic():
        draft.delete()
        transaction.on_commit(lambda: [file.delete(save=False) for file in files])


def _refuse_unless_owner(draft: ApplicationDraft, by) -> None:
    if draft.applicant_id != by.pk:
        raise PermissionDenied("This draft is someone else's.")


@transaction.atomic
def attach_draft_document(*, draft: ApplicationDraft, kind: str, upload, by) -> Document:
    """A document uploaded while applying, kept with the draft until the application is submitted (then it moves to
    the permit: submit_from_draft). Checked as every upload is (permits.uploads.store_upload): a refused file
    stores nothing."""
    from permits.uploads import store_upload

    _refuse_unless_owner(draft, by)
    if kind not in Document.Kind.values:
        raise RulesBroken.one("kind", "invalid", "", "Choose what the document is.")
    if draft.documents.count() >= MAX_DRAFT_DOCUMENTS:
        message = f"A draft keeps at most {MAX_DRAFT_DOCUMENTS} documents: remove one, or upload more once submitted."
        raise RulesBroken.one("upload", "too_many", "", message)
    document = store_upload(upload, kind=kind, by=by, draft=draft)
    ApplicationDraft.objects.filter(pk=draft.pk).update(updated_at=timezone.now())
    return document


def remove_draft_document(*, draft: ApplicationDraft, document_id, by) -> Document:
    """The applicant removes a file from their draft: the row now, the file once that commits."""
    _refuse_unless_owner(draft, by)
    document = draft.documents.filter(pk=document_id).first() if str(document_id).isdigit() else None
    if document is None:
        raise Http404("No such document in this draft")
    file = document.file
    with transaction.atomic():
        document.delete()
        transaction.on_commit(lambda: file.delete(save=False))
    return document


def draft_documents(draft: ApplicationDraft | None) -> list[Document]:
    return list(draft.documents.order_by("uploaded_at", "pk")) if draft is not None else []


def move_draft_documents(*, draft: ApplicationDraft, permit: Permit, by) -> int:
    """The draft's documents become the new permit's, each on its timeline, so they count for the type's rules at
    once (a certificate filed with the application is on file for approval)."""
    from permits.services import record_event

    documents = list(draft.documents.order_by("uploaded_at", "pk"))
    Document.objects.filter(pk__in=[d.pk for d in documents]).update(permit=permit, draft=None)
    for document in documents:
        reason = f"{document.get_kind_display()} uploaded with the application"
        record_event(permit, by=by, kind=PermitEvent.Kind.DOCUMENT, reason=reason)
    return len(documents)


def submit_from_draft(apply, draft: ApplicationDraft | None):
    """A type's application verb `apply(applicant=, ...)` that, submitting `draft`, moves its documents to the new
    permit and deletes the draft, all in the application's transaction: a refused application keeps the draft whole."""
    if draft is None:
        return apply

    def run(*, applicant, **kwargs) -> Permit:
        _refuse_unless_owner(draft, applicant)
        with transaction.atomic():
            permit = apply(applicant=applicant, **kwargs)
            move_draft_documents(draft=draft, permit=permit, by=applicant)
            draft.delete()
        return permit

    return run


def draft_for(user, pk) -> ApplicationDraft | None:
    """The user's own draft `pk`, or None (another's draft is never found)."""
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        return None
    return ApplicationDraft.objects.filter(pk=pk, applicant=user).first()


def form_data(post) -> dict:
    """A POST's fields as a draft keeps them: one value as a string, several (checkboxes) as a list."""
    return {key: values if len(values) > 1 else values[0] for key, values in post.lists()}


def draft_initial(draft: ApplicationDraft | None) -> dict:
    """A draft's fields as a form's initial values (shown, not checked: the rules run when it is submitted)."""
    return dict(draft.data) if draft is not None else {}


def contact_details(user) -> dict[str, str]:
    """What the account already says about its holder, to fill in an application form (shown, and changeable): the
    name, and the telephone given at registration, which is kept on the account's organization (used only when it
    has one telephone)."""
    phones = set(
        Organization.objects.filter(memberships__user=user).exclude(phone="").values_list("phone", flat=True)[:2]
    )
    details = {"name": user.get_full_name(), "phone": phones.pop() if len(phones) == 1 else ""}
    return {key: value for key, value in details.items() if value}
