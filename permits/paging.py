"""Every list pages with a page cap: the page count is counted over at most `max_pages` pages of rows,
and a deeper page is the last capped one, so neither the count nor the OFFSET grows with the table. Past the cap the
list says so and asks for a search or a filter (each list has them); the records are all in the CSV and the admin.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.utils.functional import cached_property
from rest_framework.pagination import PageNumberPagination

PAGE_SIZE = 25  # the rows on a page of every list (the API's pages: REST_FRAMEWORK["PAGE_SIZE"])
MAX_PAGES = 40
# A search's pages: its first four, then more words or a filter. A common surname matches a share of every parcel, so
# counting all its matches (up to MAX_PAGES pages) grew with the data, and no clerk reads past the fourth page of one.
SEARCH_PAGES = 4
FEW_KEYS = 250  # a capped list of at most this many rows reads its keys at once (page_keys_first)


class CappedPaginator(Paginator):
    def __init__(self, object_list, per_page, *args, max_pages: int | None = MAX_PAGES, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.max_pages = max_pages
        self.capped = False

    @cached_property
    def count(self) -> int:
        if self.max_pages is None:
            return super().count
        limit = self.per_page * self.max_pages
        if hasattr(self.object_list, "query"):
            # Count the primary keys of the first `limit + 1` rows only: no annotation computed, no whole-table count.
            found = self.object_list.order_by().values("pk")[: limit + 1].count()
        else:
            found = len(self.object_list)
        self.capped = found > limit
        return min(found, limit)


def page_of(request, object_list, *, per_page: int | None = None, param: str = "page", **kwargs):
    """The page of `object_list` that the request's `?page=` asks for (the last one past the end), PAGE_SIZE rows,
    capped at MAX_PAGES pages unless `max_pages` says otherwise."""
    return CappedPaginator(object_list, per_page or PAGE_SIZE, **kwargs).get_page(request.GET.get(param))


class CappedPageNumberPagination(PageNumberPagination):
    """The API's pages, capped the same way: `count` is at most 40 pages' worth (then filter or search)."""

    django_paginator_class = CappedPaginator


def rows_in_key_order(queryset, keys) -> list:
    """The rows of `queryset` with these primary keys, in the keys' order (the second step of a keys-first page)."""
    rows = queryset.order_by().in_bulk(list(keys))
    return [rows[pk] for pk in keys if pk in rows]


def page_keys_first(queryset, number, *, per_page: int | None = None, rows=None, **kwargs):
    """A capped page read in two steps: the page's primary keys first (the OFFSET walks the ordering's index and
    nothing else), then those rows with their joins, annotations and prefetches. The rows a deep page skips are never
    joined nor annotated (else a paid-total subquery runs for each of them).

    `rows`: where the second step reads the page's rows, when `queryset` is `rows` filtered further (a search): the
    keys already passed the filter, so it is not planned and run a third time (a search's condition can be thousands
    of ids long)."""
    per_page = per_page or PAGE_SIZE
    keys = queryset.values_list("pk", flat=True)
    max_pages = kwargs.get("max_pages", MAX_PAGES)
    if max_pages is not None and per_page * max_pages <= FEW_KEYS:
        # So few pages that all their keys are one short read: no count planned and run beside the page's keys.
        keys = list(keys[: per_page * max_pages + 1])
    page = CappedPaginator(keys, per_page, **kwargs).get_page(number)
    page.object_list = rows_in_key_order(queryset if rows is None else rows, list(page.object_list))
    return page


class KeysFirstPagination(CappedPageNumberPagination):
    """The API's capped pages, read keys first as page_keys_first reads them."""

    def paginate_queryset(self, queryset, request, view=None):
        keys = super().paginate_queryset(queryset.values_list("pk", flat=True), request, view)
        if keys is None:
            return None
        return rows_in_key_order(queryset, keys)


class KeysFirstPaginator(CappedPaginator):
    """A capped paginator whose pages are read keys first, as page_keys_first reads them: for a list that pages with
    `page()` itself (the admin's changelist), so the rows a deep page's OFFSET skips are never joined nor annotated.
    A DISTINCT queryset (a search across a many-valued relation) is paged as it is."""

    def page(self, number):
        if not hasattr(self.object_list, "query") or self.object_list.query.distinct:
            return super().page(number)
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        keys = list(self.object_list.values_list("pk", flat=True)[bottom:top])
        return self._get_page(rows_in_key_order(self.object_list, keys), number, self)
