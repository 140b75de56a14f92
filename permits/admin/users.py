"""People in the back office: Django's own user admin, with the one action that starts a staff member's second
factor (permits/accounts/enrolment.py: emailed one-time link, never the password alone)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError

from permits.accounts.enrolment import invite_to_enrol
from permits.errors import violations_of

User = get_user_model()


@admin.action(description="Email a second-factor enrolment link (staff)", permissions=["change"])
def send_enrolment_link(modeladmin, request, queryset):
    sent = 0
    for user in queryset:
        try:
            invite_to_enrol(user=user, by=request.user)
        except ValidationError as error:
            for violation in violations_of(error):
                modeladmin.message_user(request, violation.message, messages.ERROR)
        else:
            sent += 1
    if sent:
        modeladmin.message_user(request, f"Enrolment link emailed to {sent} staff member(s).", messages.SUCCESS)


if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class VillageUserAdmin(UserAdmin):
    actions = [send_enrolment_link]
