"""The draft buttons of an application form, shared by every type's apply page: "Save as a draft", and the upload
box beside "Documents you will need" that saves the draft and attaches a file to it (or removes one). Each keeps
what was typed; the type's view handles only the submission."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect

from permits import kinds
from permits.applicant import applications
from permits.forms import add_service_errors
from permits.models import ApplicationDraft, Document
from permits.uploads import inspect_upload


class DraftDocumentForm(forms.Form):
    kind = forms.ChoiceField(label="Document")
    upload = forms.FileField(label="File (PDF, JPEG or PNG, at most 10 MB)")

    def __init__(self, *args, permit_kind: str, **kwargs):
        kwargs.setdefault("prefix", applications.DOCUMENT_PREFIX)
        super().__init__(*args, **kwargs)
        labels = dict(Document.Kind.choices)
        permit_type = kinds.get_type(permit_kind)
        wanted = [d.kind for d in (permit_type.required_documents if permit_type else ())]
        self.fields["kind"].choices = [(k, labels[k]) for k in dict.fromkeys([*wanted, Document.Kind.OTHER])]

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        inspect_upload(upload)
        return upload


@dataclass
class DraftStep:
    draft: ApplicationDraft | None
    document_form: DraftDocumentForm
    initial: dict = field(default_factory=dict)
    submitting: bool = False  # a POST that submits the application: the type's view runs it
    response: HttpResponse | None = None  # the redirect after a draft button
    save_error: ValidationError | None = None  # the draft refused (a field too long to keep): shown on the form

    @property
    def documents(self) -> list[Document]:
        return applications.draft_documents(self.draft)


def draft_step(request, *, kind: str) -> DraftStep:
    """What a GET or POST of `kind`'s application form asks of its draft. A draft button (save, upload, remove)
    saves the draft and answers with a redirect; a refused upload stores nothing and comes back with the form as
    typed and the refusal on the upload field."""
    draft = applications.draft_for(request.user, request.POST.get("draft") or request.GET.get("draft"))
    step = DraftStep(
        draft=draft,
        document_form=DraftDocumentForm(permit_kind=kind),
        initial=applications.draft_initial(draft),
    )
    if request.method != "POST":
        return step
    uploading, removing = request.POST.get("upload_document"), request.POST.get("remove_document")
    if not (request.POST.get("save_draft") or uploading or removing):
        step.submitting = True
        return step
    if uploading:
        step.document_form = DraftDocumentForm(request.POST, request.FILES, permit_kind=kind)
        if not step.document_form.is_valid():
            step.initial = applications.form_data(request.POST)
            return step
    data = applications.form_data(request.POST)
    try:
        step.draft = applications.save_draft(applicant=request.user, kind=kind, data=data, draft=draft)
    except ValidationError as error:
        step.save_error, step.initial = error, data
        return step
    if removing:
        removed = applications.remove_draft_document(draft=step.draft, document_id=removing, by=request.user)
        messages.success(request, f'Draft saved, and "{removed.original_name}" removed from it.')
    elif uploading:
        cleaned = step.document_form.cleaned_data
        try:
            document = applications.attach_draft_document(
                draft=step.draft, kind=cleaned["kind"], upload=cleaned["upload"], by=request.user
            )
        except ValidationError as error:
            add_service_errors(step.document_form, error, aliases={None: "upload"})
            step.initial = data
            return step
        messages.success(
            request,
            f'Draft saved, with "{document.original_name}" ({document.get_kind_display()}): it is sent to the '
            "Village with the application when you submit it.",
        )
    else:
        messages.success(request, "Draft saved: continue it from My applications. Nothing was sent to the Village.")
        step.response = redirect("permits:my_applications")
        return step
    step.response = redirect(f"{request.path}?draft={step.draft.pk}#draft-documents-heading")
    return step
