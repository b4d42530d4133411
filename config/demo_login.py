"""The demo admin's first login in development: what seed_demo made (the password, recovery codes for
the second step) and, under `make run`, the box that shows it once the web server answers, last in the
output instead of buried under the workers' start-up (Procfile.dev's `login`)."""

import time
import urllib.error
import urllib.request

from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.services import recovery_codes_renew
from integration.demo import demo_seed

from .health import system_health

#: Where seed_demo, told to keep the login for the box, leaves it until the box shows it (once).
LOGIN_FILE = settings.VAR_DIR / "demo-login.txt"


def demo_login_seed():
    """Seed the demo (integration.demo); when that created the admin, give them recovery codes, so that
    the second step can be passed before an authenticator app is set up. (The demo property, whether it
    created the admin, the lines that say how to log in): a password and codes appear only this once."""
    result = demo_seed()
    admin_url = f"{settings.LOCAL_ORIGIN}/admin/"
    if result.admin_password is None:
        return (
            result.property,
            False,
            [
                f"Log in at {admin_url} as {result.admin_username}. To set a new password:",
                f".venv/bin/python manage.py changepassword {result.admin_username}",
            ],
        )
    admin = get_user_model().objects.get(username=result.admin_username)
    codes = recovery_codes_renew(user=admin)
    half = len(codes) // 2
    return (
        result.property,
        True,
        [
            f"Log in at {admin_url} as {result.admin_username} / {result.admin_password}",
            "The second step asks for an authenticator app's code; until you set one up, type one of these",
            "recovery codes instead (each works once):",
            "  " + "  ".join(codes[:half]),
            "  " + "  ".join(codes[half:]),
            "Created the admin user: the password and codes are shown only this once.",
        ],
    )


def login_keep(lines, *, created):
    """Leave the login for the box (readable by this user only). A password not shown yet (make run was
    stopped before the web server answered) stays until shown, over a later run's lines without one."""
    if not created and LOGIN_FILE.exists():
        return
    LOGIN_FILE.parent.mkdir(parents=True, exist_ok=True)
    LOGIN_FILE.touch(mode=0o600)
    LOGIN_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def login_take():
    """The login seed_demo left, removed as it is read (shown once); None when there is none."""
    try:
        text = LOGIN_FILE.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    LOGIN_FILE.unlink()
    return text.splitlines()


def login_box(lines):
    """lines framed, so that they stand out in a terminal full of logs."""
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    return "\n".join([rule, *(f"| {line.ljust(width)} |" for line in lines), rule])


def web_settled(origin, *, timeout, interval=0.5):
    """Wait until the web server at origin answers and the deep health (read here: the same database and
    cache; the web server gives its details to the metrics scraper alone) says that both workers run and
    nothing waits for the hub or as a job: the start-up's logs (banners, the demo's first sends) are then
    over. At most timeout seconds; whether the web server answered at all."""
    deadline = time.monotonic() + timeout
    answered = False
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{origin}/healthz", timeout=5):  # noqa: S310 (ours)
                answered = True
        except urllib.error.HTTPError:  # 503: it answers, its database does not (yet)
            answered = True
        except OSError:
            pass
        if answered:
            parts = system_health(deep=True)
            if (
                "worker" in parts
                and parts["worker"].ok
                and parts["outbox"].details["pending"] == 0
                and parts["jobs"].details["waiting"] == 0
            ):
                return True
        time.sleep(interval)
    return answered
