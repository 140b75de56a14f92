"""The permit lists' rendered tables (and the links above "My applications"), kept in the "lists" cache and keyed by
the version of the data (the office list and "My applications" under 10 clients at p95 <= 50 ms, where
building the page's queries and 25 rows is four fifths of its cost).

The version is one counter in the cache (Redis in production, so every web process and worker shares it). Every
statement that writes (INSERT, UPDATE, DELETE, TRUNCATE; a write in a WITH) through any Django connection bumps it,
whatever sent it: a view, the admin, the API, a Celery job, a management command or the shell, models or
`QuerySet.update()` or raw SQL (`note_writes`, installed on every connection by permits.apps). It is bumped when the
statement runs and again when its transaction commits: a page read between the two saw the old rows and is kept under
a version nobody asks for once the commit bumps it. Sessions and login attempts do not count (no list shows them).

A write that does not go through Django (psql, pg_restore) is seen within `TTL` seconds, when the tables expire; the
restore command bumps the version itself. A table is kept for the day it was rendered on (a deadline's wording may
depend on it) and for its scope: "office" (every member of the Village staff sees the same rows) or one user.

`kept()` keeps any value the same way: the office-closure calendar behind the business days (permits.office_calendar)
is read once per data version and shared by every web process and worker, so a closure the clerk records in one
process counts in every other at once (it was kept in each process's own memory for a day).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable

from django.core.cache import caches
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

log = logging.getLogger(__name__)

CACHE = "lists"
VERSION_KEY = "data-version"
TTL = 60  # seconds: how long a write made outside Django can go unseen
WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "TRUNCATE", "REPLACE", "MERGE")
NOT_SHOWN = ('"django_session"', '"axes_')  # tables no list shows: their writes keep the version


def is_write(sql: str) -> bool:
    """Does this statement change rows a list may show?"""
    head = sql.lstrip()[:9].upper()
    if head.startswith(WRITE_VERBS):
        verb_end = sql.find("(") if head.startswith("INSERT") else -1
        target = sql[: verb_end if verb_end > 0 else 120]
        return not any(table in target for table in NOT_SHOWN)
    if head.startswith("WITH"):  # a data-modifying CTE (UPDATE ... RETURNING inside WITH)
        upper = sql.upper()
        return any(f" {verb} " in upper or f"({verb} " in upper for verb in WRITE_VERBS[:3])
    return False


def _cache():
    return caches[CACHE]


# kept(..., local_seconds=N): the values this process read in the last N seconds, by name: (when, value). A write in
# this process empties it (bump); another process's write is seen within N seconds.
_recent: dict[str, tuple[float, object]] = {}


def bump() -> None:
    """A new data version: every table kept so far is never read again. A cache that fails is logged, never fatal to
    the write (its tables expire within TTL)."""
    _recent.clear()
    cache = _cache()
    try:
        try:
            cache.incr(VERSION_KEY)
        except ValueError:  # no version yet (a new or emptied cache): start one no earlier version can equal
            if not cache.add(VERSION_KEY, time.time_ns(), timeout=None):
                cache.incr(VERSION_KEY)
    except Exception:  # noqa: BLE001 - the cache must never undo a write
        log.exception("the lists' data version could not be bumped")


def current_version() -> int | None:
    cache = _cache()
    try:
        version = cache.get(VERSION_KEY)
        if version is None:
            cache.add(VERSION_KEY, time.time_ns(), timeout=None)
            version = cache.get(VERSION_KEY)
        return version
    except Exception:  # noqa: BLE001 - no cache: every page is built from the database
        log.exception("the lists' data version could not be read")
        return None


def note_writes(execute, sql, params, many, context):
    """Connection execute wrapper: bump the data version after a write, and again when its transaction commits."""
    result = execute(sql, params, many, context)
    if is_write(sql):
        bump()
        connection = context["connection"]
        if connection.in_atomic_block and not _bump_pending(connection):
            connection.on_commit(bump)
    return result


def _bump_pending(connection) -> bool:
    """Is a bump already waiting for this transaction's commit? (One per transaction, however many writes.)"""
    return any(entry[1] is bump for entry in getattr(connection, "run_on_commit", ()))


def install(sender, connection, **kwargs) -> None:
    """connection_created receiver: watch this connection's writes (once per connection object: a reconnect keeps
    its wrappers)."""
    if note_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(note_writes)


def kept(name: str, build: Callable[[], object], ttl: int = TTL, local_seconds: float = 0) -> object:
    """`build()`'s value, kept under `name` until the data changes (any write bumps the version) or `ttl` passes, and
    shared by every process; built every time when the cache fails. With `local_seconds`, a value this process read
    that recently is used without asking the cache (for a rule asked thousands of times in one job)."""
    if local_seconds:
        recent = _recent.get(name)
        if recent is not None and time.monotonic() - recent[0] < local_seconds:
            return recent[1]
    value = _kept(current_version(), name, build, ttl)
    if local_seconds:
        _recent[name] = (time.monotonic(), value)
    return value


def _kept(version: int | None, name: str, build: Callable[[], object], ttl: int) -> object:
    if version is None:
        return build()
    key = f"kept:{version}:{name}"
    cache = _cache()
    try:
        value = cache.get(key)
    except Exception:  # noqa: BLE001
        value = None
    if value is None:
        value = build()
        try:
            cache.set(key, value, ttl)
        except Exception:  # noqa: BLE001
            log.exception("%s could not be kept", name)
    return value


def cached_parts(scope: str, parts: dict[str, tuple[dict, Callable[[], object]]]) -> dict[str, object]:
    """Each part's value (a rendered table, a row of links, a short list), built by its builder for `scope` and its
    request parameters, or from the cache when the data has not changed since it was built today. The version is read
    once for the page and every part in one more round trip (get_many); the parts built now are stored in one.
    `parts` is {name: (params, build)}; a builder's value must not be None."""
    version = current_version()
    if version is None:
        return {part: build() for part, (params, build) in parts.items()}
    today = timezone.localdate().isoformat()
    keys = {}
    for part, (params, _build) in parts.items():
        digest = hashlib.sha256(repr(sorted(params.items())).encode()).hexdigest()[:24]
        keys[part] = f"kept:{version}:fragment:{today}:{scope}:{part}:{digest}"
    cache = _cache()
    try:
        found = cache.get_many(list(keys.values()))
    except Exception:  # noqa: BLE001 - no cache: every part is built from the database
        found = {}
    out, built = {}, {}
    for part, (_params, build) in parts.items():
        value = found.get(keys[part])
        if value is None:
            value = built[keys[part]] = build()
        out[part] = value
    if built:
        try:
            cache.set_many(built, TTL)
        except Exception:  # noqa: BLE001
            log.exception("%s could not be kept", ", ".join(built))
    return out


def cached_fragments(scope: str, parts: dict[str, tuple[dict, Callable[[], str]]]) -> dict[str, SafeString]:
    """cached_parts() for parts that are HTML rendered by our own templates (escaped there)."""
    return {part: mark_safe(str(html)) for part, html in cached_parts(scope, parts).items()}  # noqa: S308
