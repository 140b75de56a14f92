"""Mixins for a permit type's admin classes built on other bases (SimpleHistoryAdmin, inlines, a plain ModelAdmin):
public records are never deleted; read-only records change only through their services and pages."""


class NoDelete:
    def has_delete_permission(self, request, obj=None):
        return False  # public records (Wis. Stat. § 19.21)


class ReadOnly(NoDelete):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class AddedThroughService:
    """A new record is stored by its service (its rules and its authority): `create(request, obj)` calls it and returns
    the stored record. A recorded one is saved as the admin edits it."""

    def create(self, request, obj):
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        obj.pk = self.create(request, obj).pk
