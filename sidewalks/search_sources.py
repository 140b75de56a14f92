"""Snow and ice (§ 303-8) and rubbish (§ 303-2) cases in the staff search box (permits.workspace.search)."""

from permits.roles import STAFF_ROLES
from permits.workspace.search import Hit, SearchSource, numbered_hit


def _snow_cases():
    from sidewalks.models import SnowCase

    return SnowCase.objects.select_related("parcel").order_by("-reported_at", "-pk")


def _snow_hit(case) -> Hit:
    return numbered_hit(case, "snow and ice", case.reported_address)


def _rubbish_cases():
    from sidewalks.models import RubbishCase

    return RubbishCase.objects.select_related("parcel").order_by("-served_at", "-pk")


def _rubbish_hit(case) -> Hit:
    return numbered_hit(case, "rubbish", case.parcel.site_address)


SEARCH_SOURCES = (
    SearchSource(
        "snow_cases",
        "Snow and ice cases",
        STAFF_ROLES,
        _snow_cases,
        identifiers=("number", "parcel__tax_key"),
        words=("reported_address", "parcel__owner_name"),
        row=_snow_hit,
    ),
    SearchSource(
        "rubbish_cases",
        "Rubbish cases",
        STAFF_ROLES,
        _rubbish_cases,
        identifiers=("number", "parcel__tax_key"),
        words=("parcel__site_address", "parcel__owner_name", "served_to"),
        row=_rubbish_hit,
    ),
)
