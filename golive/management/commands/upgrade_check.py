"""manage.py upgrade_check: before `migrate`, what this release will migrate, and whether a backup is recent."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.version import VERSION
from golive.backup import BACKUP_MAX_AGE, last_backup_at
from golive.releases import upgrade_plan


class Command(BaseCommand):
    help = (
        "Run with the new release's code before `manage.py migrate`: lists the migrations it will apply "
        "(and which cannot be reversed), and fails when the database is of a newer release or the last "
        "backup is older than a day."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", default="default", help="The database to check (default: default).")

    def handle(self, *args, database, **options):
        plan, unknown = upgrade_plan(database)
        if unknown:
            raise CommandError(
                f"The database has migrations vendorhub {VERSION} does not know: {', '.join(unknown)}. It is of a"
                " newer release: run that release (or restore a backup of this one), never an older one."
            )
        if not plan:
            self.stdout.write(f"vendorhub {VERSION}: the database is up to date, nothing to migrate.")
        else:
            self.stdout.write(f"vendorhub {VERSION} will apply {len(plan)} migrations:")
            for migration, reversible in plan:
                note = "" if reversible else "  (cannot be reversed: a downgrade means restoring the backup)"
                self.stdout.write(f"  {migration.app_label}.{migration.name}{note}")
        backed_up = last_backup_at(database)
        if backed_up is None or timezone.now() - backed_up > BACKUP_MAX_AGE:
            when = "never" if backed_up is None else f"{_hours(backed_up)} hours ago"
            raise CommandError(
                f"The last backup finished {when}. Back up first (`python manage.py backup`), then migrate."
            )
        self.stdout.write(f"The last backup finished {_hours(backed_up)} hours ago. Next: `python manage.py migrate`.")


def _hours(moment):
    return f"{(timezone.now() - moment).total_seconds() / 3600:.1f}"
