"""The two modes (docs/howto/production.md): production (DATABASE_URL set, or DEBUG off) refuses to start
without its own SECRET_KEY and never uses the public demo key (OWASP ASVS 2.10.4, no hard-coded secrets); embedded says
so in every page's footer. Settings are imported in a subprocess with each environment."""

import os
import re
import subprocess
import sys
from pathlib import Path
from unittest.mock import ANY

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = "insecure-development-key-only-for-the-embedded-demo"
REAL_KEY = "drill-" + "k" * 50
PROBE = (
    "import json, theresa_permits.settings as s;"
    "print(json.dumps([s.DEBUG, s.PRODUCTION_MODE, s.SECRET_KEY, s.DATABASES['default']['ENGINE'],"
    " s.STORAGES['staticfiles']['BACKEND']]))"
)


def import_settings(tmp_path, **env):
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "VAR_DIR": str(tmp_path / "var")}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def refused(result):
    return result.returncode != 0 and "SECRET_KEY must be set, and not to the demo key, in production mode" in (
        result.stderr
    )


PG = "postgres://permits@db.example:5432/theresa"


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": PG},  # DEBUG defaulted: DATABASE_URL alone is production
        {"DATABASE_URL": PG, "DEBUG": "1"},  # DEBUG forced on does not bring the demo key to a real database
        {"DEBUG": "0"},
        {"DEBUG": "false", "SECRET_KEY": ""},
        {"SECRET_KEY": "   "},  # set but blank: DEBUG goes off, and blank is no key
        {"DATABASE_URL": PG, "SECRET_KEY": DEMO_KEY},  # the public demo key, typed in
        {"DEBUG": "0", "SECRET_KEY": DEMO_KEY},
    ],
    ids=["database-url", "database-url-debug-on", "debug-off", "empty-key", "blank-key", "demo-key-pg", "demo-key"],
)
def test_asvs_2_10_4_production_mode_refuses_to_start_without_its_own_secret_key(tmp_path, env):
    result = import_settings(tmp_path, **env)
    assert refused(result), result.stdout + result.stderr
    assert DEMO_KEY not in result.stdout


POSTGRESQL, SQLITE = "django.db.backends.postgresql", "django.db.backends.sqlite3"
MANIFEST = "whitenoise.storage.CompressedManifestStaticFilesStorage"
PLAIN = "django.contrib.staticfiles.storage.StaticFilesStorage"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param(
            {"DATABASE_URL": PG, "SECRET_KEY": REAL_KEY},
            [False, True, REAL_KEY, POSTGRESQL, MANIFEST],
            id="production_mode_with_a_key_uses_that_key_and_the_manifest_storage",
        ),
        # How .ci/run runs the test suite against PostgreSQL: DEBUG on for the test client, a real random key.
        pytest.param(
            {"DATABASE_URL": PG, "SECRET_KEY": REAL_KEY, "DEBUG": "1"},
            [True, True, REAL_KEY, ANY, ANY],
            id="database_url_with_debug_forced_on_is_still_production_mode_with_the_real_key",
        ),
        pytest.param(
            {},
            [True, False, DEMO_KEY, SQLITE, PLAIN],
            id="embedded_mode_with_no_environment_uses_sqlite_and_the_demo_key",
        ),
        pytest.param(
            {"SECRET_KEY": REAL_KEY},
            [False, True, REAL_KEY, ANY, ANY],
            id="secret_key_with_sqlite_turns_debug_off_and_is_production_mode",
        ),
    ],
)
def test_asvs_2_10_4_each_mode_starts_with_its_debug_key_database_and_storage(tmp_path, env, expected):
    """Each result is [DEBUG, PRODUCTION_MODE, SECRET_KEY, database engine, static files storage]; ANY where the
    case does not pin it."""
    result = import_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    assert result_json(result) == expected


def result_json(result):
    import json

    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.django_db
def test_embedded_mode_footer_says_demo_mode(client, settings):
    settings.PRODUCTION_MODE = False
    settings.SECRET_KEY = DEMO_KEY
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # The database is named as the connection is (never switch the live connection's engine in a test: the dict is
    # shared with the open connections, and every later connection would open the wrong engine).
    database = "SQLite" if connection.vendor == "sqlite" else "PostgreSQL"
    html = client.get("/").content.decode()
    assert 'id="deployment-mode"' in html
    assert f"Demo mode: {database}, eager jobs, demo secret key" in html


@pytest.mark.django_db
def test_production_mode_footer_has_no_demo_marker(client, settings):
    settings.PRODUCTION_MODE = True
    html = client.get("/").content.decode()
    assert "deployment-mode" not in html and "Demo mode" not in html


SOURCE_MAP = re.compile(rb"(?://|/\*)# sourceMappingURL=(\S+?)(?: \*/)?\s*$")


def test_every_vendored_source_map_reference_is_vendored_too():
    """whitenoise's CompressedManifestStaticFilesStorage (production) fails collectstatic on a sourceMappingURL whose
    .map is missing, and then every page is a 500: each vendored file's reference must resolve (or be stripped)."""
    checked = 0
    for path in sorted((ROOT / "static").rglob("*")):
        if path.suffix not in (".js", ".css"):
            continue
        checked += 1
        for target in SOURCE_MAP.findall(path.read_bytes()[-300:]):
            assert (path.parent / target.decode()).is_file(), f"{path.relative_to(ROOT)} names a missing {target!r}"
    assert checked >= 3
