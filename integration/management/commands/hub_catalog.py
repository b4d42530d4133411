"""manage.py hub_catalog: fetch the hub's code catalog now and print how many codes each group has."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from integration.catalog.selectors import catalog_counts
from integration.catalog.services.catalog import catalog_refresh
from integration.hub.client import HubError


class Command(BaseCommand):
    help = "Fetch the hub's code catalog (GET /meta, Korean and English), store it, and print the codes per group."

    def handle(self, *args, **options):
        try:
            snapshot = catalog_refresh()
        except HubError as error:
            raise CommandError(
                _("The code catalog could not be fetched: %(message)s") % {"message": error.message}
            ) from error
        counts = catalog_counts(snapshot)
        width = max(len(name) for name in [*counts, "total"])
        self.stdout.write(
            _("Code catalog fetched at %(time)s:") % {"time": snapshot.fetched_at.isoformat(timespec="seconds")}
        )
        for group, count in counts.items():
            self.stdout.write(f"  {group:<{width}}  {count:>4}")
        self.stdout.write(self.style.SUCCESS(f"  {'total':<{width}}  {sum(counts.values()):>4}"))
