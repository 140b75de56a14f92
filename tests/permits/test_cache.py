"""The shared cache without Redis (permits/cache.py MachineFileCache): every process of the machine counts in one
place, add and incr are atomic across processes, and a count keeps its expiry. And the rate limits, counted there or
in Redis, are one count across two real web processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import time_machine
from django.db import connection

from permits.cache import MachineFileCache
from tests.processes import database_url, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def test_an_hourly_count_keeps_its_expiry_when_it_is_incremented(tmp_path):
    """BaseCache.incr set the new value with the default timeout (300 s): an hourly count restarted after five
    quiet minutes."""
    cache = MachineFileCache(str(tmp_path), {})
    with time_machine.travel(1_800_000_000, tick=False) as traveller:
        assert cache.add("count", 1, 3600)
        traveller.shift(301)
        assert cache.incr("count") == 2
        traveller.shift(600)
        assert cache.get("count") == 2
        traveller.shift(3600 - 901 - 1)
        assert cache.incr("count") == 3
        traveller.shift(2)
        assert cache.get("count") is None
        with pytest.raises(ValueError):
            cache.incr("count")


def test_add_refuses_a_live_key_and_clear_keeps_the_lock_file(tmp_path):
    cache = MachineFileCache(str(tmp_path), {})
    assert cache.add("k", 1, 60) and not cache.add("k", 2, 60)
    assert cache.get("k") == 1
    cache.clear()
    assert cache.get("k") is None and (tmp_path / MachineFileCache.LOCK_NAME).exists()


COUNTER = (
    "import sys; from permits.cache import MachineFileCache;"
    "c = MachineFileCache(sys.argv[1], {});"
    "[(c.add('n', 0, 3600), c.incr('n')) for _ in range(150)]"
)


def test_four_processes_counting_at_once_lose_no_increment(tmp_path):
    procs = [subprocess.Popen([sys.executable, "-c", COUNTER, str(tmp_path)], cwd=ROOT) for _ in range(4)]
    assert [proc.wait(timeout=60) for proc in procs] == [0, 0, 0, 0]
    assert MachineFileCache(str(tmp_path), {}).get("n") == 600


TOKEN_URL = "/api/v1/auth/token/"


def post_token(port: int, username: str) -> int:
    body = json.dumps({"username": username, "password": "wrong-password"}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{TOKEN_URL}", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        return urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def two_web_processes(request, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the web processes need the test database on PostgreSQL (.ci/run's production pass)")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTEST_XDIST_WORKER", "REDIS_URL")}
    env.update(
        DATABASE_URL=database_url(),
        VAR_DIR=str(tmp_path / "var"),
        API_TOKEN_RATE="10/minute",
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="theresa_permits.settings",
        PYTHONPATH=str(ROOT),
    )
    env.setdefault("SECRET_KEY", "two-web-processes-" + "k" * 40)
    env.setdefault("DEBUG", "1")
    if request.param == "redis":
        if not os.environ.get("REDIS_URL"):
            pytest.skip("needs REDIS_URL")
        from django.conf import settings

        env["REDIS_URL"] = settings.REDIS_URL  # this test process's own Redis database
    ports = [8781, 8782] if request.param == "redis" else [8783, 8784]
    procs = [
        subprocess.Popen(
            [str(BIN / "gunicorn"), "theresa_permits.wsgi", f"--bind=127.0.0.1:{port}", "--workers=1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        wait_until_serving(ports)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("two_web_processes", ["file", "redis"], indirect=True)
def test_the_token_throttle_counts_once_across_two_web_processes(two_web_processes):
    """API_TOKEN_RATE 10/minute from one address, 20 tries alternating between two gunicorn processes: 10 answers
    and 10 refusals (each process counting alone gave 20 answers). Each try names another user, so axes' lockout
    (per username and address) stays out of it."""
    statuses = [post_token(two_web_processes[n % 2], f"nobody{n}") for n in range(20)]
    assert statuses.count(400) == 10 and statuses.count(429) == 10
    assert statuses[:10] == [400] * 10
