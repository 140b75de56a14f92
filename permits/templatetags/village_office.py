"""`{% village_office %}`: the Village office's address, phone, email and hours (permits.village_office), on every page
that sends a person to the office."""

from django import template

from permits.village_office import office_facts

register = template.Library()


@register.inclusion_tag("permits/_village_office.html")
def village_office(heading: str = "The Village office"):
    return {"office": office_facts(), "heading": heading}
