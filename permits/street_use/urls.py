"""Street use pages (§ 303-15), mounted in the permits namespace by the registry (permits.kinds)."""

from django.urls import path

from permits.street_use import views

urlpatterns = [
    path("street-use/apply/", views.apply, name="street_use_apply"),
    path("street-use/petition/<uuid:token>/", views.petition, name="street_use_petition"),
    path("street-use/consent/<str:ref>/", views.consent, name="street_use_consent"),
    path("street-use/in-progress/", views.in_progress, name="street_use_in_progress"),
    path("permits/<str:number>/street-use/manage/", views.manage, name="street_use_manage"),
    path("permits/<str:number>/street-use/act/<slug:action>/", views.act, name="street_use_act"),
    path("permits/<str:number>/street-use/terminate/", views.terminate, name="street_use_terminate"),
    path("permits/<str:number>/street-use.pdf", views.permit_pdf, name="street_use_pdf"),
]
