from django.urls import include, path

from permits import kinds, views, views_applicant, views_letters, views_parcel_links, views_workspace

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
    path("account/", include("permits.urls_account")),
    # Written notices by mail (permits/letters.py): print, mail, record the mailing date.
    path("office/letters/", views_letters.letters_page, name="letters"),
    path("office/letters/batch.pdf", views_letters.letters_batch_pdf, name="letters_batch_pdf"),
    path("office/letters/<int:pk>.pdf", views_letters.letter_pdf, name="letter_pdf"),
    # The applicant's side (permits/views_applicant.py, permits/views_parcel_links.py)
    path("permits/<str:number>/withdraw/", views.withdraw, name="withdraw"),
    path("permits/<str:number>/request-information/", views.request_information, name="request_information"),
    path("account/notices/", views_applicant.notice_preferences, name="notice_preferences"),
    path("drafts/<int:pk>/delete/", views_applicant.delete_draft, name="delete_draft"),
    path("my-property/", views_parcel_links.my_property, name="my_property"),
    path("my-property/link/", views_parcel_links.request_link, name="parcel_link_request"),
    path("office/parcel-links/", views_parcel_links.link_requests, name="parcel_link_requests"),
    path("office/parcel-links/<int:pk>/proof/", views_parcel_links.proof, name="parcel_link_proof"),
    path("office/parcel-links/<int:pk>/<slug:decision>/", views_parcel_links.decide, name="parcel_link_decide"),
    # Each role's start page and the staff search box (permits/workspace.py, permits/search.py).
    path("office/today/", views_workspace.workspace_page, name="workspace"),
    path("office/search/", views_workspace.search_page, name="search"),
]

# Each permit type's pages, in this namespace (permits:street_opening_apply ...), from the registry.
urlpatterns += [pattern for permit_type in kinds.online_types() for pattern in permit_type.urls]
