"""The enforcement cases (§ 303-6, 9, 12, 13, 14) in the staff search box (permits.workspace.search)."""

from permits.roles import STAFF_ROLES
from permits.workspace.search import Hit, SearchSource, numbered_hit


def _cases():
    from obstructions.models import Case

    return Case.objects.select_related("parcel").order_by("-opened_at", "-pk")


def _case_hit(case) -> Hit:
    return numbered_hit(case, case.get_kind_display(), case.reported_address)


SEARCH_SOURCES = (
    SearchSource(
        "enforcement_cases",
        "Enforcement cases",
        STAFF_ROLES,
        _cases,
        identifiers=("number", "parcel__tax_key"),
        words=("reported_address", "what", "parcel__owner_name"),
        row=_case_hit,
    ),
)
