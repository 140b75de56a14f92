"""The public forms' hourly limits (the snow report, the obstruction complaint) count in the shared cache with
django-ratelimit, per client address (permits/client_ip.py): every web worker adds to one count, so "5 an hour" is
five whatever the number of workers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import CacheHandler
from django.urls import reverse

from obstructions.views import COMPLAINTS_PER_HOUR

ROOT = Path(__file__).resolve().parents[2]
COMPLAINT = reverse("obstructions:complaint")
PROXY = "10.0.0.1"

pytestmark = pytest.mark.django_db


def test_two_workers_sharing_the_cache_share_one_count(client, monkeypatch):
    """A second worker is a second set of cache connections (a new CacheHandler, as in another process): the count
    the first one left is the one it adds to."""
    import django_ratelimit.core

    for _ in range(3):
        assert client.post(COMPLAINT, {"address": "x"}).status_code == 400  # counted, then refused for its fields
    monkeypatch.setattr(django_ratelimit.core, "caches", CacheHandler())  # the other worker
    for _ in range(COMPLAINTS_PER_HOUR - 3):
        assert client.post(COMPLAINT, {"address": "x"}).status_code == 400
    response = client.post(COMPLAINT, {"address": "x"})
    assert response.status_code == 429
    assert "Too many reports from your connection in the last hour" in response.content.decode()


def test_each_client_behind_the_villages_proxy_has_its_own_count(client, settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    first = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    second = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    for _ in range(COMPLAINTS_PER_HOUR):
        client.post(COMPLAINT, {"address": "x"}, **first)
    assert client.post(COMPLAINT, {"address": "x"}, **first).status_code == 429
    assert client.post(COMPLAINT, {"address": "x"}, **second).status_code == 400


def test_a_get_is_not_counted(client):
    for _ in range(COMPLAINTS_PER_HOUR + 1):
        assert client.get(COMPLAINT).status_code == 200
    assert client.post(COMPLAINT, {"address": "x"}).status_code == 400


PROBE = (
    "import json, theresa_permits.settings as s;"
    "print(json.dumps([s.CACHES['default'], s.RATELIMIT_USE_CACHE, s.SILENCED_SYSTEM_CHECKS]))"
)


def probe(tmp_path, **env) -> list:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "VAR_DIR": str(tmp_path / "var")}
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_counts_in_redis_under_the_databases_name_and_keeps_the_locmem_check(tmp_path):
    cache, use, silenced = probe(
        tmp_path,
        DATABASE_URL="postgres://permits@db.example:5432/theresa",
        SECRET_KEY="k" * 50,
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert cache == {
        "BACKEND": "permits.cache.SharedRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/0",
        "KEY_PREFIX": "theresa:db.example:5432:theresa",
    }
    assert use == "default"
    # a locmem cache would still stop the start (django_ratelimit.E003 stays on)
    assert silenced == ["django_ratelimit.W001", "cachalot.W001"]


def test_without_redis_every_process_of_the_machine_counts_in_one_file_cache(tmp_path):
    """A process's own memory counted per gunicorn worker; the file cache under VAR_DIR is the machine's."""
    for env in ({}, {"DATABASE_URL": "postgres://permits@db.example:5432/theresa", "SECRET_KEY": "k" * 50}):
        cache, use, silenced = probe(tmp_path, **env)
        assert cache["BACKEND"] == "permits.cache.MachineFileCache"
        assert cache["LOCATION"] == str(tmp_path / "var" / "cache" / "shared")
        assert "django_ratelimit.E003" not in silenced


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (.ci/run's production pass)")
def test_clearing_the_shared_cache_keeps_the_brokers_and_other_deployments_keys(settings):
    from django.core.cache import caches

    cache = caches["default"]
    client = cache._cache.get_client(write=True)
    client.set("celery-broker-key", "kept")
    client.set("theresa:other-village:1:k", "kept")
    cache.set("mine", 1)
    cache.clear()
    assert cache.get("mine") is None
    assert client.get("celery-broker-key") == b"kept" and client.get("theresa:other-village:1:k") == b"kept"
    client.delete("celery-broker-key", "theresa:other-village:1:k")
