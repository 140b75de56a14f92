"""/account/...: the signed-in person's own pages (permits/views_account.py), in the permits: namespace."""

from django.urls import path

from permits import views_account

urlpatterns = [
    path("tokens/", views_account.tokens, name="tokens"),
    path("invitations/<int:pk>/revoke/", views_account.invitation_revoke, name="invitation_revoke"),
    path("invitations/<str:signed>/", views_account.invitation_accept, name="invitation_accept"),
]
