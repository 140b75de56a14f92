app_name = "obstructions"
urlpatterns: list = []
from django.urls import include, path  # noqa: E402  (the registers' pages, appended)

urlpatterns += [path("registers/", include("obstructions.registers.urls"))]
