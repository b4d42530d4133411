"""manage.py restore: restore an archive of manage.py backup into an empty database and license folder."""

import time

from django.core.management.base import BaseCommand, CommandError

from golive.backup import BackupError, backup_restore


class Command(BaseCommand):
    help = (
        "Restore an archive written by manage.py backup into an empty database (DATABASE_URL) and an empty "
        "license folder (LICENSE_FILES_ROOT), checking every checksum and row count. The archive must be of "
        "this release and migration state. Work the backed-up system had not finished resumes by itself."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="The archive's path.")

    def handle(self, *args, archive, **options):
        started = time.monotonic()
        try:
            restored = backup_restore(archive, progress=self.stderr.write)
        except BackupError as error:
            raise CommandError(str(error)) from error
        manifest = restored.manifest
        self.stdout.write(
            f"Restored {archive} (vendorhub {manifest['version']}, written {manifest['created_at']}, hub"
            f" environment {manifest['hub_environment']}) in {time.monotonic() - started:.1f} s:"
            f" {sum(manifest['counts'].values())} rows, {len(manifest['files']) - 1} license files. Once the"
            f" worker and beat run, {restored.changes_pending} changes go to the hub and {restored.jobs_waiting}"
            f" jobs run. Set these before starting: {', '.join(manifest['secrets'])}."
        )
