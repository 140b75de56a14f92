from django.urls import include, path

from obstructions import views

app_name = "obstructions"
urlpatterns = [
    path("report/", views.complaint, name="complaint"),
    path("report/thanks/", views.complaint_thanks, name="complaint_thanks"),
    path("cases/", views.cases, name="cases"),
    path("cases/new/", views.open_case, name="open_case"),
    path("cases/<str:number>/", views.case_page, name="case"),
    path("cases/<str:number>/serve/", views.case_serve, name="case_serve"),
    path("cases/<str:number>/reinspect/", views.case_reinspect, name="case_reinspect"),
    path("cases/<str:number>/remove/", views.case_remove, name="case_remove"),
    path("cases/<str:number>/refer/", views.case_refer, name="case_refer"),
    path("cases/<str:number>/photo/", views.case_photo, name="case_photo"),
    path("cases/<str:number>/photo/<int:pk>/", views.case_photo_file, name="case_photo_file"),
    path("cases/<str:number>/close/", views.case_close, name="case_close"),
    path("cases/<str:number>/match/", views.case_match, name="case_match"),
    path("numbers/", views.numbers, name="numbers"),
    path("materials/", views.materials_authorizations, name="materials"),
    path("registers/", include("obstructions.registers.urls")),
]
