"""A report as a file: the same table as the page, as CSV (the csv module) or as a PDF (permits.pdf, WeasyPrint)."""

from __future__ import annotations

import csv

from django.http import HttpResponse

from permits.reports.tables import Report

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A text cell a spreadsheet would run as a formula (a fee item named "=HYPERLINK(...)") is written with a leading
    apostrophe, so it is read as text; numbers are written as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_response(report: Report) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{report.filename}.csv"'
    writer = csv.writer(response)
    writer.writerow([f"{report.title}, {report.period}"])
    writer.writerow(report.table.columns)
    for row in report.table.rows:
        writer.writerow([spreadsheet_safe(value) for value in row])
    if report.table.total:
        writer.writerow([spreadsheet_safe(value) for value in report.table.total])
    return response


def pdf_response(report: Report) -> HttpResponse:
    from permits.pdf import render_pdf

    pdf = render_pdf("pdf/report.html", {"report": report})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{report.filename}.pdf"'
    return response
