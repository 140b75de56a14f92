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
