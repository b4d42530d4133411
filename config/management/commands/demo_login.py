"""manage.py demo_login: once the web server answers and the start-up is over, the demo admin's login that
`seed_demo --keep-login` left, in a box: Procfile.dev's `login`, so that `make run` shows it last."""

import signal

from django.conf import settings
from django.core.management.base import BaseCommand

from config import demo_login


class Command(BaseCommand):
    help = "Wait for the web server, then show the demo admin's login that seed_demo --keep-login left (once)."

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=120.0, help="Seconds to wait for the web server.")
        parser.add_argument(
            "--keep-running",
            action="store_true",
            help="Then wait to be stopped (honcho stops every process when one of them ends).",
        )

    def handle(self, *args, timeout, keep_running, **options):
        if not demo_login.web_settled(settings.LOCAL_ORIGIN, timeout=timeout):
            self.stderr.write(f"The web server did not answer at {settings.LOCAL_ORIGIN} within {timeout:g} s.")
        login = demo_login.login_take() or [f"Log in at {settings.LOCAL_ORIGIN}/admin/"]
        self.stdout.write(self.style.SUCCESS(demo_login.login_box(login)))
        self.stdout.flush()
        while keep_running:
            signal.pause()
