from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save


class PermitsConfig(AppConfig):
    name = "permits"
    verbose_name = "Permits"

    def ready(self):
        from permits.role_permissions import sync_role_permissions

        # After the last app's migrate (permits.role_permissions._is_last_app): on a fresh database the permit types'
        # apps get their permissions after this app does, and each staff role must get theirs too. Idempotent.
        post_migrate.connect(sync_role_permissions, dispatch_uid="theresa_sync_role_permissions")

        from permits import office_calendar
        from permits.models import OfficeClosure

        # A closure the clerk records counts at once in this process's business days (permits.office_calendar).
        post_save.connect(office_calendar.forget, sender=OfficeClosure, dispatch_uid="theresa_calendar_saved")
        post_delete.connect(office_calendar.forget, sender=OfficeClosure, dispatch_uid="theresa_calendar_deleted")
