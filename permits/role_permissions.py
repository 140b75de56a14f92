"""Back-office (admin) permissions of each staff role, synced after every migrate.

Permissions exist only after post_migrate creates them, so the groups get theirs here rather than in the data
migration that creates the groups. Workflow authority (who may approve, issue, revoke) is in workflow.AUTHORITY.
"""

from permits.roles import Role

APPS = ("permits", "sidewalks", "obstructions")
# Public records are never deleted (Wis. Stat. § 19.21); only these reference tables may lose a row.
DELETABLE = {"delete_feeitem", "delete_membership"}
EDITORS = {Role.CLERK, Role.DPW_DIRECTOR}


def sync_role_permissions(sender=None, **kwargs):
    from django.contrib.auth.models import Group, Permission

    perms = list(Permission.objects.filter(content_type__app_label__in=APPS).select_related("content_type"))
    for role in Role:
        group, _ = Group.objects.get_or_create(name=role.value)
        if role in EDITORS:
            wanted = [p for p in perms if not p.codename.startswith("delete_") or p.codename in DELETABLE]
        else:
            wanted = [p for p in perms if p.codename.startswith("view_")]
        group.permissions.set(wanted)
