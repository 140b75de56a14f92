"""Base classes of the back office, shared by the core and every permit type's admin.

Records are read-only in the admin when their changes go through a service and its page; public records are never
deleted (Wis. Stat. § 19.21).
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin


class NoDeleteAdmin(admin.ModelAdmin):
    def has_delete_permission(self, request, obj=None):
        return False  # public records (Wis. Stat. § 19.21)


class ReadOnlyAdmin(NoDeleteAdmin):
    # The list links to the page where the work is done (build and certify, log clearing, record a payment).
    work_page: tuple[str, str] | None = None

    def changelist_view(self, request, extra_context=None):
        if self.work_page and request.method == "GET":
            url_name, label = self.work_page
            messages.info(
                request, format_html('Records are read-only here: <a href="{}">{}</a>.', reverse(url_name), label)
            )
        return super().changelist_view(request, extra_context)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ReadOnlyHistoryMixin:
    """simple_history's history pages, read-only: a past version is shown, never saved back.

    simple_history's revert form (`POST /admin/<app>/<model>/<pk>/history/<id>/`) saves whatever is posted for
    anyone who may view the record, read-only fields and status included; SIMPLE_HISTORY_REVERT_DISABLED only hides
    its button. A revert is not a service: it has no rules, no authority and no timeline entry (OWASP ASVS V4.1.3,
    V4.2.1; the record's history is a public record, Wis. Stat. § 19.21). So every method but GET/HEAD is refused with
    403 and stores nothing, and the version's fields are shown as text.
    """

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method not in ("GET", "HEAD"):
            raise PermissionDenied(
                "Field history is read-only: a past version cannot be restored from the back office (OWASP ASVS "
                "V4.1.3). Make the change through the record's own page, which applies its rules."
            )
        request._theresa_history_form = True
        return super().history_form_view(request, object_id, version_id, extra_context)

    def revert_disabled(self, request, obj=None):
        return True

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if getattr(request, "_theresa_history_form", False):
            opts = self.model._meta
            readonly += [f.name for f in [*opts.fields, *opts.many_to_many] if f.editable and f.name not in readonly]
        return readonly


class HistoryAdmin(ReadOnlyHistoryMixin, SimpleHistoryAdmin):
    """The base of every admin of a model with field history (simple_history)."""


def lock_history_forms(site) -> None:
    """Make every registered SimpleHistoryAdmin's history form read-only (ReadOnlyHistoryMixin), including those of
    permit types that subclass SimpleHistoryAdmin directly. Called once every admin module is imported."""
    for model_admin in site._registry.values():
        cls = type(model_admin)
        if isinstance(model_admin, SimpleHistoryAdmin) and not isinstance(model_admin, ReadOnlyHistoryMixin):
            model_admin.__class__ = type(cls.__name__, (ReadOnlyHistoryMixin, cls), {"__module__": cls.__module__})
