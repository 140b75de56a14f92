"""The staff search box: permits, parcels, people, companies, charges and cases, by number, address, tax
key, name or company, from every staff page.

A search source is one plain record: a title, the roles that may search it, the fields it matches and how a found
record is shown. The core's sources are below; a part adds its own in a `search_sources.py` module with a tuple
`SEARCH_SOURCES`, found through permits.kinds.discover. Identifiers (numbers, tax
keys, emails) match anywhere in them (icontains); words (names, addresses, descriptions) match word by word in
production, each word typed the start of a word of one of the fields (PostgreSQL), by icontains on SQLite. Each table
is searched through its trigram indexes and matched by id (permits.text_search). Every source is a few
queries (its tables' ids, a capped count and a page), however many records it finds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.http import urlencode

from permits import kinds
from permits.roles import STAFF_ROLES, Role, has_role
from permits.text_search import SEARCH_IDS_INLINE, any_of, ids_fetched_together, remembered_ids

MAX_QUERY = 100  # characters kept of what was typed (permits.input_limits keeps every text input bounded)
FEW_IDS = SEARCH_IDS_INLINE  # on the page that searches every source at once: see search_all
ROWS_PER_SOURCE = 5  # on the page that searches every source at once; a source's own page is paginated


@dataclass(frozen=True)
class Hit:
    label: str
    detail: str
    url: str


@dataclass(frozen=True)
class SearchSource:
    key: str  # "permits": the ?in= of its own page
    title: str  # "Permits"
    roles: tuple[str, ...]
    records: Callable[[], QuerySet]  # () -> every record, in the order results are listed
    identifiers: tuple[str, ...]  # fields matched anywhere (icontains): numbers, tax keys, emails
    words: tuple[str, ...]  # fields matched word by word: names, addresses
    row: Callable[[Any], Hit]

    def find(self, q: str) -> QuerySet:
        return matching(self.records(), q, identifiers=self.identifiers, words=self.words)


def numbered_hit(record, what: str, where: str) -> Hit:
    """A numbered record with a status (a charge, a case): its number and what it is, then its status and where."""
    return Hit(f"{record.number}: {what}", f"{record.get_status_display()}, {where}", record.get_absolute_url())


def clean_query(raw: str) -> str:
    """What was typed, trimmed, NUL-free and bounded (OWASP ASVS V5.1.4)."""
    return " ".join(raw.replace("\x00", "").split())[:MAX_QUERY]


def _typed_words(q: str) -> list[str]:
    """Each word typed, letters and digits only (so nothing typed is regular-expression syntax)."""
    return re.findall(r"\w+", q)


def _begins_a_word(word: str) -> dict[str, str]:
    """`word` begins a word of `field`, case-insensitive: one condition the field's trigram index finds and the
    planner estimates (permits.text_search.WordStarts)."""
    return {"word_starts": word}


def matching(qs: QuerySet, q: str, *, identifiers: tuple[str, ...], words: tuple[str, ...]) -> QuerySet:
    tests = [(name, {"icontains": q}) for name in identifiers]
    if connection.vendor != "postgresql":
        return qs.filter(any_of(qs.model, tests + [(name, {"icontains": q}) for name in words]))
    # Each word typed as a prefix, all of them required, each in any of the word fields ("kram car" finds Carol
    # Kramer), as the full-text prefix query did; but each table searched through its trigram indexes and matched by
    # id (permits.text_search), not a tsvector computed over every row and its joins (1 s at 100,000 permits).
    typed = _typed_words(q) if words else []
    if len(typed) == 1:  # the usual case: one set of queries for identifiers and words alike
        return qs.filter(any_of(qs.model, tests + [(name, _begins_a_word(typed[0])) for name in words]))
    condition = any_of(qs.model, tests)
    if typed:
        every_word = Q()
        for word in typed:
            every_word &= any_of(qs.model, [(name, _begins_a_word(word)) for name in words])
        condition |= every_word
    return qs.filter(condition)


def _permits():
    from permits.models import Permit, Status

    return Permit.objects.exclude(status=Status.DRAFT).select_related("street", "organization").order_by("-pk")


def _permit_hit(permit) -> Hit:
    where = " ".join(filter(None, [permit.street.name if permit.street_id else "", permit.location_description]))
    who = permit.organization.name if permit.organization_id else ""
    return Hit(
        f"{permit.number}: {permit.get_kind_display()}",
        ", ".join(filter(None, [permit.get_status_display(), where, who])),
        permit.get_absolute_url(),
    )


def _parcels():
    from permits.models import Parcel

    return Parcel.objects.order_by("tax_key")


def _parcel_hit(parcel) -> Hit:
    return Hit(
        f"{parcel.tax_key}: {parcel.site_address}",
        parcel.owner_name,
        reverse("ledger:parcel_charges", args=[parcel.tax_key]),
    )


def _people():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(is_active=True).order_by("last_name", "first_name", "pk")


def _person_hit(user) -> Hit:
    name = user.get_full_name() or user.email or user.username
    # Staff find a person's work through their permits (the back office's user records are the clerk's).
    url = reverse("permits:search") + "?" + urlencode({"q": user.email or user.username, "in": "permits"})
    return Hit(name, user.email, url)


def _companies():
    from permits.models import Organization

    return Organization.objects.order_by("name")


def _company_hit(org) -> Hit:
    url = reverse("permits:search") + "?" + urlencode({"q": org.name, "in": "permits"})
    return Hit(org.name, ", ".join(filter(None, [org.get_kind_display(), org.phone])), url)


def _charges():
    from permits.ledger.models import SpecialCharge

    return SpecialCharge.objects.select_related("parcel").order_by("-incurred_on", "-pk")


def _charge_hit(charge) -> Hit:
    return numbered_hit(charge, f"${charge.amount}", f"{charge.parcel.tax_key} {charge.parcel.site_address}")


CORE_SEARCH_SOURCES: tuple[SearchSource, ...] = (
    SearchSource(
        "permits",
        "Permits",
        STAFF_ROLES,
        _permits,
        identifiers=("number", "applicant__email", "parcel__tax_key"),
        words=(
            "location_description",
            "street__name",
            "applicant__first_name",
            "applicant__last_name",
            "organization__name",
            "parcel__site_address",
        ),
        row=_permit_hit,
    ),
    SearchSource(
        "parcels",
        "Parcels",
        STAFF_ROLES,
        _parcels,
        identifiers=("tax_key",),
        words=("site_address", "owner_name"),
        row=_parcel_hit,
    ),
    SearchSource(
        "people",
        "People",
        STAFF_ROLES,
        _people,
        identifiers=("email", "username"),
        words=("first_name", "last_name"),
        row=_person_hit,
    ),
    SearchSource(
        "companies",
        "Companies",
        STAFF_ROLES,
        _companies,
        identifiers=(),
        words=("name",),
        row=_company_hit,
    ),
    SearchSource(
        "charges",
        "Special charges",
        (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR, Role.POLICE_CHIEF)
        + (Role.BOARD, Role.PRESIDENT),
        _charges,
        identifiers=("number", "parcel__tax_key"),
        words=("parcel__site_address", "parcel__owner_name", "description"),
        row=_charge_hit,
    ),
)


@cache
def search_sources() -> tuple[SearchSource, ...]:
    """The core's sources, then each part's (`<part>.search_sources.SEARCH_SOURCES`)."""
    parts = [s for module in kinds.discover("search_sources") for s in module.SEARCH_SOURCES]
    return (*CORE_SEARCH_SOURCES, *parts)


def sources_for(user) -> list[SearchSource]:
    return [s for s in search_sources() if has_role(user, *s.roles)]


def source_named(key: str) -> SearchSource | None:
    return next((s for s in search_sources() if s.key == key), None)


def querystring(q: str, source: SearchSource) -> str:
    return urlencode({"q": q, "in": source.key})


def search_all(user, q: str) -> list[tuple[SearchSource, str, list[Hit], str, bool]]:
    """Every source `user` may search: how many records match (the number when it is at most ROWS_PER_SOURCE, else
    "more than 5"), the first few, the link to all of them (their own page counts and pages them) and whether there
    are more than the few. One query per source, and one for the ids of every source's tables: no count over the
    matches."""
    sources = sources_for(user)
    # The sources share their parcels: each way of searching them runs once; a table matching more than
    # FEW_IDS rows is matched by its subquery (each source lists five rows, found quickly when so many match).
    with remembered_ids(inline=FEW_IDS):
        with ids_fetched_together():  # every source's id lookups, in one query
            for source in sources:
                source.find(q)
        return [_group(source, q) for source in sources]


def _group(source: SearchSource, q: str) -> tuple[SearchSource, str, list[Hit], str, bool]:
    first = list(source.find(q)[: ROWS_PER_SOURCE + 1])
    more = len(first) > ROWS_PER_SOURCE
    label = f"more than {ROWS_PER_SOURCE}" if more else str(len(first))
    url = reverse("permits:search") + "?" + querystring(q, source)
    return source, label, [source.row(r) for r in first[:ROWS_PER_SOURCE]], url, more
