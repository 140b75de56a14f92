"""The street use panel's questions (permits.street_use): the petition's count, and who may act on the permit."""

from django import template

from permits.roles import Role, has_role

register = template.Library()


@register.simple_tag
def petition_count(street_use):
    from permits.street_use.services import petition_count as count

    return count(street_use)


@register.simple_tag
def street_use_roles(user) -> dict:
    return {
        "clerk": has_role(user, Role.CLERK),
        "terminator": has_role(user, Role.PRESIDENT, Role.POLICE_CHIEF),
    }
