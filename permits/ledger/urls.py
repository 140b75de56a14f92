"""Special charges, their hearings and the tax roll (Wis. Stat. § 66.0627, §§ 70.65, 74.03)."""

from django.urls import path

from permits.ledger import views

app_name = "ledger"
urlpatterns = [
    path("charges/", views.charges, name="charges"),
    # <path:>: a tax key with "/" imported before the import refused it still has a page (permits.parcel_import).
    path("charges/parcel/<path:tax_key>/", views.parcel_charges, name="parcel_charges"),
    path("charges/<str:number>/", views.charge_detail, name="charge_detail"),
    path("charges/<str:number>/bill.pdf", views.charge_bill_pdf, name="charge_bill_pdf"),
    path(
        "charges/<str:number>/receipts/<str:receipt_number>.pdf",
        views.charge_receipt_pdf,
        name="charge_receipt_pdf",
    ),
    path("charges/<str:number>/payment/", views.charge_payment, name="charge_payment"),
    path("charges/<str:number>/hearing/", views.charge_hearing, name="charge_hearing"),
    path("hearings/", views.hearings, name="hearings"),
    path("assessments/", views.assessments, name="assessments"),
    path("assessments/<int:pk>/", views.assessment, name="assessment"),
    path("tax-roll/", views.tax_rolls, name="tax_rolls"),
    path("tax-roll/build/", views.tax_roll_build, name="tax_roll_build"),
    path("tax-roll/<int:year>/", views.tax_roll_detail, name="tax_roll"),
    path("tax-roll/<int:year>/certify/", views.tax_roll_certify, name="tax_roll_certify"),
    path("tax-roll/<int:year>/transfer/", views.tax_roll_transfer, name="tax_roll_transfer"),
    path("tax-roll/<int:year>/special-charges.<str:kind>", views.tax_roll_file, name="tax_roll_file"),
]
