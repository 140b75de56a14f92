"""Role questions for templates: `{% has_role request.user "Clerk-Treasurer" "Village President" as may %}`."""

from django import template

from permits.roles import has_role as _has_role

register = template.Library()


@register.simple_tag(name="has_role")
def has_role(user, *roles) -> bool:
    return _has_role(user, *roles)
