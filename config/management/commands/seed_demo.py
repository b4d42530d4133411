"""manage.py seed_demo: create the demo property and admin user (idempotent), and say how to log in."""

from django.core.management.base import BaseCommand

from config.demo_login import demo_login_seed, login_keep


class Command(BaseCommand):
    help = (
        "Create the demo property and a demo admin user with recovery codes for the second step; a second run "
        "reuses them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--keep-login",
            action="store_true",
            help="Keep the login for `manage.py demo_login` (make run shows it once the web server answers) "
            "instead of printing it.",
        )

    def handle(self, *args, keep_login, **options):
        demo_property, created, login = demo_login_seed()
        self.stdout.write(f"Demo property: {demo_property}")
        if keep_login:
            login_keep(login, created=created)
            self.stdout.write("How to log in is shown once the web server answers.")
        else:
            self.stdout.write("\n".join(login))
