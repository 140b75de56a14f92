from django.urls import include, path

from permits import kinds, lookup, views, village_office
from permits.applicant import parcel_link_views
from permits.applicant import views as applicant_views
from permits.dashboard import views as dashboard_views
from permits.inspection_requests import views as inspection_views
from permits.rules_page import rules_page
from permits.workspace import letters_to_mail
from permits.workspace import views as workspace_views

app_name = "permits"
urlpatterns = [
    path("start/", views.start, name="start"),
    path("apply/", views.apply, name="apply"),
    path("permits/", views.my_applications, name="my_applications"),
    path("office/", views.office, name="office"),
    path("permits/<str:number>/", views.detail, name="detail"),
    path("permits/<str:number>/upload/", views.upload, name="upload"),
    path("permits/<str:number>/documents/<int:pk>/", views.document, name="document"),
    path("permits/<str:number>/documents/<int:pk>/review/", views.review_document, name="review_document"),
    path("receipts/<str:receipt_number>.pdf", views.receipt_pdf, name="receipt_pdf"),
    path("status/<uuid:token>/", views.public_status, name="public_status"),
    path("rules/", rules_page, name="rules"),
    path("lookup/", lookup.lookup_page, name="lookup"),
    path("office/village-office/", village_office.village_office_page, name="village_office"),
    path("office/key-figures/", dashboard_views.key_figures_page, name="key_figures"),
    # Inspection requests (permits/inspection_requests): the DPW's times, the permittee's requests.
    path("office/inspection-times/", inspection_views.inspection_times, name="inspection_times"),
    path("permits/<str:number>/inspections/", inspection_views.request_inspection, name="request_inspection"),
    path("permits/<str:number>/inspections/<int:pk>/", inspection_views.cancel_inspection, name="cancel_inspection"),
    path("organizations/<int:pk>/", views.organization, name="organization"),
    path("account/", include("permits.accounts.urls")),
    # Written notices by mail (permits/letters.py): print, mail, record the mailing date.
    path("office/letters/", letters_to_mail.letters_page, name="letters"),
    path("office/letters/batch.pdf", letters_to_mail.letters_batch_pdf, name="letters_batch_pdf"),
    path("office/letters/<int:pk>.pdf", letters_to_mail.letter_pdf, name="letter_pdf"),
    # The applicant's side (permits/applicant/views.py, permits/applicant/parcel_link_views.py)
    path("permits/<str:number>/withdraw/", views.withdraw, name="withdraw"),
    path("permits/<str:number>/request-information/", views.request_information, name="request_information"),
    path("permits/<str:number>/answer-information/", views.answer_information, name="answer_information"),
    path("account/notices/", applicant_views.notice_preferences, name="notice_preferences"),
    path("drafts/<int:pk>/delete/", applicant_views.delete_draft, name="delete_draft"),
    path("drafts/<int:pk>/documents/<int:document>/", applicant_views.draft_document, name="draft_document"),
    path("my-property/", parcel_link_views.my_property, name="my_property"),
    path("my-property/link/", parcel_link_views.request_link, name="parcel_link_request"),
    path("office/parcel-links/", parcel_link_views.link_requests, name="parcel_link_requests"),
    path("office/parcel-links/<int:pk>/proof/", parcel_link_views.proof, name="parcel_link_proof"),
    path("office/parcel-links/<int:pk>/<slug:decision>/", parcel_link_views.decide, name="parcel_link_decide"),
    # Each role's start page and the staff search box (permits/workspace/sources.py, permits/workspace/search.py).
    path("office/today/", workspace_views.workspace_page, name="workspace"),
    path("office/search/", workspace_views.search_page, name="search"),
]

# Each permit type's pages, in this namespace (permits:street_opening_apply ...), from the registry.
urlpatterns += [pattern for permit_type in kinds.online_types() for pattern in permit_type.urls]
