"""One helper for every "contains" search box: the rows whose columns contain what was typed.

Each table is searched on its own, by its own columns: a column of a related table ("parcel__owner_name") is
searched in that table and matched by id, so no join is made before the filter and, on PostgreSQL, every column is
found through its trigram index (UPPER(col::text) gin_trgm_ops, migrations 0016 and 0028: the expression Django's
icontains and iexact compare). The ids of each part are fetched first (one small query per table) and the main query
compares integers only: the planner ORs its primary-key and foreign-key indexes (a BitmapOr) when few rows match,
or checks each row while it walks the index of the list's order, stopping at the page, when many do. A part
matching more than IDS_INLINE rows is left as its condition (or a subquery): so many rows match that the walk stops
early anyway. On SQLite the same queries are plain icontains. The rows found are exactly those of
`Q(f1__icontains=term) | Q(f2__icontains=term) | ...` over the joins.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import BooleanField, CharField, Expression, F, Lookup, Model, Q, QuerySet, TextField
from django.utils.text import smart_split, unescape_string_literal


@CharField.register_lookup
@TextField.register_lookup
class WordStarts(Lookup):
    """`owner_name__word_starts="brandt"`: a word of the column begins with the text, case-insensitive (the staff
    search, permits.workspace.search). On PostgreSQL one condition, `UPPER(col::text) ~ ('\\m' || UPPER('brandt'))`: the
    column's trigram index (on UPPER(col::text), the expression icontains compares) finds it, and the planner
    estimates its rows from that expression's statistics. It was "contains, and the regular expression \\m": the
    planner multiplied the two as if they were independent and expected a tenth of the rows that match, so it
    joined every match of a common name where walking the list's order stops after a few rows. Elsewhere
    (SQLite) it is "contains", which finds the same rows and some more. The text is letters and digits only (the
    search splits what was typed into such words): nothing in it is regular-expression syntax."""

    lookup_name = "word_starts"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"UPPER({lhs}) LIKE '%%' || UPPER({rhs}) || '%%'", (*lhs_params, *rhs_params)

    def as_postgresql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"UPPER({lhs}::text) ~ ('\\m' || UPPER({rhs}))", (*lhs_params, *rhs_params)


IDS_INLINE = 5000  # ids sent as a list; past this, the condition or a subquery (see the module docstring)
# A capped search page (permits.paging.SEARCH_PAGES) past this many ids: 2,000 ids of a common name cost more to fetch,
# send and plan (the planner estimates each id) than the subquery checked for each row of the page's walk.
SEARCH_IDS_INLINE = 200


def matching(model: type[Model], term: str, fields: Iterable[str], *, exact: Iterable[str] = ()) -> Q:
    """The condition "one of `fields` contains `term`, or one of `exact` equals it" (both case-insensitive) for a
    `model.objects.filter()`. A field may name a forward relation's column ("parcel__owner_name"): that table is
    searched on its own first (one query)."""
    return any_of(model, [(f, {"icontains": term}) for f in fields] + [(f, {"iexact": term}) for f in exact])


def any_of(model: type[Model], tests: list[tuple[str, dict[str, object]]]) -> Q:
    """The condition "one of `tests` holds": each is a field path and the lookups it must all pass
    (`("applicant__last_name", {"icontains": "kram"})`), matched as the module docstring says."""
    if not tests:
        return Q(pk__in=[])
    here = Q()
    through: dict[str, list[tuple[str, dict[str, object]]]] = {}
    for path, lookups in tests:
        relation, _, rest = path.partition("__")
        if rest:
            through.setdefault(relation, []).append((rest, lookups))
        else:
            here |= Q(**{f"{path}__{lookup}": value for lookup, value in lookups.items()})
    if not through:
        return here  # one table: the planner ORs its indexes (a BitmapOr)
    # Every part by id, so the main query only compares integers: a BitmapOr of its id and foreign-key indexes when
    # the parts are small, a cheap check per row while it walks the index of its order when they are not.
    condition = Q()
    if here:
        local = [(path, lookups) for path, lookups in tests if "__" not in path]
        probe = model._base_manager.filter(any_of(model, _guarded(local))) if _has_word_starts(local) else None
        condition = _by_id("pk", model._base_manager.filter(here), otherwise=here, probe=probe)
    for relation, inner in through.items():
        related = model._meta.get_field(relation).related_model
        found = related._base_manager.filter(any_of(related, inner))
        probe = related._base_manager.filter(any_of(related, _guarded(inner))) if _has_word_starts(inner) else None
        condition |= _by_id(relation, found, otherwise=Q(**{f"{relation}__in": found.values("pk")}), probe=probe)
    return condition


def _has_word_starts(tests: list[tuple[str, dict[str, object]]]) -> bool:
    return any("word_starts" in lookups for _, lookups in tests)


def _guarded(tests: list[tuple[str, dict[str, object]]]) -> list[tuple[str, dict[str, object]]]:
    """The same tests with each word start guarded by "contains", for the query that fetches a part's ids (at most
    IDS_INLINE of them). A row that does not contain the word fails the cheap LIKE and never reaches the regular
    expression (about 2 microseconds a row: the probes' scans of a whole table cost 2 to 4 ms each at 100k), and
    the planner, expecting fewer rows, reads the column's trigram index. The rows are the same: a word that begins a
    word is contained. The main query keeps the unguarded condition, whose estimate is right (WordStarts)."""
    return [
        (path, {"icontains": lookups["word_starts"], **lookups} if "word_starts" in lookups else lookups)
        for path, lookups in tests
    ]


def _by_id(name: str, rows: QuerySet, *, otherwise: Q, probe: QuerySet | None = None) -> Q:
    """`name IN (the ids of rows)` with the ids fetched now, or `otherwise` when there are more than IDS_INLINE.
    `probe`: the same rows, written for the query that fetches them (_guarded)."""
    inline = _inline.get() or IDS_INLINE
    found = (rows if probe is None else probe).order_by().values_list("pk", flat=True)[: inline + 1]
    memo = _remembered.get()
    try:
        key = (rows.model, str(found.query))
    except EmptyResultSet:  # a condition that cannot match (an empty id list further down): nothing to fetch
        return Q(**{f"{name}__in": []})
    pending = _pending.get()
    if memo is not None and key in memo:
        ids = memo[key]
    elif pending is not None:  # collected, fetched with the others on leaving ids_fetched_together()
        pending[key] = found
        return Q(**{f"{name}__in": []})
    else:
        ids = list(found)
        if memo is not None:
            memo[key] = ids
    if not ids:
        return Q(**{f"{name}__in": []})
    return Q(InIds(name, ids)) if len(ids) <= inline else otherwise


class InIds(Expression):
    """`name IN (ids)`, sent on PostgreSQL as one array parameter (`name = ANY(%s)`): the same plan (an index
    condition, or a filter while walking the list's order) without 2,000 placeholders to build, send and parse."""

    conditional = True
    output_field = BooleanField()

    def __init__(self, name: str, ids: list[int]):
        super().__init__(output_field=BooleanField())
        self.column = F(name)
        self.ids = list(ids)

    def get_source_expressions(self):
        return [self.column]

    def set_source_expressions(self, exprs):
        (self.column,) = exprs

    def as_sql(self, compiler, connection):
        column, params = compiler.compile(self.column)
        if connection.vendor == "postgresql":
            return f"{column} = ANY(%s::bigint[])", (*params, self.ids)
        return f"{column} IN ({', '.join(['%s'] * len(self.ids))})", (*params, *self.ids)


_remembered: ContextVar[dict | None] = ContextVar("text_search_remembered", default=None)
_inline: ContextVar[int | None] = ContextVar("text_search_inline", default=None)


@contextmanager
def remembered_ids(*, inline: int | None = None):
    """Within the block, the same table searched the same way is queried once (the staff search's sources share
    their parcels). `inline`: the most ids sent as a list in the block (IDS_INLINE otherwise); a page that shows only
    the first few rows of each search sets it low, so that a part matching more stops reading there and is left as
    its subquery (the main query's walk of its order finds its few rows quickly when so many match)."""
    token = _remembered.set({})
    inline_token = _inline.set(inline)
    try:
        yield
    finally:
        _inline.reset(inline_token)
        _remembered.reset(token)


_pending: ContextVar[dict | None] = ContextVar("text_search_pending", default=None)


@contextmanager
def ids_fetched_together():
    """Within remembered_ids(): the id lookups the conditions built in this block ask for are not run one by one
    but collected (the conditions built here are thrown away); on leaving, all of them run as one query (UNION ALL)
    and are remembered, so the same conditions built again afterwards compare the ids found (the staff search: one
    query for every source's ids)."""
    memo = _remembered.get()
    if memo is None:
        raise RuntimeError("ids_fetched_together() is used inside remembered_ids()")
    pending: dict = {}
    token = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(token)
    _fetch_together(memo, pending)


def _fetch_together(memo: dict, pending: dict) -> None:
    by_db: dict[str, list] = {}
    for key, found in pending.items():
        by_db.setdefault(found.db, []).append((key, found))
    for db, lookups in by_db.items():
        parts, params = [], []
        for i, (key, found) in enumerate(lookups):
            sql, found_params = found.query.get_compiler(db).as_sql()
            parts.append(f"SELECT {i} AS part, found.* FROM ({sql}) AS found")
            params.extend(found_params)
            memo[key] = []
        with connections[db].cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            for part, pk in cursor.fetchall():
                memo[lookups[part][0]].append(pk)


def search_terms(text: str) -> list[str]:
    """The words of a search box the way the Django admin splits them: each word, or each "quoted phrase"."""
    terms = []
    for bit in smart_split(text):
        if bit.startswith(('"', "'")) and bit[0] == bit[-1]:
            bit = unescape_string_literal(bit)
        if bit:
            terms.append(bit)
    return terms


def filter_every_term(qs: QuerySet, terms: Iterable[str], fields: Iterable[str]) -> QuerySet:
    """The rows of `qs` in which every term is found in one of `fields` (the admin's and DRF's search rule)."""
    fields = list(fields)
    for term in terms:
        qs = qs.filter(matching(qs.model, term, fields))
    return qs
