"""Template helpers of the reports (permits.reports): who sees the Reports link, and how a report's cell reads."""

from django import template

from permits.reports import rules
from permits.roles import roles_of

register = template.Library()


@register.filter
def may_read_reports(user) -> bool:
    """True when `user` may read at least one report (the navigation's Reports link)."""
    return bool(rules.readable_reports(roles_of(user), superuser=getattr(user, "is_superuser", False)))


@register.filter
def cell(value) -> str:
    from permits.reports.tables import format_cell

    return format_cell(value)
