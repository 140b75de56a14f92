"""manage.py restore --from DIR: a backup made by ``manage.py backup`` into an EMPTY database and an empty MEDIA_ROOT.

Refused, before anything is written: a folder without a manifest, a file whose SHA-256 differs from the manifest's,
a backup of another engine, a database that has any table (restore never mixes a backup into live data: create an
empty database first), and a MEDIA_ROOT that holds files. Then, through django-dbbackup's connectors, pg_restore (one
transaction, stopping at the first error) or, on SQLite, the copy written as the configured file; then the media.
Last, every table's row count is compared with the manifest's; any difference is reported and the command exits
non-zero.
"""

from __future__ import annotations

import json
import sqlite3
import tarfile
from pathlib import Path, PurePosixPath

from cachalot.api import invalidate
from dbbackup.db.exceptions import CommandConnectorError
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from permits import office_calendar
from permits.management.commands.backup import (
    MANIFEST,
    MEDIA_TAR,
    PG_DUMP,
    SQLITE_COPY,
    connector_for,
    engine_of,
    media_files,
    row_counts,
    sha256,
)


def sqlite_tables(path: Path) -> list[str]:
    if not path.exists() or path.stat().st_size == 0:
        return []
    db = sqlite3.connect(path)
    try:
        return [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
    finally:
        db.close()


def sqlite_counts(path: Path) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in sqlite_tables(path)}
    finally:
        db.close()


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into an EMPTY database and MEDIA_ROOT, then check row counts."

    def add_arguments(self, parser):
        parser.add_argument("--from", required=True, dest="source", help="the folder `manage.py backup --to` wrote")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias (default: default)")

    def handle(self, *args, source, database, **options):
        folder = Path(source)
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise CommandError(f"--from {folder}: no {MANIFEST} there; give the folder `manage.py backup --to` wrote.")
        manifest = json.loads(manifest_path.read_text())
        for name, expected in manifest["files"].items():
            path = folder / name
            if not path.is_file():
                raise CommandError(f"--from {folder}: {name} is missing; the backup is incomplete.")
            if sha256(path) != expected["sha256"]:
                raise CommandError(f"--from {folder}: {name} does not match its SHA-256 in {MANIFEST}; it is damaged.")

        connection = connections[database]
        engine = engine_of(connection)
        if manifest["engine"] != engine:
            raise CommandError(
                f"The backup is of a {manifest['engine']} database and the configured database is {engine}: restore it "
                f"with DATABASE_URL pointing at an empty {manifest['engine']} database."
            )
        name = str(connection.settings_dict["NAME"])
        if engine == "postgresql":
            with connection.cursor() as cursor:
                tables = connection.introspection.table_names(cursor)
        else:
            connection.close()
            tables = sqlite_tables(Path(name))
        if tables:
            raise CommandError(
                f"The database {name} is not empty ({len(tables)} tables, e.g. {', '.join(sorted(tables)[:3])}): "
                "restore only into an empty database: "
                + (
                    "create one (createdb NEW_NAME) and point DATABASE_URL at it"
                    if engine == "postgresql"
                    else "point VAR_DIR (or DATABASE_URL=sqlite:///...) at a new file"
                )
                + "; restore never overwrites live data."
            )
        media_root = Path(settings.MEDIA_ROOT)
        if media_files(media_root):
            raise CommandError(
                f"MEDIA_ROOT {media_root} already holds files: restore the uploads only into an empty folder "
                "(set MEDIA_ROOT to a new one)."
            )

        if engine == "postgresql":
            connection.close()
            connector = connector_for(connection, "postgresql")
            # Into an empty database: no --clean; one transaction, stopping at the first error.
            connector.drop = connector.if_exists = False
            connector.restore_suffix = ["--no-owner", "--no-privileges", "--exit-on-error"]
            try:
                with (folder / PG_DUMP).open("rb") as dump:
                    connector.restore_dump(dump)
            except CommandConnectorError as error:
                raise CommandError(f"pg_restore failed, nothing restored: {error}") from error
        else:
            Path(name).parent.mkdir(parents=True, exist_ok=True)
            with (folder / SQLITE_COPY).open("rb") as dump:
                connector_for(connection, "sqlite").restore_dump(dump)  # the copy, written as the database file

        office_calendar.forget()  # the rows came in outside Django: no reading of the old calendar is kept
        invalidate()  # and no kept permit list (permits/kept_lists.py) of the database that was there before
        restored_media = self._restore_media(folder / MEDIA_TAR, media_root)

        counts = row_counts(connection) if engine == "postgresql" else sqlite_counts(Path(name))
        expected = manifest["row_counts"]
        differences = [
            f"{table}: {expected.get(table, 'absent')} in the backup, {counts.get(table, 'absent')} restored"
            for table in sorted(set(expected) | set(counts))
            if expected.get(table) != counts.get(table)
        ]
        if restored_media != manifest["media"]["files"]:
            differences.append(f"media: {manifest['media']['files']} files in the backup, {restored_media} restored")
        if differences:
            raise CommandError("The restore does not match the backup's manifest:\n  " + "\n  ".join(differences))
        self.stdout.write(
            f"Restored {len(counts)} tables ({sum(counts.values())} rows, every count as in the manifest) and "
            f"{restored_media} media files from the backup of {manifest['created_at']} into {name}."
        )

    def _restore_media(self, tar_path: Path, media_root: Path) -> int:
        media_root.mkdir(parents=True, exist_ok=True)
        count = 0
        with tarfile.open(tar_path, "r:gz") as tar:
            for member in tar.getmembers():
                parts = PurePosixPath(member.name).parts
                if not member.isfile() or len(parts) < 2 or parts[0] != "media" or ".." in parts:
                    raise CommandError(f"{MEDIA_TAR}: unexpected entry {member.name!r}; nothing more restored.")
                relative = Path(*parts[1:])
                destination = media_root / relative
                destination.parent.mkdir(parents=True, exist_ok=True)
                with tar.extractfile(member) as source, destination.open("wb") as out:
                    while block := source.read(1024 * 1024):
                        out.write(block)
                count += 1
        return count
