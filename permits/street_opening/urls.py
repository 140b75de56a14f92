"""Street opening pages (§ 303-4, § 303-5), mounted in the permits namespace by the registry (permits.kinds)."""

from django.urls import path

from permits.street_opening import views as street_opening
from permits.street_opening.field import views as field

urlpatterns = [
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
    path("street-openings/held-approvals/", street_opening.held_approvals, name="street_opening_held_approvals"),
    path(
        "permits/<str:number>/street-opening/renewal/decide/",
        street_opening.decide_renewal,
        name="street_opening_decide_renewal",
    ),
    path(
        "permits/<str:number>/street-opening/insurance/",
        street_opening.renew_insurance,
        name="street_opening_renew_insurance",
    ),
    path("street-openings/annual-bonds/", street_opening.annual_bonds, name="street_opening_annual_bonds"),
    path("permits/<str:number>/street-opening.pdf", street_opening.permit_pdf, name="street_opening_pdf"),
]

# Street opening field work: inspections, the permittee's notices, pavement, completion, defects (§ 303-4H, § 303-5)

urlpatterns += [
    path("field/", field.inspections, name="field_inspections"),
    path("permits/<str:number>/field/", field.permit_page, name="field_permit"),
    path("permits/<str:number>/field/inspect/<slug:kind>/", field.inspect, name="field_inspect"),
    path("permits/<str:number>/field/plan/", field.plan_work, name="field_plan"),
    path("permits/<str:number>/field/notice/", field.give_notice, name="field_notice"),
    path("permits/<str:number>/field/pavement/temporary/", field.temporary_pavement, name="field_temporary_pavement"),
    path("permits/<str:number>/field/pavement/permanent/", field.permanent_pavement, name="field_permanent_pavement"),
    path("permits/<str:number>/field/cover-hold/", field.covering_hold, name="field_covering_hold"),
    path("permits/<str:number>/field/expenses/", field.village_expenses, name="field_village_expenses"),
    path("permits/<str:number>/field/complete/", field.report_completion, name="field_complete"),
    path("permits/<str:number>/field/complete/confirm/", field.confirm_completion, name="field_confirm_completion"),
    path("permits/<str:number>/field/defects/new/", field.defect_notice, name="field_defect"),
    path("permits/<str:number>/field/defects/<int:pk>/repair/", field.village_repair, name="field_village_repair"),
    path(
        "permits/<str:number>/field/defects/<int:pk>/corrected/", field.defect_corrected, name="field_defect_corrected"
    ),
]
