"""The Clerk-Treasurer's letters: the notices to recipients without an email address, printed (one PDF per owner, or
the batch), mailed, and recorded with their mailing date, the day they are given (permits.letters)."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from permits import letters
from permits.access import require_role
from permits.input_limits import posted_ids
from permits.models import Notice
from permits.paging import page_of
from permits.roles import Role


def _pdf(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def letters_page(request):
    """Letters to mail (with their PDFs and the batch), the form recording the mailing date, and the letters mailed."""
    require_role(request.user, Role.CLERK, action=letters.MAILING_ACTION)
    today = timezone.localdate()
    errors: dict[str, str] = {}
    selected: set[str] = set()
    mailed_on_value = today.isoformat()
    if request.method == "POST":
        selected = set(request.POST.getlist("letters"))
        mailed_on_value = (request.POST.get("mailed_on") or "").strip()
        try:
            mailed_on = date.fromisoformat(mailed_on_value) if mailed_on_value else None
        except ValueError:
            mailed_on, errors = None, {"mailed_on": "Mailing date: enter a date such as 2026-12-01."}
        try:
            ids = posted_ids(selected, "letters")
        except ValidationError as exc:
            ids, errors = [], {**errors, "letters": " ".join(exc.messages)}
        chosen = list(letters.letters_to_mail().filter(pk__in=ids))
        if not errors:
            try:
                done = letters.record_mailing(notices=chosen, mailed_on=mailed_on, by=request.user, today=today)
            except ValidationError as exc:
                errors = {field: " ".join(msgs) for field, msgs in exc.message_dict.items()}
            else:
                messages.success(
                    request,
                    f"{done} letter{'s' if done != 1 else ''} recorded as mailed on {mailed_on:%B %-d, %Y}: "
                    "given as of that day.",
                )
                return redirect("permits:letters")
    page = page_of(request, letters.letters_to_mail())
    mailed = page_of(request, letters.mailed_letters().select_related("mailed_by"), param="mailed_page")
    return render(
        request,
        "permits/letters.html",
        {
            "page": page,
            "mailed": mailed,
            "errors": errors,
            "selected": selected,
            "mailed_on_value": mailed_on_value,
            "today": today,
            "waiting": page.paginator.count,
        },
        status=400 if errors else 200,
    )


@login_required
def letter_pdf(request, pk: int):
    """One owner's letter, to print and mail."""
    require_role(request.user, Role.CLERK, action=letters.MAILING_ACTION)
    notice = Notice.objects.filter(pk=pk, channel=Notice.Channel.MAIL).first()
    if notice is None:
        raise Http404("No such letter")
    return _pdf(letters.render_letters_pdf([notice]), f"letter-{notice.pk}.pdf")


@login_required
def letters_batch_pdf(request):
    """Every letter not yet mailed, one per page, for the clerk to print at once."""
    require_role(request.user, Role.CLERK, action=letters.MAILING_ACTION)
    pending = list(letters.letters_to_mail()[:500])
    if not pending:
        messages.info(request, "No letters are waiting to be mailed.")
        return redirect("permits:letters")
    return _pdf(letters.render_letters_pdf(pending), f"letters-{timezone.localdate():%Y-%m-%d}.pdf")
