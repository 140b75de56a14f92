from django.apps import AppConfig


class ObstructionsConfig(AppConfig):
    name = "obstructions"
    verbose_name = "Obstructions and street privileges"
