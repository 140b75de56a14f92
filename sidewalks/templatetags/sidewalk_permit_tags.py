"""{% sidewalk_stages permit as stages %}: each inspection stage with its latest inspection (one query), so the
sidewalk part of the permit page renders on the core permit page and on the sidewalk page alike."""

from django import template

from sidewalks.models import SidewalkInspection
from sidewalks.services import latest_inspections

register = template.Library()


@register.simple_tag
def sidewalk_stages(permit):
    latest = latest_inspections(permit)
    return [(stage, latest.get(stage.value)) for stage in SidewalkInspection.Stage]


@register.filter
def earliest_work_date(issued_on):
    """§ 303-3C: the first day work may start under a permit issued on `issued_on`."""
    from sidewalks.rules import earliest_work_date as rule

    return rule(issued_on) if issued_on else None
