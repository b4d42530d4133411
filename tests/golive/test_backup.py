"""Backup and restore (golive.backup): the archive and its manifest, the refusals of a restore, and the
restore drill on PostgreSQL: a populated system backed up, restored into a new database, compared table by
table, then drained by a worker at the sandbox hub, which receives only what was pending."""

import io
import os
import re
import subprocess
import sys
import tarfile
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.db.models import Q

from core.background.jobs import job_sweep
from core.models import Job
from core.version import VERSION
from golive import backup
from golive.backup import BackupError, backup_restore, backup_write, backups_purge, manifest_read
from golive.tasks import backup_nightly_task
from hubsandbox.models import SandboxRequest
from integration.content.models import Property
from integration.content.services import content_saved
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_mark_changed, sync_state_ensure, sync_sweep
from licenses.models import LicenseRequest
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.factories import UserFactory
from tests.hub_fixtures import all_synced, wait_until
from tests.licenses.factories import submit_permit
from tests.licenses.files import pdf_of_size

RESTORED = "restored"
#: Columns a restore clears: what the backed-up system's workers and broker held (leases, queued marks).
CLEARED = {
    "integration_syncstate": {"lease_until", "lease_owner", "lease_task", "queued_at"},
    "core_job": {"lease_until", "lease_task", "queued_at"},
}
#: Written after the copy (the finished backup's heartbeat): the one table a restore cannot match.
WRITTEN_AFTER = {"core_heartbeat"}


@pytest.fixture
def licenses_root(settings, tmp_path):
    settings.LICENSE_FILES_ROOT = tmp_path / "licenses"
    return settings.LICENSE_FILES_ROOT


@pytest.fixture
def restored_database(tmp_path):
    """A second, empty database on the same server (a file on SQLite), as the alias RESTORED."""
    source = connection.settings_dict
    if connection.vendor == "postgresql":
        name = f"{source['NAME']}_restored"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
    else:
        name = str(tmp_path / "restored.sqlite3")
    # Not among settings.DATABASES: a connection made in the test, which Django lets it use.
    connections[RESTORED] = type(connections["default"])(source | {"NAME": name}, alias=RESTORED)
    try:
        yield name
    finally:
        connections[RESTORED].close()
        del connections[RESTORED]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _rows(alias, table):
    """Every row of table as the database of alias holds it (the columns a restore clears left out), sorted."""
    conn = connections[alias]
    with conn.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {conn.ops.quote_name(table)}")  # noqa: S608
        columns = [column[0] for column in cursor.description]
        kept = [i for i, column in enumerate(columns) if column not in CLEARED.get(table, set())]
        return sorted((tuple(row[i] for i in kept) for row in cursor.fetchall()), key=repr)


def _the_same_tables(alias):
    tables = set(backup.table_counts()) - WRITTEN_AFTER
    assert tables == set(backup.table_counts(alias)) - WRITTEN_AFTER
    differing = [table for table in sorted(tables) if _rows("default", table) != _rows(alias, table)]
    assert differing == []


@pytest.mark.subprocess  # pg_dump and pg_restore on PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_an_archive_holds_the_database_the_license_files_and_a_manifest_without_secrets(licenses_root, tmp_path):
    request = submit_permit(Property.objects.create(vendor_id="seochon", name="서촌"), content=pdf_of_size(20_000))

    path = backup_write(tmp_path / "backups")

    manifest = manifest_read(path)
    file_name = f"license_files/{request.file.name}"
    assert manifest["version"] == VERSION
    assert manifest["migrations"] == backup.code_migration_state()
    assert manifest["hub_environment"] == "staging"
    assert manifest["counts"]["licenses_licenserequest"] == 1
    assert manifest["counts"]["integration_property"] == 1
    assert set(manifest["files"]) == {manifest["database"]["file"], file_name}
    assert "VENDOR_API_SECRET" in manifest["secrets"]
    with tarfile.open(path) as archive:
        assert archive.extractfile(file_name).read() == request.file.open("rb").read()
    content = path.read_bytes()
    for secret in (
        settings.SECRET_KEY,
        settings.HUB_API_TOKEN,
        settings.VENDOR_API_TOKEN,
        *settings.VENDOR_API_SECRETS,
    ):
        assert secret.encode() not in content
    assert backup.last_backup_at() is not None


@pytest.mark.subprocess  # pg_dump and pg_restore on PostgreSQL
@pytest.mark.django_db(transaction=True, databases=["default"])
def test_a_restore_into_an_empty_database_has_every_row_and_file(licenses_root, restored_database, tmp_path, settings):
    request = submit_permit(Property.objects.create(vendor_id="seochon", name="서촌"), content=pdf_of_size(20_000))
    path = backup_write(tmp_path / "backups")
    settings.LICENSE_FILES_ROOT = tmp_path / "restored-licenses"

    restored = backup_restore(path, using=RESTORED)

    assert restored.changes_pending == 1  # the license, never sent
    _the_same_tables(RESTORED)
    assert (settings.LICENSE_FILES_ROOT / request.file.name).read_bytes() == pdf_of_size(20_000)


@pytest.mark.subprocess  # pg_dump and pg_restore on PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_a_restore_refuses_an_archive_of_another_release_a_database_not_empty_and_a_damaged_file(
    licenses_root, tmp_path, monkeypatch
):
    path = backup_write(tmp_path / "backups")

    with pytest.raises(BackupError, match="not empty"):
        backup_restore(path)

    monkeypatch.setattr(backup, "VERSION", "0.9.0")
    with pytest.raises(
        CommandError,
        match=rf"written by vendorhub {re.escape(VERSION)}; this is vendorhub 0\.9\.0\. .* then upgrade"
        r" .*manage.py migrate",
    ):
        call_command("restore", str(path))
    monkeypatch.undo()
    monkeypatch.setattr(backup, "code_migration_state", lambda: [*manifest_read(path)["migrations"], "core.0004_next"])
    with pytest.raises(BackupError, match="migration state differs"):
        backup_restore(path)

    damaged = tmp_path / "damaged.tar"
    with tarfile.open(path) as source, tarfile.open(damaged, "w") as target:
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name != "manifest.json":
                data = data[:-1] + bytes([data[-1] ^ 1])
            target.addfile(member, io.BytesIO(data))
    with pytest.raises(BackupError, match="does not match its checksum"):
        backup._extract(damaged, manifest_read(damaged), tmp_path / "extracted", print)


def test_the_retention_keeps_the_newest_archives(tmp_path):
    for stamp in ("20261101T030000Z", "20261102T030000Z", "20261103T030000Z"):
        (tmp_path / f"vendorhub-backup-{stamp}.tar").write_bytes(b"")
    (tmp_path / "other.tar").write_bytes(b"")

    assert backups_purge(tmp_path, keep=2) == 1

    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "other.tar",
        "vendorhub-backup-20261102T030000Z.tar",
        "vendorhub-backup-20261103T030000Z.tar",
    ]


def _swept():
    """The sweeps beat runs every few seconds (the hub sync's and the durable jobs'); true."""
    sync_sweep()
    job_sweep()
    return True


@pytest.mark.subprocess  # pg_dump and pg_restore
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_restore_drill(request, hub, client, licenses_root, restored_database, tmp_path, settings):
    """The drill: the demo, a booking, licenses with files, changes the hub acknowledged and changes not yet
    sent; backed up, restored into a new database, the same table by table; then a worker at the new
    database sends only what was pending, and the durable jobs run."""
    call_command("seed_demo", stdout=StringIO())
    demo = Property.objects.get(vendor_id="demo-seochon-hanok")
    room_type, plan, package = sellable()
    for obj in (room_type.property, room_type, plan.model, plan, package.model, package):
        sync_mark_changed(obj)
    submit_permit(demo, content=pdf_of_size(30_000))
    call_command("hub_sync", stdout=StringIO())  # all of it acknowledged by the hub
    assert all_synced()
    HubClient(client).post("/bookings", create_body(plan))  # its e-mail is a durable job
    demo.translations.filter(locale="ko-KR").update(name="서촌 한옥 (복원 훈련)")
    content_saved(obj=demo, created=False, user=UserFactory())
    second = submit_permit(demo, content=pdf_of_size(40_000), permit_number="제2024-0002호")
    pending = set(SyncState.objects.filter(status=SyncStatus.PENDING).values_list("pk", flat=True))
    # The property's new name, the second license, the availability the booking took.
    assert {sync_state_ensure(demo).pk, sync_state_ensure(second).pk} < pending
    assert Job.objects.exists()
    attempts_before = SyncAttempt.objects.order_by("-pk").values_list("pk", flat=True).first()
    hub_requests_before = SandboxRequest.objects.order_by("-pk").values_list("pk", flat=True).first()

    path = backup_write(tmp_path / "backups")
    settings.LICENSE_FILES_ROOT = tmp_path / "restored-licenses"
    restored = backup_restore(path, using=RESTORED)

    assert (restored.changes_pending, restored.jobs_waiting) == (len(pending), Job.objects.count())
    # What the old system's broker and workers held is freed: the first sweeps queue it all at once.
    assert SyncState.objects.filter(pk__in=pending, queued_at__isnull=False).exists()
    for model in (SyncState, Job):
        held = model.objects.using(RESTORED).filter(Q(queued_at__isnull=False) | Q(lease_until__isnull=False))
        assert not held.exists(), model
    _the_same_tables(RESTORED)
    assert (settings.LICENSE_FILES_ROOT / second.file.name).read_bytes() == pdf_of_size(40_000)
    assert LicenseRequest.objects.using(RESTORED).count() == 2

    # The new system: every process (this one, the worker, the hub's server) on the restored database,
    # a broker that holds none of the old messages, the sweeps beat runs.
    source_name = connection.settings_dict["NAME"]
    for conn in connections.all():
        conn.close()
    connection.settings_dict["NAME"] = restored_database
    try:
        request.getfixturevalue("worker")
        wait_until(lambda: _swept() and all_synced(), interval=1, message="the pending changes at the hub")
        wait_until(lambda: _swept() and not Job.objects.exists(), interval=1, message="the durable jobs run")
        sent = set(SyncAttempt.objects.filter(pk__gt=attempts_before).values_list("state_id", flat=True))
        assert sent == pending
        # The hub was written to once per pending change, and only read besides (the jobs' read-backs).
        written = SandboxRequest.objects.filter(pk__gt=hub_requests_before).exclude(method="GET")
        assert written.count() == len(pending)
    finally:
        for conn in connections.all():
            conn.close()
        connection.settings_dict["NAME"] = source_name


@pytest.mark.django_db(transaction=True)
@pytest.mark.subprocess  # pg_dump on PostgreSQL
def test_the_nightly_backup_writes_into_backup_dir_and_keeps_backup_keep(licenses_root, settings, tmp_path):
    settings.BACKUP_DIR, settings.BACKUP_KEEP = str(tmp_path / "nightly"), 2

    for _run in range(3):
        backup_nightly_task.apply()

    assert len(list((tmp_path / "nightly").glob("vendorhub-backup-*.tar"))) == 2


@pytest.mark.subprocess
def test_beat_runs_the_nightly_backup_on_the_bulk_queue_only_when_backup_dir_is_set(tmp_path):
    def schedule(**env):
        code = "from django.conf import settings as s; print(s.CELERY_BEAT_SCHEDULE.get('backup-nightly'))"
        environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_ENV_FILE": "", **env}
        return subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=settings.BASE_DIR,
            env={name: value for name, value in environment.items() if name != "BACKUP_DIR" or "BACKUP_DIR" in env},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()[-1]

    assert schedule() == "None"
    entry = schedule(BACKUP_DIR=str(tmp_path))
    assert "golive.tasks.backup_nightly_task" in entry
    assert "<crontab: 0 3 * * * (m/h/dM/MY/d)>" in entry
    assert settings.CELERY_TASK_ROUTES[backup_nightly_task.name] == {"queue": "bulk"}
