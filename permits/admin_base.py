"""Base classes of the back office, shared by the core and every permit type's admin.

Records are read-only in the admin when their changes go through a service and its page; public records are never
deleted (Wis. Stat. § 19.21).
"""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html


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
