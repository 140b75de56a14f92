"""Each pytest-xdist worker its own Redis database (loaded with `-p tests.xdist_redis`, pytest.ini).

pytest-django gives every worker its own test database (test_theresa_gw0, test_theresa_gw1, ...), but the Celery
broker is one Redis: a worker thread of one process (tests/conftest.py: real_worker) would take a task queued by the
other and run it against the wrong database. A plugin module is imported before pytest-django reads the settings, so
REDIS_URL is rewritten here, before settings.py reads it: gw0 takes database base+1, gw1 base+2, and so on.
"""

import os
from urllib.parse import urlsplit, urlunsplit

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_url = os.environ.get("REDIS_URL", "")
if _worker.startswith("gw") and _url:
    parts = urlsplit(_url)
    base = int(parts.path.strip("/") or 0)
    os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{base + 1 + int(_worker[2:])}"))
