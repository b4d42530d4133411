"""make docs-screens: the staff guide's screenshots, taken of the real screens in English and Korean.

The app runs as `make run` runs it, on data of its own: the demo (manage.py seed_demo) in a SQLite file of
a temporary folder, the sandbox as hub, a redis-server of its own as broker, web, one Celery worker for
every queue and beat. A few bookings are sold through the sandbox (arrivals today) and a month is
reconciled; then Debian's chromium, driven by Playwright, logs in as the demo admin in each language and
saves each screen of SCREENS at 1366 px to docs/assets/screens/<language>/<name>.png.

    .venv/bin/python -m tools.docs_screens            # every screen, both languages
    .venv/bin/python -m tools.docs_screens --serve    # set up, print the login and keep serving (Ctrl-C)
"""

import argparse
import datetime
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
OUTPUT = ROOT / "docs" / "assets" / "screens"
LANGUAGES = ("en", "ko")
VIEWPORT = {"width": 1366, "height": 768}
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
#: The variables of the product's configuration: none is inherited from the caller's environment.
PRODUCT_PREFIXES = ("DJANGO_", "HUB_", "VENDOR_", "CELERY_", "DATABASE_", "CACHE_", "LICENSE_", "LOG_", "BOOKING_")
PRODUCT_PREFIXES += ("EMAIL_", "SITE_URL", "ARI_", "PORT", "LOCAL_ORIGIN", "METRICS_", "SENTRY_")
#: The demo property's pk in the fresh database.
DEMO = 1


@dataclass(frozen=True)
class Screen:
    """One screenshot: the page at path (after action, when given, has run on it), as name.png."""

    name: str
    path: str
    #: The whole page rather than the first 768 px (only for short pages).
    full_page: bool = False
    #: A function of the Playwright page run after it loaded (clicks, fills), or None.
    action: object = None
    #: The page from its top down to the end of this element (a selector), rather than the window.
    down_to: str = ""


# --- The app, on data of its own ---------------------------------------------------------------------


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(what, check, timeout, interval=0.5):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"docs-screens: {what}: not within {timeout:.0f} s")
        time.sleep(interval)


class App:
    """The product as `make run` runs it, in folder: a context manager that stops every process it started."""

    def __init__(self, folder):
        self.folder = folder
        self.port = free_port()
        self.redis_port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.processes = []
        inherited = {key: value for key, value in os.environ.items() if not key.startswith(PRODUCT_PREFIXES)}
        self.env = {
            **inherited,
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "DJANGO_ENV_FILE": "",  # not the checkout's .env: these settings alone
            "DJANGO_DEBUG": "true",
            "HUB_SANDBOX_ENABLED": "true",
            # Nothing sells by itself (the screens stay as set up); the sandbox reviews channel requests at once.
            "HUB_SANDBOX_SELL_SECONDS": "0",
            "HUB_SANDBOX_CHANNEL_REVIEW_SECONDS": "0",
            # The hub's settlement list differs from ours for some bookings: the report has something to show.
            "HUB_SANDBOX_FAULTS": "settlement_drift_rate=0.5,settlement_drift=amount|status",
            "PORT": str(self.port),
            "LOCAL_ORIGIN": self.origin,
            "DATABASE_URL": f"sqlite:///{folder / 'vendorhub.sqlite3'}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/1",
            "LICENSE_FILES_ROOT": str(folder / "licenses"),
            "METRICS_DIR": str(folder / "metrics"),
            "EMAIL_FILE_PATH": str(folder / "mail"),
        }

    def start(self, command, name):
        log = (self.folder / f"{name}.log").open("ab")
        process = subprocess.Popen(  # noqa: S603 (our own commands)
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes.append(process)
        return process

    def manage(self, *args, timeout=300, check=True):
        """manage.py args, its output; a failure stops the script with it (or, unchecked, gives None)."""
        done = subprocess.run(  # noqa: S603 (manage.py of this checkout)
            [str(BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode and not check:
            return None
        if done.returncode:
            raise SystemExit(f"docs-screens: manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def __enter__(self):
        try:
            self._start_all()
        except BaseException:
            self.__exit__()  # a failed or interrupted start-up leaves no process behind
            raise
        return self

    def _start_all(self):
        redis = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", ""]
        self.start([*redis, "--appendonly", "no", "--dir", str(self.folder)], "redis")
        self.manage("migrate", "--noinput")
        self.login = self.manage("seed_demo")
        self.start([str(BIN / "python"), "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"], "web")
        celery = [str(BIN / "celery"), "-A", "config"]
        self.start(
            [*celery, "worker", "-Q", "hub,bookings,jobs,bulk", "-n", f"screens-{self.port}@%h", "--concurrency=2"],
            "worker",
        )
        self.start([*celery, "beat", "--schedule", str(self.folder / "beat-schedule")], "beat")
        wait_until("the web server", self.answers, timeout=60)
        wait_until("the demo at the hub", self.synced, timeout=180, interval=2)
        self.sell()

    def synced(self):
        """Whether the demo's first sends are done (the dashboard then shows every change at the hub)."""
        return "Nothing to send" in self.manage("hub_sync")

    def sell(self):
        """Today's arrivals, as the hub sells them: two confirmed, one canceled, and one arriving tomorrow.
        The first waits for the hub's approval of the channels to be read back (beat, every minute)."""
        today = korea_today()
        sales = [
            ("ondol", "confirm", today),
            ("daecheong-suite", "confirm", today),
            ("ondol", "cancel", today),
            ("family-annex", "confirm", today + datetime.timedelta(days=1)),
        ]
        for number, (room, then, checkin) in enumerate(sales):
            args = ("--roomtype", room, "--rateplan", f"{room}-room-only", "--then", then, "--checkin", str(checkin))
            if number == 0:
                wait_until("an open channel", partial(self.manage, "sandbox_sell", *args, check=False), 150, 5)
            else:
                self.manage("sandbox_sell", *args)

    def answers(self):
        try:
            with urllib.request.urlopen(f"{self.origin}/healthz", timeout=2) as answer:  # noqa: S310 (http, ours)
                return answer.status == 200
        except OSError:
            return False

    def __exit__(self, *exc):
        for process in reversed(self.processes):
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def credentials(self):
        """(username, password, [recovery codes]) from seed_demo's lines."""
        username, password = re.search(r"as (\S+) / (\S+)", self.login).groups()
        codes = re.findall(r"\b[a-z0-9]{8}\b", self.login.split("instead", 1)[1].split("Created", 1)[0])
        return username, password, codes


# --- The screens --------------------------------------------------------------------------------------


def korea_today():
    return datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9))).date()


def bulk_preview(page):
    """Fridays and Saturdays of the next four weeks, the room-only rates plus 10 % (the packages follow them):
    the preview, scrolled to."""
    today = korea_today()
    page.locator("input[name=ranges_from]").first.fill(today.isoformat())
    page.locator("input[name=ranges_to]").first.fill((today + datetime.timedelta(days=27)).isoformat())
    page.click("[data-weekdays='4,5']")
    for target in page.get_by_label(re.compile(r"-room-only$")).all():
        target.check()
    page.select_option("select[name=operation]", "increase_percent")
    page.fill("input[name=value]", "10")
    page.click("input[name=preview]")
    page.wait_for_load_state("networkidle")
    scroll_to(page, "#vh-bulk-preview", above=260)


def scroll_to(page, selector, above=0):
    """Scroll selector's first element to the top of the window, with above px of what precedes it."""
    page.locator(selector).first.evaluate(
        "(element, above) => { element.scrollIntoView(); scrollBy(0, -above); }", above
    )


def bulk_apply(page):
    """The preview above, applied: the calendar says what changed."""
    bulk_preview(page)
    page.locator("form [type=submit][name=apply]").click()
    page.wait_for_load_state("networkidle")


def history(page):
    """The calendar's change history (the change above first)."""
    page.locator("a[href$='/calendar/changes/']").first.click()
    page.wait_for_load_state("networkidle")


def undo_preview(page):
    """The change just applied, its undo previewed: what it restores and what it leaves."""
    page.locator("#content table a[href*='/calendar/changes/']").first.click()
    page.wait_for_load_state("networkidle")
    page.click("input[name=preview]")
    page.wait_for_load_state("networkidle")
    scroll_to(page, "#vh-undo-preview", above=240)


def copy_preview(page):
    """The next two weeks' rates of every rate plan copied 14 weeks on (past the demo's 90 days, so every
    cell changes): the preview, scrolled to."""
    first = korea_today() + datetime.timedelta(days=1)
    page.fill("input[name=source_from]", first.isoformat())
    page.fill("input[name=source_to]", (first + datetime.timedelta(days=13)).isoformat())
    page.fill("input[name=target_from]", (first + datetime.timedelta(weeks=14)).isoformat())
    page.click("[data-select='rp']")
    page.click("input[name=preview]")
    page.wait_for_load_state("networkidle")
    scroll_to(page, "#vh-bulk-preview", above=120)


def reconcile(page):
    """This month of the demo property, by check-in date, run to its end: the report."""
    today = korea_today()
    page.select_option("select[name=property]", str(DEMO))
    page.fill("input[name=date_from]", today.replace(day=1).isoformat())
    next_month = (today.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
    page.fill("input[name=date_to]", (next_month - datetime.timedelta(days=1)).isoformat())
    page.click("input[name=run]")
    page.wait_for_url(re.compile(r"/reconciliation/\d+/"))
    # The report's totals appear once the run has read the hub's list (the page polls; it reloads then).
    wait_until("the reconciliation", lambda: page.reload() and page.locator("#settlement-totals").count(), 60, 1)
    page.wait_for_load_state("networkidle")


def license_form(page):
    """The first choice of the upload: an accommodation permit's form."""
    page.locator("#content a, #content button").first.click()
    page.wait_for_load_state("networkidle")


CALENDAR = f"/admin/integration/property/{DEMO}/calendar/"
#: In the order the guide meets them; the dashboard first (README shows docs/assets/screens/en/dashboard.png).
SCREENS = [
    Screen("dashboard", "/admin/", down_to="section.property-dashboard"),
    Screen("arrivals", "/admin/bookings/booking/?desk=arrivals", full_page=True),
    Screen("booking", "/admin/bookings/booking/1/change/"),
    Screen("calendar", CALENDAR),
    Screen("bulk-edit-preview", CALENDAR + "bulk/", action=bulk_preview),
    Screen("bulk-edit-applied", CALENDAR + "bulk/", action=bulk_apply),
    Screen("copy-period-preview", CALENDAR + "copy/", action=copy_preview),
    Screen("change-history", CALENDAR, action=history),
    Screen("change-undo", CALENDAR + "changes/", action=undo_preview),
    Screen("license-upload", "/admin/licenses/licenserequest/add/", action=license_form),
    Screen("reconciliation", "/admin/settlement/reconciliation/add/", action=reconcile),
    Screen("channels", f"/admin/integration/propertychannel/property/{DEMO}/"),
    Screen("health", f"/admin/integration/property/{DEMO}/health/"),
    Screen("go-live-checklist", f"/admin/integration/property/{DEMO}/checklist/", full_page=True),
    Screen("hub-sync-states", "/admin/integration/syncstate/"),
    Screen("inbox", "/admin/inbox/event/", full_page=True),
    Screen("reports", "/admin/reports/dailyfigure/"),
    Screen("hub-switch", "/admin/integration/hubswitch/switch/", full_page=True),
]


def log_in(context, origin, username, password, code):
    """Log in as people do: the password, then a recovery code at the second step."""
    page = context.new_page()
    page.goto(f"{origin}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r"/admin/second-factor/"))
    page.fill("#id_code", code)
    page.click("form.vh-second-factor-form input[type=submit]")
    page.wait_for_selector("#user-tools")
    return page


def capture(app, screens, languages, output=OUTPUT):
    """Every screen of screens in each language, as output/<language>/<name>.png."""
    from playwright.sync_api import sync_playwright

    username, password, codes = app.credentials()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        for language, code in zip(languages, codes, strict=False):
            folder = output / language
            folder.mkdir(parents=True, exist_ok=True)
            context = browser.new_context(
                viewport=VIEWPORT, locale="ko-KR" if language == "ko" else "en-US", timezone_id="Asia/Seoul"
            )
            context.add_cookies([{"name": "django_language", "value": language, "url": app.origin}])
            # The admin's menu on the left folded away (as its « button does): the screen itself is the subject.
            context.add_init_script("localStorage.setItem('django.admin.navSidebarIsOpen', 'false')")
            page = log_in(context, app.origin, username, password, code)
            for screen in screens:
                page.goto(app.origin + screen.path)
                page.wait_for_load_state("networkidle")
                if screen.action is not None:
                    screen.action(page)
                page.mouse.move(0, 0)
                shot = {"path": str(folder / f"{screen.name}.png"), "full_page": screen.full_page}
                if screen.down_to:
                    bottom = page.locator(screen.down_to).first.evaluate(
                        "e => e.getBoundingClientRect().bottom + scrollY"
                    )
                    shot = {
                        **shot,
                        "full_page": True,
                        "clip": {"x": 0, "y": 0, "width": VIEWPORT["width"], "height": bottom + 24},
                    }
                page.screenshot(**shot)
                print(f"{language}/{screen.name}.png")
            context.close()
        browser.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="set up, print the login and serve until Ctrl-C")
    parser.add_argument("--only", nargs="*", default=None, help="only these screens (names)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vendorhub-screens-") as folder, App(Path(folder)) as app:
        if args.serve:
            print(app.origin, app.login, sep="\n", flush=True)
            stop = {signal.SIGINT, signal.SIGTERM}
            signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # taken by sigwait, so that the processes are stopped
            signal.sigwait(stop)
            return
        screens = [screen for screen in SCREENS if args.only is None or screen.name in args.only]
        capture(app, screens, LANGUAGES)


if __name__ == "__main__":
    main()
