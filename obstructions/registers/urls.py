from django.urls import path

from obstructions.registers import views

app_name = "registers"
urlpatterns = [
    path("grades/", views.grades, name="grades"),
    path("streets/", views.street_widths, name="street_widths"),
    path("higher-standards/", views.higher_standards, name="higher_standards"),
    path("improvements/", views.improvements, name="improvements"),
    path("terrace-approvals/", views.terrace_approvals, name="terrace_approvals"),
    path("village-contracts/", views.village_contracts, name="village_contracts"),
    path("improvements.csv", views.improvements_csv, name="improvements_csv"),
]
