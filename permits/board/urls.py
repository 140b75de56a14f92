"""The Village Board's pages: the staff page, and the clerk's queue, meetings, votes, designations and members."""

from django.urls import path

from permits.board import views

app_name = "board"
urlpatterns = [
    path("board/", views.board, name="board"),
    path("board/queue/", views.queue, name="queue"),
    path("board/queue/add/", views.add_to_agenda, name="add_to_agenda"),
    path("board/meetings/", views.meetings, name="meetings"),
    path("board/meetings/<int:pk>/", views.meeting, name="meeting"),
    path("board/meetings/<int:pk>/packet.pdf", views.packet, name="packet"),
    path("board/meetings/<int:pk>/<slug:action>/", views.meeting_act, name="meeting_act"),
    path("board/items/<int:pk>/vote/", views.vote, name="vote"),
    path("board/designations/", views.designations, name="designations"),
    path("board/designations/<int:pk>/end/", views.end_designation, name="end_designation"),
    path("board/members/", views.members, name="members"),
    path("board/members/terms/<int:pk>/end/", views.end_term, name="end_term"),
]
