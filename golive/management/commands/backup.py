"""manage.py backup: write one archive of the whole system (database, license files, manifest)."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from golive.backup import BackupError, backup_write, backups_purge


class Command(BaseCommand):
    help = (
        "Write one archive of the whole system: the database (pg_dump's custom format on PostgreSQL, a "
        "consistent copy on SQLite), the license files and a manifest. Secrets are not in it: keep them apart."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dir",
            default=settings.BACKUP_DIR,
            help="The folder the archive is written to (default BACKUP_DIR).",
        )
        parser.add_argument(
            "--keep",
            type=int,
            help="Then delete the oldest archives of the folder beyond this many (the nightly one keeps BACKUP_KEEP).",
        )

    def handle(self, *args, dir, keep, **options):
        if not dir:
            raise CommandError("Name the folder: --dir PATH, or set BACKUP_DIR.")
        started = time.monotonic()
        try:
            path = backup_write(dir, progress=self.stderr.write)
        except BackupError as error:
            raise CommandError(str(error)) from error
        if keep is not None:
            backups_purge(dir, keep=keep)
        self.stdout.write(
            f"{path} ({path.stat().st_size / 1e6:.1f} MB) written in {time.monotonic() - started:.1f} s. Restore needs"
            " it, the same release of vendorhub, and the secrets the manifest names (kept apart from the archive)."
        )
