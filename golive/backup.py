"""Backup and restore of the whole system: one archive holding the database (pg_dump's custom format on
PostgreSQL, a consistent copy of the file on SQLite), the private license files and a manifest (version,
migration state, hub environment, rows per table, a checksum per file, the secrets a restore needs by
name). Redis holds nothing that cannot be rebuilt, and secrets are never written to an archive.

A restore goes into an empty database and an empty license folder, refuses an archive of another version
or migration state, and checks every checksum and count. It then frees what the processes of the backed-up
system held (leases, queued marks): their workers and broker are gone, so the sweepers queue every change
the hub has not acknowledged and every durable job again at once; acknowledged changes stay synced.
"""

import hashlib
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from core.background.heartbeat import heartbeat
from core.models import Heartbeat, Job
from core.version import VERSION
from integration.hub.selectors import hub_environment_active
from integration.sync.choices import SyncStatus
from integration.sync.models import SyncState
from licenses.files import license_storage

logger = logging.getLogger(__name__)

#: The layout of an archive; a restore reads only its own.
ARCHIVE_FORMAT = 1
MANIFEST = "manifest.json"
LICENSE_FOLDER = "license_files"
#: What an archive's name starts with: the retention keeps the newest BACKUP_KEEP of them.
ARCHIVE_PREFIX = "vendorhub-backup-"
#: The heartbeat a finished backup writes: the health page and /metrics show its age.
BACKUP_HEARTBEAT = "backup"
#: The variables a restored system needs, by name (their values are never in an archive): the
#: session and password-reset signatures, the hub's tokens, the vendor API's token and signing secret.
SECRETS = (
    "DJANGO_SECRET_KEY",
    "HUB_API_TOKEN",
    "HUB_PRODUCTION_API_TOKEN",
    "VENDOR_API_TOKEN",
    "VENDOR_API_SECRET",
)
#: A backup older than this is an alert on the health page, and `upgrade_check` asks for a new one.
BACKUP_MAX_AGE = timedelta(days=1)
_CHUNK = 1024 * 1024

Progress = Callable[[str], None]


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


@dataclass
class Restored:
    """What a restore did: the archive's manifest, and the pending changes and jobs queued again."""

    manifest: dict
    changes_pending: int
    jobs_waiting: int


def _quiet(_message):
    pass


def migration_state(using="default"):
    """The migrations applied to the database, as sorted "app.name" strings."""
    loader = MigrationLoader(connections[using], ignore_no_migrations=True)
    return sorted(f"{app}.{name}" for app, name in loader.applied_migrations)


def code_migration_state():
    """Every migration of this code, as sorted "app.name" strings: what a migrated database has applied."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return sorted(f"{app}.{name}" for app, name in loader.disk_migrations)


def table_counts(using="default"):
    """{table: rows} of every table of the database."""
    return _counts(connections[using])


def _counts(connection):
    with connection.cursor() as cursor:
        counts = {}
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")  # noqa: S608
            counts[table] = cursor.fetchone()[0]
    return counts


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _license_root():
    return Path(license_storage().location)


def _license_files():
    """{archive name: path} of every license file."""
    root = _license_root()
    if not root.is_dir():
        return {}
    return {
        f"{LICENSE_FOLDER}/{path.relative_to(root).as_posix()}": path
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _pg_environment(using):
    """The libpq variables that reach the database of using, for pg_dump and pg_restore."""
    database = connections[using].settings_dict
    values = {
        "PGDATABASE": database["NAME"],
        "PGHOST": database.get("HOST"),
        "PGPORT": str(database.get("PORT") or ""),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGSSLMODE": database.get("OPTIONS", {}).get("sslmode"),
    }
    return os.environ | {name: value for name, value in values.items() if value}


def _run(command, *, using, progress, counted, total):
    """Run pg_dump or pg_restore with --verbose, reporting progress once per table it reaches (lines
    containing counted); raises BackupError with the tail of its output when it fails."""
    process = subprocess.Popen(  # noqa: S603
        command, env=_pg_environment(using), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    lines, done = [], 0
    for line in process.stderr:
        lines.append(line.rstrip())
        if counted in line:
            done += 1
            if done % max(1, total // 5) == 0:
                progress(f"{command[0]}: {done}/{total} tables")
    if process.wait():
        raise BackupError(f"{command[0]} failed: " + "\n".join(lines[-15:]))


def _database_copy(folder, *, using, progress):
    """Copy the database into folder, and count its rows as the copy holds them: (file name, counts)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        # The counts and pg_dump see one snapshot, exported by this transaction and held while pg_dump runs.
        with transaction.atomic(using=using), connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
            counts = table_counts(using)
            progress(f"database: {len(counts)} tables, {sum(counts.values())} rows; dumping")
            name = "database.dump"
            _run(
                ["pg_dump", "--format=custom", "--verbose", f"--snapshot={snapshot}", f"--file={folder / name}"],
                using=using,
                progress=progress,
                counted="dumping contents of table",
                total=len(counts),
            )
        return name, counts
    if connection.vendor == "sqlite":
        name = "database.sqlite3"
        # SQLite's online backup copies a consistent state even while other processes write.
        source = sqlite3.connect(connection.settings_dict["NAME"])
        target = sqlite3.connect(folder / name)
        try:
            source.backup(
                target,
                pages=4096,
                progress=lambda _status, left, total: progress(f"database: {total - left}/{total} pages"),
            )
        finally:
            source.close()
            target.close()
        copy = type(connection)(connection.settings_dict | {"NAME": str(folder / name)}, alias=f"{using}-copy")
        try:
            counts = _counts(copy)
        finally:
            copy.close()
        return name, counts
    raise BackupError(f"backups support PostgreSQL and SQLite, not {connection.vendor}")


def backup_write(directory, *, using="default", progress: Progress = _quiet):
    """Write one archive of the whole system into directory (created if missing) and return its path. The
    archive appears whole or not at all (written under a temporary name, then renamed)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    created = timezone.now()
    path = directory / f"{ARCHIVE_PREFIX}{created.astimezone(UTC):%Y%m%dT%H%M%S%fZ}.tar"
    with tempfile.TemporaryDirectory(dir=directory, prefix=".backup-") as work:
        folder = Path(work)
        migrations = migration_state(using)
        database, counts = _database_copy(folder, using=using, progress=progress)
        licenses = _license_files()
        progress(f"license files: {len(licenses)}; computing checksums")
        files = {database: _sha256(folder / database)} | {name: _sha256(file) for name, file in licenses.items()}
        manifest = {
            "format": ARCHIVE_FORMAT,
            "version": VERSION,
            "created_at": created.isoformat(),
            "database": {"engine": connections[using].vendor, "file": database},
            "migrations": migrations,
            "hub_environment": str(hub_environment_active()),
            "counts": counts,
            "files": files,
            "secrets": list(SECRETS),
        }
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
        partial = folder / "archive.tar"
        with tarfile.open(partial, "w") as archive:
            archive.add(folder / MANIFEST, MANIFEST)
            archive.add(folder / database, database)
            for number, (name, file) in enumerate(licenses.items(), 1):
                archive.add(file, name)
                if number % 1000 == 0:
                    progress(f"license files: {number}/{len(licenses)} archived")
        partial.rename(path)
    heartbeat(BACKUP_HEARTBEAT)
    logger.info(
        "backup %s written: %d bytes, %d rows, %d license files, %.1f s",
        path,
        path.stat().st_size,
        sum(counts.values()),
        len(licenses),
        time.monotonic() - started,
    )
    return path


def backups_purge(directory, *, keep):
    """Delete the oldest archives of directory beyond the newest keep. Returns how many were deleted."""
    archives = sorted(Path(directory).glob(f"{ARCHIVE_PREFIX}*.tar"), reverse=True)
    for old in archives[keep:]:
        old.unlink()
    return len(archives[keep:])


def backup_nightly():
    """The nightly backup into BACKUP_DIR, keeping the newest BACKUP_KEEP archives: the archive's path."""
    path = backup_write(settings.BACKUP_DIR)
    backups_purge(settings.BACKUP_DIR, keep=settings.BACKUP_KEEP)
    return path


def last_backup_at(using="default"):
    """When the last backup of the system of this database finished, or None (also before its first migrate)."""
    if Heartbeat._meta.db_table not in connections[using].introspection.table_names():
        return None
    return Heartbeat.objects.using(using).filter(name=BACKUP_HEARTBEAT).values_list("at", flat=True).first()


def manifest_read(archive_path):
    """The manifest of an archive; BackupError when the file is no archive of ours."""
    try:
        with tarfile.open(archive_path) as archive:
            member = archive.extractfile(MANIFEST)
            assert member is not None
            manifest = json.load(member)
    except (OSError, tarfile.TarError, KeyError, AssertionError, ValueError) as error:
        raise BackupError(f"{archive_path} is not a vendorhub backup archive: {error}") from error
    if manifest.get("format") != ARCHIVE_FORMAT:
        raise BackupError(
            f"{archive_path} has archive format {manifest.get('format')}; this release reads {ARCHIVE_FORMAT}."
        )
    return manifest


def restore_refusal(manifest, *, using="default"):
    """Why this code cannot restore an archive with this manifest into the database of using, with what
    to do instead; None when it can."""
    if manifest["version"] != VERSION:
        differs = f"The archive was written by vendorhub {manifest['version']}; this is vendorhub {VERSION}."
    elif manifest["migrations"] != code_migration_state():
        differs = (
            f"The archive's migration state differs from this code's (vendorhub {VERSION} both, or the hub"
            " sandbox enabled in one only: HUB_SANDBOX_ENABLED)."
        )
    else:
        differs = None
    if differs:
        return (
            f"{differs} Restore it with the release that wrote it, then upgrade the restored system to this one"
            " as any upgrade (`python manage.py upgrade_check`, then `python manage.py migrate`) and back it"
            " up again."
        )
    if manifest["database"]["engine"] != connections[using].vendor:
        engine = manifest["database"]["engine"]
        return f"The archive holds a {engine} database; this system runs on {connections[using].vendor}."
    with connections[using].cursor() as cursor:
        tables = connections[using].introspection.table_names(cursor)
    if tables:
        return (
            f"The database {connections[using].settings_dict['NAME']} is not empty ({len(tables)} tables): restore"
            " into a new database (createdb), never over a running system."
        )
    if _license_files():
        return f"The license folder {_license_root()} is not empty: restore into an empty one (LICENSE_FILES_ROOT)."
    return None


def _extract(archive_path, manifest, folder, progress):
    """Extract the archive's files into folder, checking that they are the manifest's, each with its checksum."""
    with tarfile.open(archive_path) as archive:
        members = [member for member in archive.getmembers() if member.name != MANIFEST]
        names = {member.name for member in members}
        if names != set(manifest["files"]):
            missing, extra = set(manifest["files"]) - names, names - set(manifest["files"])
            raise BackupError(
                f"the archive's files are not its manifest's: missing {sorted(missing)}, not listed {sorted(extra)}"
            )
        archive.extractall(folder, members=members, filter="data")
    for number, (name, checksum) in enumerate(manifest["files"].items(), 1):
        if _sha256(folder / name) != checksum:
            raise BackupError(f"{name} does not match its checksum: the archive is damaged")
        if number % 1000 == 0:
            progress(f"checksums: {number}/{len(manifest['files'])}")
    progress(f"checksums: all {len(manifest['files'])} files match")


def _database_load(folder, manifest, *, using, progress):
    connection = connections[using]
    source = folder / manifest["database"]["file"]
    if connection.vendor == "postgresql":
        connection.close()
        _run(
            [
                "pg_restore",
                "--verbose",
                "--exit-on-error",
                "--single-transaction",
                "--no-owner",
                "--no-privileges",
                f"--dbname={connection.settings_dict['NAME']}",
                str(source),
            ],
            using=using,
            progress=progress,
            counted="processing data for table",
            total=len(manifest["counts"]),
        )
    else:
        connection.close()
        shutil.copyfile(source, connection.settings_dict["NAME"])


def _work_released(using):
    """Free the leases and queued marks the backed-up system's workers and broker held: the sweepers then
    queue every pending change and waiting job at once. Returns (pending changes, waiting jobs)."""
    states, jobs = SyncState.objects.using(using), Job.objects.using(using)
    states.update(lease_until=None, lease_owner=None, lease_task=None, queued_at=None)
    jobs.update(lease_until=None, lease_task=None, queued_at=None)
    return states.filter(status=SyncStatus.PENDING).count(), jobs.filter(failed_at__isnull=True).count()


def backup_restore(archive_path, *, using="default", progress: Progress = _quiet):
    """Restore an archive into the empty database of using and the empty license folder; BackupError (and
    nothing written) when the archive cannot be restored here, or when a check fails after loading."""
    manifest = manifest_read(archive_path)
    if refusal := restore_refusal(manifest, using=using):
        raise BackupError(refusal)
    root = _license_root()
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root.parent, prefix=".restore-") as work:
        folder = Path(work)
        _extract(archive_path, manifest, folder, progress)
        progress("database: loading")
        _database_load(folder, manifest, using=using, progress=progress)
        counts = table_counts(using)
        if counts != manifest["counts"]:
            differ = {
                table: (manifest["counts"].get(table), counts.get(table))
                for table in set(counts) | set(manifest["counts"])
                if counts.get(table) != manifest["counts"].get(table)
            }
            raise BackupError(
                f"the restored tables do not hold the archive's rows (archive, restored): {differ}. Drop the"
                " database and restore into a new one."
            )
        progress(f"database: {len(counts)} tables, {sum(counts.values())} rows, as the manifest counts")
        licenses = folder / LICENSE_FOLDER
        if licenses.is_dir():
            for path in sorted(licenses.rglob("*")):
                target = root / path.relative_to(licenses)
                if path.is_dir():
                    target.mkdir(mode=0o700, exist_ok=True)
                else:
                    shutil.copyfile(path, target)
                    target.chmod(0o600)
    with transaction.atomic(using=using):
        pending, jobs = _work_released(using)
    logger.info(
        "restored %s: %d pending changes and %d jobs will be queued by the sweepers", archive_path, pending, jobs
    )
    return Restored(manifest, pending, jobs)
