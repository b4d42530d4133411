"""The product as it is deployed, for the journey test: a database of its own (created, migrated by
`manage.py migrate`, dropped), a redis-server of its own on a free port (broker db 0, cache db 1) that the
journey can kill and start again empty, production settings (as .ci/production-smoke sets them, with the
sandbox served by the same gunicorn as both hubs and Django's file e-mail backend), and every process of
Procfile (web, the workers of each queue, beat), each in its own process group with its log in a file.
Also what a user's side needs: a signed vendor API client, an admin session that fills forms as a browser
does, and the mail folder.
"""

import base64
import datetime
import email
import email.policy
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit
from zoneinfo import ZoneInfo

import psycopg
import redis
import requests
from django_otp.oath import TOTP

from tests.bookings.signing import sign

ROOT = Path(__file__).resolve().parents[2]
#: The shared virtualenv's bin: gunicorn, celery and python come from it.
BIN = Path(sys.executable).parent
#: Every process of the Procfile is started (web, the workers of each queue, beat); these must be there.
REQUIRED_PROCESSES = ("web", "worker", "jobs", "beat")
#: The variables of the product's configuration: none is inherited from the caller's environment.
PRODUCT_PREFIXES = ("DJANGO_", "HUB_", "VENDOR_", "CELERY_", "DATABASE_", "CACHE_", "LICENSE_", "LOG_", "BOOKING_")
PRODUCT_PREFIXES += ("EMAIL_", "DEFAULT_FROM_EMAIL", "SITE_URL", "ARI_", "PORT", "WEB_CONCURRENCY")
PRODUCT_PREFIXES += ("METRICS_", "SENTRY_", "PROMETHEUS_", "BULK_CONCURRENCY", "JOBS_CONCURRENCY")
LOG_TAIL_LINES = 30
STOP_SECONDS = 15
KOREA = ZoneInfo("Asia/Seoul")


class StepFailure(Exception):
    """A step of the journey did not see what it waited for; the message says what."""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(what, check, timeout, interval=0.25):
    """check()'s first truthy answer, polled; after timeout seconds StepFailure saying what was awaited
    (what: a text, or a function that tells what is still missing then)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise StepFailure(what() if callable(what) else f"{what}: not within {timeout:.0f} s")
        time.sleep(interval)


def procfile_processes():
    """{name: command} of every process of the Procfile, in its order (its release command is no process)."""
    lines = (ROOT / "Procfile").read_text().splitlines()
    processes = dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))
    processes.pop("release", None)
    missing = [name for name in REQUIRED_PROCESSES if name not in processes]
    if missing:
        raise StepFailure(f"Procfile has no {', '.join(missing)} process")
    return processes


def _tail(path, lines=LOG_TAIL_LINES):
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


def _stop_group(process, timeout=STOP_SECONDS):
    """TERM the process's group (its children too), then KILL what is left."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, signum)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait()


class RedisServer:
    """A redis-server of the journey's own, without persistence: started again, it is empty."""

    def __init__(self, folder):
        self.port = free_port()
        self.folder = folder
        self.log = folder / "redis.log"
        self.process = None

    def url(self, db):
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self):
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "--dir", str(self.folder)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until(f"redis-server answering on port {self.port}", self.answers, timeout=10)

    def answers(self):
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def kill(self):
        """SIGKILL: Redis dies at once, as in a crash, and loses everything it held."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.kill()


class Deployment:
    """The product in production mode on this machine; a context manager that stops everything."""

    def __init__(self, folder, *, postgres_server, database):
        self.folder = folder
        self.postgres_server = postgres_server.rstrip("/")
        self.database = database
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.redis = RedisServer(folder)
        self.mail_folder = folder / "mail"
        self.processes = {}
        self.vendor_token = secrets.token_urlsafe(32)
        self.vendor_secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
        self.env = self._environment()

    def _environment(self):
        inherited = {key: value for key, value in os.environ.items() if not key.startswith(PRODUCT_PREFIXES)}
        return {
            **inherited,
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": "2",
            "DJANGO_DEBUG": "false",
            "DJANGO_ENV_FILE": "",  # as production: no checkout's .env
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(48),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            # Nothing terminates TLS here: the worker reaches the sandbox over plain http (as production-smoke).
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": f"{self.postgres_server}/{self.database}",
            "CELERY_BROKER_URL": self.redis.url(0),
            "CACHE_URL": self.redis.url(1),
            "HUB_SANDBOX_ENABLED": "true",
            "HUB_SANDBOX_VENDOR_URL": self.base_url,
            # Nothing sells by itself, and the sandbox approves open requests at once.
            "HUB_SANDBOX_SELL_SECONDS": "0",
            "HUB_SANDBOX_CHANNEL_REVIEW_SECONDS": "0",
            "HUB_BASE_URL": f"{self.base_url}/sandbox",
            "HUB_API_TOKEN": secrets.token_urlsafe(32),
            "HUB_PRODUCTION_BASE_URL": f"{self.base_url}/sandbox/production",
            "HUB_PRODUCTION_API_TOKEN": secrets.token_urlsafe(32),
            "VENDOR_API_TOKEN": self.vendor_token,
            "VENDOR_API_SECRET": self.vendor_secret,
            "LICENSE_FILES_ROOT": str(self.folder / "licenses"),
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(self.mail_folder),
            "LOG_FORMAT": "plain",
        }

    # --- Life cycle -----------------------------------------------------------------------------------

    def __enter__(self):
        try:
            self._sql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            self._sql(f'CREATE DATABASE "{self.database}"')
            self.redis.start()
            self.manage("migrate", "--noinput", timeout=300)
            self.manage("collectstatic", "--noinput", timeout=120)
            (self.folder / "var").mkdir()
            for name in procfile_processes():
                self.start(name)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc_info):
        for process in self.processes.values():
            _stop_group(process)
        self.redis.stop()
        self._sql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    def _sql(self, statement):
        with psycopg.connect(f"{self.postgres_server}/postgres", autocommit=True) as connection:
            connection.execute(statement)

    def start(self, name):
        """Start Procfile's `name` process in its own process group, from the journey's folder (beat's
        schedule file, var/celerybeat-schedule, lands there), its output appended to <name>.log."""
        with (self.folder / f"{name}.log").open("ab") as log:
            self.processes[name] = subprocess.Popen(
                ["sh", "-c", f"exec {procfile_processes()[name]}"],
                cwd=self.folder,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def dead(self):
        """The Procfile processes that have exited."""
        return [name for name, process in self.processes.items() if process.poll() is not None]

    def require_alive(self):
        if dead := self.dead():
            raise StepFailure(f"the {', '.join(dead)} process exited")

    def tails(self):
        """The last lines of every log, for a failure's report."""
        names = [*self.processes, "redis"]
        return "\n".join(f"----- tail of {name}.log\n{_tail(self.folder / f'{name}.log')}" for name in names)

    # --- Commands inside the product ----------------------------------------------------------------------

    def manage(self, *args, timeout=120):
        """Run manage.py with the product's environment; its output, or StepFailure with its tail."""
        try:
            result = subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=ROOT,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as expired:
            raise StepFailure(f"manage.py {args[0]} did not finish within {timeout} s") from expired
        if result.returncode != 0:
            output = "\n".join((result.stdout + result.stderr).splitlines()[-LOG_TAIL_LINES:])
            raise StepFailure(f"manage.py {args[0]} failed:\n{output}")
        return result.stdout

    def probe(self, name, **arguments):
        """Run tests.journey.probes' `name` in a `manage.py shell` of the product; its JSON answer."""
        code = f"from tests.journey.probes import main; main({name!r}, {json.dumps(arguments)!r})"
        try:
            output = self.manage("shell", "--no-imports", "-c", code, timeout=arguments.get("timeout", 0) + 60)
        except StepFailure as failure:
            raise StepFailure(str(failure).replace("manage.py shell failed:\n", f"probe {name}: ")) from None
        return json.loads(output.strip().splitlines()[-1])

    # --- A user's side ----------------------------------------------------------------------------------

    def url(self, path):
        return urljoin(self.base_url, path)

    def vendor_api(self):
        return VendorApi(self.base_url, token=self.vendor_token, secret=self.vendor_secret)

    def browser(self):
        return AdminBrowser(self.base_url)

    def mails(self):
        """Every mail the file backend wrote: [{"to", "subject", "body"}]."""
        found = []
        for path in sorted(self.mail_folder.glob("*.log")):
            for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    message = email.message_from_bytes(chunk, policy=email.policy.default)
                    body = message.get_body(preferencelist=("plain",))
                    found.append(
                        {
                            "to": str(message["To"]),
                            "subject": str(message["Subject"]),
                            "body": body.get_content() if body else "",
                        }
                    )
        return found


class VendorApi:
    """Calls our vendor API as the hub does (bearer token, Standard Webhooks signature)."""

    def __init__(self, base_url, *, token, secret, timeout=20):
        self.base_url, self.token, self.secret, self.timeout = base_url, token, secret, timeout
        self.session = requests.Session()

    def call(self, method, path, body=None):
        """(HTTP status, JSON answer or {"raw": text}); status None when no answer came."""
        raw = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        webhook_id = f"msg_{secrets.token_hex(16)}"
        timestamp = int(time.time())
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "webhook-id": webhook_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(raw, webhook_id=webhook_id, timestamp=timestamp, secret=self.secret),
        }
        try:
            response = self.session.request(
                method, self.base_url + path, data=raw, headers=headers, timeout=self.timeout
            )
        except requests.RequestException as error:
            return None, {"raw": f"no answer: {error.__class__.__name__}"}
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, {"raw": response.text[:500]}


def create_body(sale, *, checkin, number):
    """The hub's create for one night of sale's rate plan (sale: the seed's ids, rates and channel)."""
    night = checkin.isoformat()
    amount = sale["rates"][night]
    checkout = checkin + datetime.timedelta(days=1)
    return {
        "channel_id": sale["channel_id"],
        "channel_name": sale["channel_name"],
        "channel_booking_number": f"JRN-CH-{number}",
        "gds_booking_number": f"JRN-{number}",
        "gds_sub_booking_number": f"JRN-{number}-1",
        "property_id": sale["property_id"],
        "roomtype_id": sale["roomtype_id"],
        "rateplan_id": sale["rateplan_id"],
        "type": "overnight",
        "checkin": datetime.datetime.combine(checkin, datetime.time(15), tzinfo=KOREA).isoformat(),
        "checkout": datetime.datetime.combine(checkout, datetime.time(11), tzinfo=KOREA).isoformat(),
        "currency": "KRW",
        "amount": amount,
        "rates": [{"date": night, "amount": amount}],
        "total_amount": amount,
        "net_price": amount * 9 // 10,
        "payment_type": "prepayment",
        "guest": {"name": f"Journey guest {number}", "adults": 2, "children": 0, "infants": 0, "pets": 0, "cars": 0},
        "booker": {"name": f"Journey guest {number}", "email": "guest@example.com", "phone": "010-0000-0000"},
        "reserved_at": datetime.datetime.now(tz=KOREA).isoformat(timespec="seconds"),
    }


class _FormParser(HTMLParser):
    """The forms of a page: their attributes and the (name, value) pairs a browser would submit unchanged."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self._select = None  # [name, multiple, options [(value, selected)]]
        self._option = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": attrs, "fields": []})
        elif not self.forms:
            return
        elif tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" in attrs:
                self._field(attrs["name"], attrs.get("value", "on"))
            elif kind not in ("checkbox", "radio", "submit", "button", "image", "reset", "file"):
                self._field(attrs["name"], attrs.get("value") or "")
        elif tag == "select" and attrs.get("name"):
            self._select = [attrs["name"], "multiple" in attrs, []]
        elif tag == "option" and self._select is not None:
            self._option = [attrs.get("value"), "selected" in attrs, ""]
            self._select[2].append(self._option)
        elif tag == "textarea" and attrs.get("name"):
            self._textarea = [attrs["name"], ""]

    def handle_data(self, data):
        if self._option is not None:
            self._option[2] += data
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None:
            name, multiple, options = self._select
            values = [value if value is not None else text.strip() for value, selected, text in options if selected]
            if not values and not multiple and options:
                first = options[0]
                values = [first[0] if first[0] is not None else first[2].strip()]
            for value in values:
                self._field(name, value)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._field(self._textarea[0], self._textarea[1].removeprefix("\n"))
            self._textarea = None

    def _field(self, name, value):
        self.forms[-1]["fields"].append((name, value))


class _ErrorParser(HTMLParser):
    """The text of a page's form errors (Django's errorlist and errornote)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.texts = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self.depth or {"errorlist", "errornote"} & set(classes):
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth and data.strip():
            self.texts.append(data.strip())


class AdminBrowser:
    """A person in the admin through HTTP: a cookie session, CSRF tokens from the pages, forms submitted
    with the values the page holds and the person's changes. It comes as through the balancer that
    terminates TLS (X-Forwarded-Proto: https), so that the Secure cookies production sets are kept."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.secure_origin = "https://" + urlsplit(base_url).netloc
        self.session = requests.Session()
        self.session.headers.update({"X-Forwarded-Proto": "https", "Accept-Language": "ko"})
        self.otp_key = None  # the key of this person's authenticator app, once set up

    def _request(self, method, url, **kwargs):
        response = self.session.request(method, url, allow_redirects=False, timeout=60, **kwargs)
        # Production's cookies are Secure: the browser has them over the balancer's TLS, which this session
        # stands in for. requests would not send them back over plain http, so they are kept as plain ones.
        for cookie in self.session.cookies:
            cookie.secure = False
        return response

    def get(self, path):
        response = self._request("GET", urljoin(self.base_url, path))
        if response.status_code != 200:
            raise StepFailure(f"GET {path} answered {response.status_code}")
        return response

    def form(self, path):
        """(action, fields) of the page's own form: the first that posts to the page (the header's log-out
        and language forms post elsewhere)."""
        page = self.get(path)
        parser = _FormParser()
        parser.feed(page.text)
        for form in parser.forms:
            action = urljoin(page.url, form["attrs"].get("action") or "")
            if (
                form["attrs"].get("method", "get").lower() == "post"
                and urlsplit(action).path == urlsplit(page.url).path
            ):
                return action, form["fields"]
        raise StepFailure(f"no form posting to {path} on its page")

    def submit(self, path, changes=()):
        """Fill the form of path as the page has it, apply changes ({name: value}), post it and answer
        where it redirected to; StepFailure with the form's errors when it did not redirect."""
        action, fields = self.form(path)
        changes = dict(changes)
        data = [(name, changes.pop(name) if name in changes else value) for name, value in fields]
        data += list(changes.items())
        response = self._request("POST", action, data=data, headers={"Referer": self.secure_origin + path})
        if response.status_code != 302:
            errors = _ErrorParser()
            errors.feed(response.text)
            raise StepFailure(f"POST {action} answered {response.status_code}: {' '.join(errors.texts)[:500]}")
        return urlsplit(urljoin(self.base_url, response.headers["Location"])).path

    def log_in(self, username, password):
        landed = self.submit("/admin/login/?next=/admin/", {"username": username, "password": password})
        if landed != "/admin/":
            raise StepFailure(f"{username} could not log in: the login page sent them to {landed}")
        self.second_factor(username)

    def second_factor(self, username):
        """After the password, as superusers and managers do: the first time, set up two-step login with the
        key the page shows (an authenticator app's part: its code is computed here); later, type a code."""
        response = self._request("GET", urljoin(self.base_url, "/admin/"))
        if response.status_code == 200:
            return
        target = urlsplit(urljoin(self.base_url, response.headers.get("Location", "")))
        page = f"{target.path}?{target.query}"
        if target.path == "/admin/second-factor/":
            secret = re.search(r'id="vh-otp-secret">([A-Z2-7 ]+)<', self.get(page).text)
            if secret is None:
                raise StepFailure(f"{username}'s two-step login set-up page shows no key")
            self.otp_key = base64.b32decode(secret.group(1).replace(" ", ""))
        elif target.path != "/admin/second-factor/verify/" or self.otp_key is None:
            raise StepFailure(f"{username} was sent to {target.path} after the password")
        # One period ahead: the device accepts it, and it was never used before (not even at set-up).
        totp = TOTP(self.otp_key)
        totp.time = time.time() + totp.step * (1 if target.path.endswith("verify/") else 0)
        self.submit(page, {"code": f"{totp.token():06d}"})
        if self._request("GET", urljoin(self.base_url, "/admin/")).status_code != 200:
            raise StepFailure(f"{username} could not pass the second factor")
