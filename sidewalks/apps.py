from django.apps import AppConfig


class SidewalksConfig(AppConfig):
    name = "sidewalks"
    verbose_name = "Sidewalks, snow and special charges"
