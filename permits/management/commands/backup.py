"""manage.py backup --to DIR: the database and the uploads, with a manifest to check a restore against.

The database is dumped by django-dbbackup's connectors. On PostgreSQL: ``pg_dump --format=custom`` of the configured
database (database.dump, dbbackup's PgDumpBinaryConnector). The row counts of the manifest
are taken in the same REPEATABLE READ snapshot that pg_dump dumps (``pg_export_snapshot()`` / ``--snapshot``), so
they describe exactly the dump even while the office keeps working. On SQLite: a copy through SQLite's online backup
API (database.sqlite3, dbbackup's SqliteBackupConnector), consistent while others write.

Then MEDIA_ROOT as media.tar.gz. Uploads are only ever added under new generated names, so a tar taken after the
snapshot holds every file the dump refers to.

manifest.json: when (UTC), the engine and database name, the versions (Python, Django, the app's git commit,
PostgreSQL server and pg_dump), the applied migrations, the row count of every table, the media file count, and the
SHA-256 of each file, which ``manage.py restore --from DIR`` checks before restoring anything.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import tarfile
from pathlib import Path

import django
from dbbackup.db.base import get_connector
from dbbackup.db.exceptions import CommandConnectorError
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections, transaction

MANIFEST = "manifest.json"
PG_DUMP = "database.dump"
SQLITE_COPY = "database.sqlite3"
MEDIA_TAR = "media.tar.gz"
FORMAT = 1
CONNECTORS = {
    "postgresql": "dbbackup.db.postgresql.PgDumpBinaryConnector",
    "sqlite": "dbbackup.db.sqlite.SqliteBackupConnector",
}


def engine_of(connection) -> str:
    if connection.vendor == "postgresql":
        return "postgresql"
    if connection.vendor == "sqlite":
        return "sqlite"
    raise CommandError(f"backup supports PostgreSQL and SQLite, not {connection.vendor}.")


def connector_for(connection, engine: str):
    """django-dbbackup's connector of this engine for `connection` (its own settings: DBBACKUP_CONNECTORS)."""
    return get_connector(connection.alias, connector_path=CONNECTORS[engine])


def row_counts(connection) -> dict[str, int]:
    """The row count of every table of the database (not only Django's models: every table there is)."""
    with connection.cursor() as cursor:
        tables = sorted(connection.introspection.table_names(cursor))
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def applied_migrations(connection) -> dict[str, str]:
    """The latest applied migration of each app (what a restored database must be at)."""
    with connection.cursor() as cursor:
        if "django_migrations" not in connection.introspection.table_names(cursor):
            return {}
        cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, id")
        latest = {}
        for app, name in cursor.fetchall():
            latest[app] = name
    return latest


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def pg_environment(settings_dict) -> tuple[list[str], dict[str, str]]:
    """Connection arguments for pg_dump/pg_restore/psql from Django's settings (the password through the env)."""
    args = []
    if settings_dict.get("HOST"):
        args += ["--host", str(settings_dict["HOST"])]
    if settings_dict.get("PORT"):
        args += ["--port", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        args += ["--username", str(settings_dict["USER"])]
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    options = settings_dict.get("OPTIONS") or {}
    if options.get("sslmode"):
        env["PGSSLMODE"] = str(options["sslmode"])
    return args, env


def tool_version(tool: str) -> str:
    try:
        return subprocess.run([tool, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        raise CommandError(f"{tool} is needed for a PostgreSQL backup and could not be run: {error}") from error


def git_commit() -> str:
    try:
        result = subprocess.run(
            ["git", "-C", str(settings.BASE_DIR), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return result.stdout.strip() or "unknown"


def media_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


class Command(BaseCommand):
    help = (
        "Back up the database (pg_dump custom format on PostgreSQL, the SQLite backup API on SQLite) and MEDIA_ROOT "
        "into DIR (new or empty), with manifest.json (row counts per table, time, versions, checksums)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--to", required=True, dest="to", help="a new or empty folder to write the backup into")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias (default: default)")

    def handle(self, *args, to, database, **options):
        target = Path(to)
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise CommandError(
                f"--to {target}: the folder is not empty. Back up into a new folder, e.g. --to {target}/$(date +%F)."
            )
        target.mkdir(parents=True, exist_ok=True)
        connection = connections[database]
        engine = engine_of(connection)
        started = datetime.datetime.now(datetime.UTC)
        versions = {
            "python": platform.python_version(),
            "django": django.get_version(),
            "app_commit": git_commit(),
        }
        if engine == "postgresql":
            files, counts, migrations = self._dump_postgresql(connection, target, versions)
        else:
            files, counts, migrations = self._copy_sqlite(connection, target, versions)

        media_root = Path(settings.MEDIA_ROOT)
        media = media_files(media_root)
        with tarfile.open(target / MEDIA_TAR, "w:gz") as tar:
            for path in media:
                tar.add(path, arcname=str(Path("media") / path.relative_to(media_root)), recursive=False)
        files.append(MEDIA_TAR)

        manifest = {
            "format": FORMAT,
            "created_at": started.isoformat(),
            "finished_at": datetime.datetime.now(datetime.UTC).isoformat(),
            "engine": engine,
            "database": str(connection.settings_dict["NAME"]),
            "versions": versions,
            "migrations": migrations,
            "row_counts": counts,
            "media": {"root": str(media_root), "files": len(media), "bytes": sum(p.stat().st_size for p in media)},
            "files": {
                name: {"bytes": (target / name).stat().st_size, "sha256": sha256(target / name)} for name in files
            },
        }
        (target / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        self.stdout.write(
            f"Backed up {engine} database {manifest['database']} ({len(counts)} tables, {sum(counts.values())} rows) "
            f"and {len(media)} media files to {target}."
        )

    def _dump_postgresql(self, connection, target: Path, versions: dict):
        versions["pg_dump"] = tool_version("pg_dump")
        with transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:
                # The first statement of the transaction: the counts below and pg_dump see one snapshot.
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cursor.execute("SELECT pg_export_snapshot(), current_setting('server_version')")
                snapshot, server_version = cursor.fetchone()
            versions["postgresql_server"] = server_version
            counts = row_counts(connection)
            migrations = applied_migrations(connection)
            connector = connector_for(connection, "postgresql")
            connector.dump_suffix = f"--no-owner --no-privileges --snapshot={snapshot}"
            try:
                dump = connector.create_dump()  # pg_dump --format=custom, while this transaction holds the snapshot
            except CommandConnectorError as error:
                raise CommandError(f"pg_dump failed: {error}") from error
            with dump, (target / PG_DUMP).open("wb") as out:
                shutil.copyfileobj(dump, out)
        return [PG_DUMP], counts, migrations

    def _copy_sqlite(self, connection, target: Path, versions: dict):
        versions["sqlite"] = sqlite3.sqlite_version
        dump = connector_for(connection, "sqlite").create_dump()  # the online backup API: consistent while others write
        with dump, (target / SQLITE_COPY).open("wb") as out:
            shutil.copyfileobj(dump, out)
        copy = sqlite3.connect(target / SQLITE_COPY)
        try:  # counted in the copy itself: exactly what was backed up
            tables = [
                row[0]
                for row in copy.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            counts = {table: copy.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables}
            migrations = {}
            if "django_migrations" in tables:
                for app, name in copy.execute("SELECT app, name FROM django_migrations ORDER BY app, id"):
                    migrations[app] = name
        finally:
            copy.close()
        return [SQLITE_COPY], counts, migrations
