"""The Village Board's staff page."""

from django.urls import path

from permits.board import views

app_name = "board"
urlpatterns = [path("board/", views.board, name="board")]
