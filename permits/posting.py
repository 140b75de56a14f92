"""A page's form posted to its service: the page shown again with the form's errors, and a step that changes a record's
status run in one transaction, a status change someone else made meanwhile refused on the form like any broken rule."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import render

from permits.errors import IllegalTransition
from permits.forms import service_result

MOVED = "moved"
"""The code of the form error saying the record's status changed under the page (the page may reload the record)."""


def form_page(request, template: str, context: dict):
    """A page with a form (`context["form"]`): 400 when the form holds errors (invalid or refused), else 200."""
    step = context.get("draft_step")  # an upload to the draft refused (permits.applicant.draft_pages)
    refused = context["form"].errors or (step is not None and step.document_form.errors)
    return render(request, template, context, status=400 if refused else 200)


def submitted_application(form, apply, *, applicant):
    """An application form handed to its permit type's `apply(applicant=, organization=, data=)`, the organization
    being the one the form names (if any): the permit, or None as service_result says (the refusal on the form)."""
    return service_result(
        form, lambda **data: apply(applicant=applicant, organization=data.get("organization"), data=data)
    )


def transacted_result(form, call, *, moved_field: str | None = None):
    """What `call(**form.cleaned_data)` returns, run in one transaction, as service_result hands it back; None when
    the form is invalid, the service refused, or the record's status no longer allows the step (IllegalTransition:
    paid, closed or moved by someone else meanwhile), that refusal then on `moved_field` (None: the whole form)
    with the code MOVED."""

    def in_one_transaction(**data):
        with transaction.atomic():
            return call(**data)

    try:
        return service_result(form, in_one_transaction)
    except IllegalTransition as error:
        form.add_error(moved_field, ValidationError(str(error), code=MOVED))
        return None
