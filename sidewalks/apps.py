from django.apps import AppConfig
from django.db.models.signals import post_migrate


class SidewalksConfig(AppConfig):
    name = "sidewalks"
    verbose_name = "Sidewalks, snow and special charges"

    def ready(self):
        from permits.role_permissions import sync_role_permissions

        # The core syncs the staff roles' back-office permissions after the permits app migrates, before this app's
        # permissions exist on a fresh database; syncing again after this app gives the roles this app's models too.
        post_migrate.connect(sync_role_permissions, sender=self, dispatch_uid="sidewalks_sync_role_permissions")
