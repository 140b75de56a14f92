from django.apps import AppConfig
from django.db.models.signals import post_migrate


class PermitsConfig(AppConfig):
    name = "permits"
    verbose_name = "Permits"

    def ready(self):
        from .role_permissions import sync_role_permissions

        post_migrate.connect(sync_role_permissions, sender=self)
