"""The applicant's own pages: which notices come by email, and drafts kept before applying."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from permits import notices
from permits.applicant import applications


@login_required
@require_http_methods(["GET", "POST"])
def notice_preferences(request):
    """Each person chooses which notices they get by email; every notice stays on its record either way, and the
    notices the law requires in writing are always given."""
    if request.method == "POST":
        off = notices.set_preferences(user=request.user, by_email=request.POST.getlist("by_email"))
        messages.success(
            request,
            "Notice preferences saved."
            + (f" {len(off)} kind{'s' if len(off) != 1 else ''} of notice will not be emailed." if off else ""),
        )
        return redirect("permits:notice_preferences")
    return render(request, "permits/notice_preferences.html", {"preferences": notices.preferences_for(request.user)})


@login_required
@require_POST
def delete_draft(request, pk):
    draft = applications.draft_for(request.user, pk)
    if draft is None:
        raise Http404("No such draft")
    applications.delete_draft(draft=draft, by=request.user)
    messages.success(request, "Draft deleted.")
    return redirect("permits:my_applications")


@login_required
def draft_document(request, pk, document):
    """A file uploaded to the user's own draft, downloaded as the permit page's documents are (never rendered)."""
    from permits.views import document_response

    draft = applications.draft_for(request.user, pk)
    if draft is None:
        raise Http404("No such draft")
    return document_response(get_object_or_404(draft.documents, pk=document))
