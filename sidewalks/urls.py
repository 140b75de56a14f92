from django.urls import path

app_name = "sidewalks"
urlpatterns: list = []

# Sidewalk permits (§ 303-3C, § 303-3D), surveys (§ 303-3E) and Board orders (Wis. Stat. § 66.0907)
from sidewalks import views as sidewalk_views  # noqa: E402

urlpatterns += [
    path("apply/", sidewalk_views.apply, name="apply"),
    path("inspections/", sidewalk_views.to_inspect, name="to_inspect"),
    path("permits/<str:number>/", sidewalk_views.permit_detail, name="permit"),
    path("permits/<str:number>/payment/", sidewalk_views.record_fee_payment, name="payment"),
    path("permits/<str:number>/issue/", sidewalk_views.issue, name="issue"),
    path("permits/<str:number>/inspect/", sidewalk_views.inspect, name="inspect"),
    path("permits/<str:number>/complete/", sidewalk_views.complete, name="complete"),
    path("parcels/", sidewalk_views.parcel_search, name="parcel_search"),
    path("surveys/", sidewalk_views.surveys, name="surveys"),
    path("surveys/<int:pk>/", sidewalk_views.survey, name="survey"),
    path("surveys/<int:pk>/propose/", sidewalk_views.propose, name="propose"),
    path("orders/", sidewalk_views.orders, name="orders"),
    path("orders/illegal/", sidewalk_views.order_illegal, name="order_illegal"),
    path("orders/<str:number>/", sidewalk_views.order_detail, name="order"),
    path("orders/<str:number>/<slug:action>/", sidewalk_views.order_act, name="order_act"),
]

# Special charges and the tax roll (Wis. Stat. § 66.0627, §§ 70.65, 74.03), snow and ice (§ 303-8), rubbish (§ 303-2)
from sidewalks import views_charges, views_snow  # noqa: E402

urlpatterns += [
    path("charges/", views_charges.charges, name="charges"),
    path("charges/parcel/<str:tax_key>/", views_charges.parcel_charges, name="parcel_charges"),
    path("charges/<str:number>/", views_charges.charge_detail, name="charge_detail"),
    path("charges/<str:number>/bill.pdf", views_charges.charge_bill_pdf, name="charge_bill_pdf"),
    path(
        "charges/<str:number>/receipts/<str:receipt_number>.pdf",
        views_charges.charge_receipt_pdf,
        name="charge_receipt_pdf",
    ),
    path("charges/<str:number>/payment/", views_charges.charge_payment, name="charge_payment"),
    path("charges/<str:number>/hearing/", views_charges.charge_hearing, name="charge_hearing"),
    path("hearings/", views_charges.hearings, name="hearings"),
    path("tax-roll/", views_charges.tax_rolls, name="tax_rolls"),
    path("tax-roll/build/", views_charges.tax_roll_build, name="tax_roll_build"),
    path("tax-roll/<int:year>/", views_charges.tax_roll_detail, name="tax_roll"),
    path("tax-roll/<int:year>/certify/", views_charges.tax_roll_certify, name="tax_roll_certify"),
    path("tax-roll/<int:year>/transfer/", views_charges.tax_roll_transfer, name="tax_roll_transfer"),
    path("tax-roll/<int:year>/special-charges.<str:kind>", views_charges.tax_roll_file, name="tax_roll_file"),
    path("snow/report/", views_snow.snow_report, name="snow_report"),
    path("snow/report/thanks/", views_snow.snow_report_thanks, name="snow_report_thanks"),
    path("snow/", views_snow.snow_office, name="snow"),
    path("snow/snowfalls/<int:pk>/", views_snow.snowfall_detail, name="snowfall_detail"),
    path("snow/cases/<str:number>/", views_snow.snow_case, name="snow_case"),
    path("snow/cases/<str:number>/clear/", views_snow.snow_case_clear, name="snow_case_clear"),
    path("snow/cases/<str:number>/close/", views_snow.snow_case_close, name="snow_case_close"),
    path("snow/cases/<str:number>/unoccupied/", views_snow.snow_case_unoccupied, name="snow_case_unoccupied"),
    path("snow/cases/<str:number>/assign/", views_snow.snow_case_assign, name="snow_case_assign"),
    path("rubbish/", views_snow.rubbish_cases, name="rubbish_cases"),
    path("rubbish/<str:number>/", views_snow.rubbish_case, name="rubbish_case"),
]
