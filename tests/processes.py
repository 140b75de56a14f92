"""Real processes a test starts against its own PostgreSQL test database: the URL that reaches it, and a Celery
worker of the app."""

import subprocess
import sys
from pathlib import Path

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
