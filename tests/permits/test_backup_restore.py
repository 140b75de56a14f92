"""Nothing is lost: `manage.py backup --to DIR` then `manage.py restore --from DIR` into an empty database gives back
every table's rows, the audit trail (PermitEvent, StateChange, Payment and the latest events) and the uploads.

The restore runs as a separate `manage.py` process pointed at a new database, as on a replacement server. The
PostgreSQL test is run by the CI production pass (DATABASE_URL set); the SQLite one by `make test`."""

import io
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from permits.management.commands.backup import row_counts
from permits.models import Payment, PermitEvent, StateChange
from tests.processes import database_url
from tests.upload_samples import PDF as PLAIN_PDF

# Committed rows (pg_dump is another process); the fee schedule and groups from the data migrations kept.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

BASE_DIR = Path(settings.BASE_DIR)
AUDIT_MODELS = [PermitEvent, StateChange, Payment]
LATEST_EVENTS = (
    "SELECT id, permit_id, kind, from_status, to_status, actor_label, reason "
    f"FROM {PermitEvent._meta.db_table} ORDER BY at DESC, id DESC LIMIT 10"
)


@pytest.fixture
def demo_data(monkeypatch):
    """The demo village (permits.demo.load_demo and every type's loader, through `manage.py load_demo`), with the
    demo's certificate of insurance a real PDF (the uploads are checked by content, permits/uploads.py)."""
    from permits import demo

    monkeypatch.setattr(demo, "CERTIFICATE", PLAIN_PDF)
    call_command("load_demo", stdout=io.StringIO())
    assert PermitEvent.objects.exists() and Payment.objects.exists() and StateChange.objects.exists()
    media = Path(settings.MEDIA_ROOT)
    assert any(p.is_file() for p in media.rglob("*")), "the demo stores uploads"
    return media


def manage(*args, env):
    """Run manage.py in its own process, with only the given database/media settings."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "MEDIA_ROOT", "VAR_DIR"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def backed_up(tmp_path) -> tuple[Path, dict]:
    """The backup command run into a new folder: the folder and its manifest."""
    folder = tmp_path / "backup"
    call_command("backup", to=str(folder), stdout=io.StringIO())
    return folder, json.loads((folder / "manifest.json").read_text())


def media_contents(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def source_audit():
    with connection.cursor() as cursor:
        cursor.execute(LATEST_EVENTS)
        latest = [tuple(row) for row in cursor.fetchall()]
    return {m._meta.db_table: m.objects.count() for m in AUDIT_MODELS}, latest


# --- SQLite: the backup API copy and the media -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backup; the PostgreSQL one is below")
def test_sqlite_backup_and_restore_into_an_empty_file_keeps_every_row_and_upload(demo_data, tmp_path):
    backup_dir, manifest = backed_up(tmp_path)
    source_counts = row_counts(connection)
    assert manifest["engine"] == "sqlite" and manifest["row_counts"] == source_counts
    assert manifest["media"]["files"] == len(media_contents(demo_data)) > 0
    assert {"python", "django", "app_commit", "sqlite"} <= set(manifest["versions"])
    audit, latest = source_audit()

    var = tmp_path / "new-server"
    env = {"VAR_DIR": str(var), "MEDIA_ROOT": str(var / "media")}
    result = manage("restore", "--from", str(backup_dir), env=env)
    assert result.returncode == 0, result.stderr
    assert "every count as in the manifest" in result.stdout

    restored = sqlite3.connect(var / "theresa.sqlite3")
    try:
        tables = [r[0] for r in restored.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {t: restored.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        assert {t: n for t, n in counts.items() if not t.startswith("sqlite_")} == source_counts
        assert {t: counts[t] for t in audit} == audit
        assert [tuple(r) for r in restored.execute(LATEST_EVENTS)] == latest
    finally:
        restored.close()
    assert media_contents(var / "media") == media_contents(demo_data)

    again = manage("restore", "--from", str(backup_dir), env={**env, "MEDIA_ROOT": str(tmp_path / "empty-media")})
    assert again.returncode != 0
    assert "is not empty" in again.stderr and "restore only into an empty database" in again.stderr


@pytest.mark.slow
def test_restore_refuses_a_damaged_backup_before_writing_anything(demo_data, tmp_path):
    backup_dir, _ = backed_up(tmp_path)
    tar = backup_dir / "media.tar.gz"
    data = bytearray(tar.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tar.write_bytes(bytes(data))
    var = tmp_path / "new-server"
    result = manage("restore", "--from", str(backup_dir), env={"VAR_DIR": str(var), "MEDIA_ROOT": str(var / "m")})
    assert result.returncode != 0
    assert "media.tar.gz does not match its SHA-256" in result.stderr
    assert not (var / "m").exists() or not any((var / "m").iterdir())


def test_backup_refuses_a_folder_that_is_not_empty(demo_data, tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "manifest.json").write_text("{}")
    with pytest.raises(CommandError, match="the folder is not empty"):
        call_command("backup", to=str(tmp_path / "old"), stdout=io.StringIO())


@pytest.mark.slow
def test_restore_refuses_a_media_root_that_holds_files(demo_data, tmp_path):
    backup_dir, _ = backed_up(tmp_path)
    media = tmp_path / "live-media"
    (media / "documents").mkdir(parents=True)
    (media / "documents" / "keep.pdf").write_bytes(PLAIN_PDF)
    var = tmp_path / "new-server"
    if connection.vendor == "postgresql":
        pytest.skip("checked on SQLite (the media check comes before the engine's restore)")
    result = manage("restore", "--from", str(backup_dir), env={"VAR_DIR": str(var), "MEDIA_ROOT": str(media)})
    assert result.returncode != 0 and "already holds files" in result.stderr
    assert (media / "documents" / "keep.pdf").read_bytes() == PLAIN_PDF
    assert not (var / "theresa.sqlite3").exists() or not (var / "theresa.sqlite3").stat().st_size


def test_restore_refuses_a_folder_without_a_manifest(tmp_path):
    with pytest.raises(CommandError, match="no manifest.json there"):
        call_command("restore", source=str(tmp_path), stdout=io.StringIO())


# --- PostgreSQL: pg_dump custom format, pg_restore into a new database ------------------------------------------------


SEQUENCES = "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1"


def psql(sql: str, settings_dict) -> None:
    from permits.management.commands.backup import pg_environment

    args, env = pg_environment(settings_dict)
    subprocess.run(["psql", *args, "--dbname=postgres", "-v", "ON_ERROR_STOP=1", "-c", sql], env=env, check=True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL); the CI production pass")
def test_postgresql_backup_and_restore_into_a_new_database_keeps_every_row_and_the_audit_trail(demo_data, tmp_path):
    import psycopg

    backup_dir, manifest = backed_up(tmp_path)
    source_counts = row_counts(connection)
    assert manifest["engine"] == "postgresql" and manifest["row_counts"] == source_counts
    assert (backup_dir / "database.dump").read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert {"pg_dump", "postgresql_server"} <= set(manifest["versions"])
    audit, latest = source_audit()
    with connection.cursor() as cursor:  # the next ids: a restored office must not reuse a permit's or payment's id
        cursor.execute(SEQUENCES)
        sequences = [tuple(row) for row in cursor.fetchall()]
    assert any(last for _name, last in sequences)

    info = connection.settings_dict
    name = f"theresa_restore_{uuid.uuid4().hex[:12]}"
    psql(f'CREATE DATABASE "{name}"', info)
    try:
        env = {
            "DATABASE_URL": database_url(name),
            "SECRET_KEY": "backup-restore-test-key",
            "MEDIA_ROOT": str(tmp_path / "media2"),
        }
        if info.get("PASSWORD"):
            env["PGPASSWORD"] = str(info["PASSWORD"])  # libpq reads it; the URL carries no secret
        result = manage("restore", "--from", str(backup_dir), env=env)
        assert result.returncode == 0, result.stderr
        assert "every count as in the manifest" in result.stdout

        conninfo = {"host": info["HOST"] or "127.0.0.1", "port": info["PORT"] or 5432, "user": info["USER"]}
        with psycopg.connect(dbname=name, password=info.get("PASSWORD") or None, **conninfo) as restored:
            counts = {
                table: restored.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in source_counts
            }
            tables = {
                row[0]
                for row in restored.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                ).fetchall()
            }
            assert counts == source_counts and tables == set(source_counts)
            assert {t: counts[t] for t in audit} == audit
            assert [tuple(r) for r in restored.execute(LATEST_EVENTS).fetchall()] == latest
            assert [tuple(r) for r in restored.execute(SEQUENCES).fetchall()] == sequences
        assert media_contents(tmp_path / "media2") == media_contents(demo_data)

        again = manage("restore", "--from", str(backup_dir), env={**env, "MEDIA_ROOT": str(tmp_path / "media3")})
        assert again.returncode != 0
        assert f"The database {name} is not empty" in again.stderr
    finally:
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', info)
