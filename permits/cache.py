"""The shared cache's backends. With Redis: Django's Redis cache, whose clear() removes this deployment's keys (its
KEY_PREFIX) only; the Redis database is also Celery's broker, and may be shared with another deployment: a FLUSHDB
would take their keys too. Without it: a file cache every process of the machine shares (MachineFileCache)."""

from __future__ import annotations

import os
import pickle
import re
import time
import zlib
from contextlib import contextmanager

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache
from django.core.files import locks


class SharedRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(write=True)
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.key_prefix) + ":*"
        keys = list(client.scan_iter(match=pattern, count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        return True


class MachineFileCache(FileBasedCache):
    """The shared cache without Redis (embedded mode, or production on one machine): Django's file cache under
    VAR_DIR, which every process of the machine reads, so the rate limits (allauth's, DRF's throttles, the public
    forms') count once whatever the number of gunicorn workers; the processes' own memory counted per worker (40 tries
    from one address: 30 answers and 10 refusals instead of 10 and 30).

    Two changes to Django's backend, which django-ratelimit refuses for want of an atomic increment: add() and incr()
    hold one lock file (flock) across processes, and incr() keeps the key's expiry (BaseCache.incr sets the new value
    with the default timeout, so an hourly count would restart after five quiet minutes)."""

    LOCK_NAME = "lock"  # not *.djcache: clear() and culling never remove it

    @contextmanager
    def _lock(self):
        self._createdir()
        with open(os.path.join(self._dir, self.LOCK_NAME), "ab") as handle:
            locks.lock(handle, locks.LOCK_EX)
            try:
                yield
            finally:
                locks.unlock(handle)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        with self._lock():
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        with self._lock():
            fname = self._key_to_file(key, version)
            try:
                with open(fname, "rb") as handle:
                    expiry = pickle.load(handle)
                    value = pickle.loads(zlib.decompress(handle.read()))
            except (FileNotFoundError, EOFError):
                raise ValueError(f"Key '{key}' not found") from None
            remaining = None if expiry is None else expiry - time.time()
            if remaining is not None and remaining <= 0:
                self._delete(fname)
                raise ValueError(f"Key '{key}' not found")
            value += delta
            self.set(key, value, remaining, version)
            return value
