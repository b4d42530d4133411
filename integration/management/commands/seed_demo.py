"""manage.py seed_demo: create the demo property and admin user (idempotent)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from integration.demo import demo_seed


class Command(BaseCommand):
    help = "Create the demo property and a demo admin user; a second run reuses them."

    def handle(self, *args, **options):
        result = demo_seed()
        self.stdout.write(f"Demo property: {result.property}")
        if result.admin_password:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Created the admin user. Log in at {settings.LOCAL_ORIGIN}/admin/ as "
                    f"{result.admin_username} / {result.admin_password}  (shown only this once)"
                )
            )
        else:
            self.stdout.write(
                f"The admin user '{result.admin_username}' already exists. To set a new password: "
                f".venv/bin/python manage.py changepassword {result.admin_username}"
            )
