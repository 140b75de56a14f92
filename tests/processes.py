"""Real processes a test starts against its own PostgreSQL test database: the URL that reaches it, and a Celery
worker of the app."""

import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection


def database_url(name: str | None = None) -> str:
    """The test database's URL (or that of database `name` on the same server); the URL carries no password."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name or db['NAME']}"


def celery_worker(*options: str, env: dict, cwd) -> subprocess.Popen:
    """`celery worker` for the app with the solo pool and no mingle or gossip (ready in about a second)."""
    celery = Path(sys.executable).with_name("celery")
    command = [str(celery), "-A", "theresa_permits", "worker", "--pool=solo", "--without-mingle", "--without-gossip"]
    return subprocess.Popen(
        [*command, *options, "--loglevel=WARNING"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_until_serving(ports, path: str = "/", *, seconds: float = 60) -> None:
    """Each web process started on `ports` answers HTTP at `path` (any status: it is up), or the test fails."""
    deadline = time.monotonic() + seconds
    for port in ports:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the web process on port {port} did not start")
                time.sleep(0.2)
