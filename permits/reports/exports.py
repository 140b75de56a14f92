"""A report as a file: the same table as the page, as CSV (the csv module) or as a PDF (permits.pdf, WeasyPrint)."""

from __future__ import annotations

from django.http import HttpResponse

from permits import spreadsheet
from permits.reports.tables import Report


def csv_response(report: Report) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{report.filename}.csv"'
    writer = spreadsheet.writer(response)
    writer.writerow([f"{report.title}, {report.period}"])
    writer.writerow(report.table.columns)
    for row in report.table.rows:
        writer.writerow(row)
    if report.table.total:
        writer.writerow(report.table.total)
    return response


def pdf_response(report: Report) -> HttpResponse:
    from permits.pdf import render_pdf

    pdf = render_pdf("pdf/report.html", {"report": report})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{report.filename}.pdf"'
    return response
