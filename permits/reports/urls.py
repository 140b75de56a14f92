"""The reports for the clerk and the Board, under /reports/."""

from django.urls import path

from permits.reports import views

app_name = "reports"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.report, name="report"),
    path("<slug:slug>/csv/", views.report_csv, name="csv"),
    path("<slug:slug>/pdf/", views.report_pdf, name="pdf"),
]
