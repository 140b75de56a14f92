"""/account/...: the signed-in person's own pages (permits/accounts/views.py), in the permits: namespace."""

from django.urls import path

from permits.accounts import views

urlpatterns = [
    path("tokens/", views.tokens, name="tokens"),
    path("second-factor/", views.enrolment, name="enrolment"),
    path("second-factor/<str:uidb64>/<str:token>/", views.enrolment_accept, name="enrolment_accept"),
    path("invitations/<int:pk>/revoke/", views.invitation_revoke, name="invitation_revoke"),
    path("invitations/<str:signed>/", views.invitation_accept, name="invitation_accept"),
]
