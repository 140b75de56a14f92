"""The clerk's start page is the back office's index (templates/admin/index.html): its work list and its records
grouped by task come from permits.workspace.sources."""

from django import template
from django.utils import timezone

from permits.workspace import sources as workspace

register = template.Library()


@register.simple_tag(takes_context=True)
def work_boxes(context):
    return workspace.work_for(context["request"].user, today=timezone.localdate())


@register.simple_tag(takes_context=True)
def recent_actions(context):
    return workspace.recent_actions(context["request"].user)


@register.filter
def records_by_task(app_list):
    return workspace.grouped_records(app_list or [])
