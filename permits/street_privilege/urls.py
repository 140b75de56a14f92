"""Street privilege pages (§ 303-7), mounted in the permits namespace by the registry (permits.kinds)."""

from django.urls import path

from permits.street_privilege import views

urlpatterns = [
    path("street-privileges/apply/", views.apply, name="street_privilege_apply"),
    path("street-privileges/", views.queue, name="street_privilege_queue"),
    path("permits/<str:number>/street-privilege/manage/", views.manage, name="street_privilege_manage"),
    path("permits/<str:number>/street-privilege/act/<slug:action>/", views.act, name="street_privilege_act"),
    path("permits/<str:number>/street-privilege/obstructions/", views.obstruction, name="street_privilege_obstruction"),
    path(
        "permits/<str:number>/street-privilege/obstructions/<int:pk>/removed/<slug:by_whom>/",
        views.obstruction_removed,
        name="street_privilege_obstruction_removed",
    ),
    path("permits/<str:number>/street-privilege/waiver/", views.request_waiver, name="street_privilege_waiver"),
    path("permits/<str:number>/street-privilege/done/", views.report_done, name="street_privilege_done"),
    path("permits/<str:number>/street-privilege.pdf", views.permit_pdf, name="street_privilege_pdf"),
]
