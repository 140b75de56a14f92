from django.urls import path

from permits import views

app_name = "permits"
urlpatterns = [
    path("start/", views.start, name="start"),
    path("apply/", views.apply, name="apply"),
    path("permits/", views.my_applications, name="my_applications"),
    path("office/", views.office, name="office"),
    path("permits/<str:number>/", views.detail, name="detail"),
    path("permits/<str:number>/upload/", views.upload, name="upload"),
    path("permits/<str:number>/documents/<int:pk>/", views.document, name="document"),
    path("receipts/<str:receipt_number>.pdf", views.receipt_pdf, name="receipt_pdf"),
    path("status/<uuid:token>/", views.public_status, name="public_status"),
    path("organizations/<int:pk>/", views.organization, name="organization"),
]

# Street opening permits (§ 303-4, § 303-5)
from permits import views_street_opening as street_opening  # noqa: E402

urlpatterns += [
    path("street-openings/apply/", street_opening.apply, name="street_opening_apply"),
    path("street-openings/emergency/", street_opening.report_emergency, name="street_opening_report_emergency"),
    path("permits/<str:number>/street-opening/manage/", street_opening.manage, name="street_opening_manage"),
    path("permits/<str:number>/street-opening/act/<slug:action>/", street_opening.act, name="street_opening_act"),
    path(
        "permits/<str:number>/street-opening/tickets/add/", street_opening.add_ticket, name="street_opening_add_ticket"
    ),
    path(
        "permits/<str:number>/street-opening/tickets/<int:pk>/verify/",
        street_opening.verify_ticket,
        name="street_opening_verify_ticket",
    ),
    path(
        "permits/<str:number>/street-opening/renewal/",
        street_opening.request_renewal,
        name="street_opening_request_renewal",
    ),
    path("permits/<str:number>/street-opening.pdf", street_opening.permit_pdf, name="street_opening_pdf"),
]

# Street opening field work: inspections, the permittee's notices, pavement, completion, defects (§ 303-4H, § 303-5)
from permits import views_field as field  # noqa: E402

urlpatterns += [
    path("field/", field.inspections, name="field_inspections"),
    path("permits/<str:number>/field/", field.permit_page, name="field_permit"),
    path("permits/<str:number>/field/inspect/<slug:kind>/", field.inspect, name="field_inspect"),
    path("permits/<str:number>/field/plan/", field.plan_work, name="field_plan"),
    path("permits/<str:number>/field/notice/", field.give_notice, name="field_notice"),
    path("permits/<str:number>/field/pavement/temporary/", field.temporary_pavement, name="field_temporary_pavement"),
    path("permits/<str:number>/field/pavement/permanent/", field.permanent_pavement, name="field_permanent_pavement"),
    path("permits/<str:number>/field/complete/", field.report_completion, name="field_complete"),
    path("permits/<str:number>/field/defects/new/", field.defect_notice, name="field_defect"),
    path("permits/<str:number>/field/defects/<int:pk>/repair/", field.village_repair, name="field_village_repair"),
    path(
        "permits/<str:number>/field/defects/<int:pk>/corrected/", field.defect_corrected, name="field_defect_corrected"
    ),
]
