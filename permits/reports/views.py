"""The reports' pages: each with its chart and table, and the same table as a CSV and a PDF. Views stay thin: check
who reads, bind the filters, build the report, render it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from permits.reports import exports, rules
from permits.reports.forms import ReportFilterForm
from permits.reports.tables import REPORTS, kind_choices
from permits.roles import roles_of


def require_reader(user, slug: str) -> None:
    """PermissionDenied unless `user` may read the report `slug` (rules.may_read_report)."""
    if not rules.may_read_report(roles_of(user), slug, superuser=getattr(user, "is_superuser", False)):
        if slug == "inspections":
            raise PermissionDenied(
                "You may not read the inspections report: the Clerk-Treasurer, the Village Board, the President and "
                "the DPW read it."
            )
        raise PermissionDenied(
            f"You may not read the report “{REPORTS[slug].title}”: the Clerk-Treasurer, the Village Board and the "
            "President read it."
        )


def _spec_for(user, slug: str):
    spec = REPORTS.get(slug)
    if spec is None:
        raise Http404("No such report")
    require_reader(user, slug)
    return spec


def _bound(request, spec):
    """(form, report or None when the filters are bad, the year shown)."""
    today = timezone.localdate()  # read once: the rules and the queries get it passed down
    form = ReportFilterForm(request.GET or None, today=today, kinds=kind_choices(spec.slug))
    if not request.GET:
        return form, spec.build(today.year, None, today), today.year
    if not form.is_valid():
        return form, None, today.year
    year = form.cleaned_data["year"]
    kind = form.cleaned_data["kind"] if "kind" in spec.filters else None
    return form, spec.build(year, kind or None, today), year


@login_required
def index(request):
    slugs = rules.readable_reports(roles_of(request.user), superuser=request.user.is_superuser)
    if not slugs:
        raise PermissionDenied("You may not read the Village's reports: the Clerk-Treasurer and the Village Board do.")
    return render(request, "reports/index.html", {"reports": [REPORTS[s] for s in slugs]})


@login_required
def report(request, slug):
    spec = _spec_for(request.user, slug)
    form, built, year = _bound(request, spec)
    context = {
        "spec": spec,
        "form": form,
        "report": built,
        "years": form.years,
        "year": year,
        "query": request.GET.urlencode(),
    }
    return render(request, "reports/report.html", context, status=200 if built else 400)


def _export(request, slug, response_of):
    """The report as a file (`response_of(built)`), or the filters' errors when they do not build it."""
    form, built, _ = _bound(request, _spec_for(request.user, slug))
    if built is None:
        return _bad_filters(form)
    return response_of(built)


@login_required
def report_csv(request, slug):
    return _export(request, slug, exports.csv_response)


@login_required
def report_pdf(request, slug):
    return _export(request, slug, exports.pdf_response)


def _bad_filters(form) -> HttpResponse:
    messages = [message for errors in form.errors.values() for message in errors]
    return HttpResponse("\n".join(messages), status=400, content_type="text/plain; charset=utf-8")
