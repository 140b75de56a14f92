from django.urls import include, path

from permits import kinds, views, views_letters, views_workspace

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
    # Each role's start page and the staff search box (issue 15, permits/workspace.py, permits/search.py).
    path("office/today/", views_workspace.workspace_page, name="workspace"),
    path("office/search/", views_workspace.search_page, name="search"),
]

# Each permit type's pages, in this namespace (permits:street_opening_apply ...), from the registry.
urlpatterns += [pattern for permit_type in kinds.online_types() for pattern in permit_type.urls]
