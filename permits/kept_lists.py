"""The parts of the two permit lists (the office list and My applications) that are the same from one request to the
next, kept in the shared cache until a table they read is written.

django-cachalot records, per database table, the moment a write last touched it (its SQL-result cache is off:
CACHALOT_ENABLED = False, only the invalidation moments are kept). A kept part's key holds those moments for the
tables it reads, so a write elsewhere (a notice, a job run, a login) keeps it, and any write to a permit, a payment,
a refund, a street, a parcel's owners or a membership shows on the next request. Inside a transaction cachalot holds
the moments back until the commit, so a rolled-back write never shows and a committed one always does.

Kept only where the cache is shared by every process (production mode: Redis). In embedded mode the cache is the
server's own memory, and a `manage.py` command in another process would write without the server hearing of it:
PERMIT_LIST_CACHE_SECONDS is 0 there (built per request). The timeout also bounds how long a part could outlive a
moment that the cache evicted first. settings.CACHALOT_ONLY_CACHABLE_TABLES names these tables (a test checks).
"""

from __future__ import annotations

from collections.abc import Callable

from cachalot.api import get_last_invalidation
from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string

from permits.models import InformationRequest, Membership, Organization, Parcel, Payment, Permit, Street
from permits.online_payments.models import Refund

# What a list's rows read (permits.selectors.permits_visible_to, list_rows and with_paid_total): the permits with
# their street, the payments and refunds behind the balance due, who belongs to which organization, and the
# requests for information (a status change that ends an "Answered" flag writes the permit too).
ROW_TABLES = (Permit, Street, Payment, Refund, Membership, InformationRequest)
# What My applications' links read (templates/permits/_my_links.html): the user's parcels and organizations.
LINK_TABLES = (Parcel, Parcel.owners.through, Organization, Membership)
TABLE_TEMPLATE = "permits/_permit_table.html"


def kept_tables() -> set[str]:
    return {model._meta.db_table for model in (*ROW_TABLES, *LINK_TABLES)}


def page_number(raw) -> int:
    """The page asked for, as the paginator reads it (a non-number is page 1; 0, a negative or a number past the end
    is the last page), bounded so that a typed number cannot fill the cache with keys."""
    try:
        number = int(raw or 1)
    except (TypeError, ValueError):
        return 1
    return max(0, min(number, 10**6))


def table_part(build_page: Callable, **context) -> Callable[[], str]:
    """A part that renders the permit table (rows and pagination) of the page `build_page()` reads."""
    return lambda: render_to_string(TABLE_TEMPLATE, {**context, "page": build_page()})


def kept(tables, parts: dict[tuple, Callable[[], str]]) -> list[str]:
    """Each part's HTML, in order: kept under its key and the last write to `tables`, or rendered by its callable
    (then kept). One cache read for the moments and one for the parts, however many parts."""
    seconds = settings.PERMIT_LIST_CACHE_SECONDS
    if not seconds:
        return [render() for render in parts.values()]
    moment = get_last_invalidation(*tables)
    keys = {key: "kept-list:" + ":".join(map(str, (*key, moment))) for key in parts}
    found = cache.get_many(keys.values())
    missing = {}
    html = []
    for key, render in parts.items():
        part = found.get(keys[key])
        if part is None:
            part = missing[keys[key]] = render()
        html.append(part)
    if missing:
        cache.set_many(missing, seconds)
    return html
