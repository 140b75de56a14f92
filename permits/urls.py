from django.urls import include, path

from permits import kinds, views

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
]

# Each permit type's pages, in this namespace (permits:street_opening_apply ...), from the registry.
urlpatterns += [pattern for permit_type in kinds.online_types() for pattern in permit_type.urls]
