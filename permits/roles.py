"""Staff roles are Django groups (created by the permits migrations: the squashed 0001, then the Police Officer's
group by its own). One place to ask "may this user ...?"."""

from django.db import models


class Role(models.TextChoices):
    CLERK = "Clerk-Treasurer"
    DPW_DIRECTOR = "Director of Public Works"
    DPW_INSPECTOR = "DPW Inspector"
    BUILDING_INSPECTOR = "Building Inspector"
    POLICE_CHIEF = "Chief of Police"
    # A sworn officer of the Village police: "a law enforcement officer" of § 303-15H, and nothing else of the Chief's
    POLICE_OFFICER = "Police Officer"
    BOARD = "Village Board"
    PRESIDENT = "Village President"


STAFF_ROLES = tuple(Role)


def roles_of(user) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_theresa_roles", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._theresa_roles = cached
    return cached


def has_role(user, *roles: str) -> bool:
    """True when the user holds any of the roles (a superuser holds them all)."""
    if getattr(user, "is_superuser", False):
        return True
    return bool(roles_of(user) & set(roles))


def is_village_staff(user) -> bool:
    return has_role(user, *STAFF_ROLES)
