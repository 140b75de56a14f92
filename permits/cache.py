"""The shared cache's backend in production mode: Django's Redis cache, whose clear() removes this deployment's keys
(its KEY_PREFIX) only. The Redis database is also Celery's broker, and may be shared with another deployment: a
FLUSHDB would take their keys too."""

from __future__ import annotations

import re

from django.core.cache.backends.redis import RedisCache


class SharedRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(write=True)
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.key_prefix) + ":*"
        keys = list(client.scan_iter(match=pattern, count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        return True
