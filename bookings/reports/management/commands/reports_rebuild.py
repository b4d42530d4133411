"""manage.py reports_rebuild: compute the reports' daily figures again from the bookings."""

from django.core.management.base import BaseCommand

from bookings.reports.figures import figures_rebuild


class Command(BaseCommand):
    help = (
        "Compute the reports' daily figures from the bookings (once after the upgrade that brings the reports;"
        " afterwards the booking services keep them)."
    )

    def handle(self, *args, **options):
        daily, pickup = figures_rebuild()
        self.stdout.write(f"{daily} daily figures and {pickup} pickup figures written.")
