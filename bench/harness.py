"""What a benchmark needs around it: Django configured as in development, a fresh database of its own,
and the hub sandbox on a real HTTP server in this process."""

import contextlib
import datetime
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import django
from django.conf import settings
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

#: The repository: where Procfile is, and the working directory of the processes benchmarks start.
ROOT = Path(__file__).resolve().parent.parent
#: Where benchmarks keep their SQLite database while they run, and their figures.
BENCH_DIR = ROOT / "var" / "bench"
#: How long wait_for waits by default, and how often it looks (seconds).
WAIT_SECONDS = 120
POLL_SECONDS = 0.01


def setup_django(*, broker=None):
    """Configure Django with the development defaults and the sandbox mounted, as the tests do."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ["HUB_SANDBOX_ENABLED"] = "true"
    # Benchmarks send in this process: a task queued by the outbox must not reach a broker that some
    # worker consumes (with another database behind it), unless the benchmark starts its own workers.
    os.environ["CELERY_BROKER_URL"] = broker or "memory://localhost/"
    # A log line per hub call would bury the figures (and cost time the figures should not include).
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    django.setup()
    # As Django's test runner does: DEBUG's query log would add its cost to every measured query.
    settings.DEBUG = False


def production_environment(connection, **overrides):
    """The environment of a process started on the bench database in production mode, as production
    runs it: DEBUG off (its query log would add a cost per query), every required setting given, the
    cache on Redis when CACHE_URL names it; overrides added (strings)."""
    database = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    else:
        url = f"sqlite:///{database['NAME']}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": url,
        "CACHE_URL": os.environ.get("CACHE_URL", "locmemcache://bench"),
        "HUB_BASE_URL": settings.HUB_BASE_URL,
        "HUB_API_TOKEN": settings.HUB_API_TOKEN,
        "VENDOR_API_TOKEN": settings.VENDOR_API_TOKEN,
        "VENDOR_API_SECRET": ",".join(settings.VENDOR_API_SECRETS),
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


@contextlib.contextmanager
def fresh_database():
    """A new, migrated database for the run, dropped after it; the configured one is never touched.

    It is Django's test database of the configured one: test_<name> on PostgreSQL (DATABASE_URL), and
    for SQLite a file under var/bench/ (not in memory, so that the sandbox's server threads share it).
    """
    from django.db import connection

    if connection.vendor == "sqlite":
        BENCH_DIR.mkdir(parents=True, exist_ok=True)
        connection.settings_dict["TEST"]["NAME"] = str(BENCH_DIR / "bench.sqlite3")
    configured_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield connection
    finally:
        connection.creation.destroy_test_db(configured_name, verbosity=0)


class _SandboxServer(ThreadedWSGIServer):
    # server_close() then waits for every connection's thread, and with it for each thread's database
    # connections to close: PostgreSQL refuses to drop a database still in use.
    daemon_threads = False
    block_on_close = True


class _QuietHandler(WSGIRequestHandler):
    # Headers and body go out in separate writes: with Nagle's algorithm on, the body waits for the
    # client's delayed ACK, some 40 ms per request that a production server (gunicorn) does not add.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        """Nothing: a line per request would bury the figures."""


@contextlib.contextmanager
def sandbox_hub():
    """The sandbox served over HTTP on 127.0.0.1 (a free port) by a thread, made this process's hub.

    Yields the hub's base URL; the process's hub client (one requests.Session) is closed at the end.
    """
    from integration.hub.client import get_hub_client

    server = _SandboxServer(("127.0.0.1", 0), _QuietHandler)
    server.set_app(get_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, name="sandbox-hub")
    thread.start()
    settings.HUB_BASE_URL = f"http://127.0.0.1:{server.server_port}/sandbox"
    try:
        yield settings.HUB_BASE_URL
    finally:
        # Closing the session ends the server's keep-alive connections, so that server_close() returns.
        get_hub_client().session.close()
        server.shutdown()
        server.server_close()
        thread.join()


def wait_for(check, what, timeout=WAIT_SECONDS):
    """Returns once check() is true; RuntimeError naming what after timeout seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout} s")
        time.sleep(POLL_SECONDS)


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port):
    """Whether something accepts connections on 127.0.0.1:port."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def procfile(name):
    """The command of Procfile's process name, as production runs it."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}: "):
            return line.removeprefix(f"{name}: ")
    raise RuntimeError(f"Procfile has no {name} process")


def procfile_names():
    """The names of Procfile's processes, in its order (its release command runs once, before them)."""
    names = [line.split(":", 1)[0] for line in (ROOT / "Procfile").read_text().splitlines() if ":" in line]
    return [name for name in names if name != "release"]


def purge(broker):
    """Empties the broker's Redis database."""
    import redis

    redis.Redis.from_url(broker).flushdb()


def stop(process):
    """Stops a process started in a session of its own (start_new_session), and its children."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def start_hub(env, port, faults="", *, application="config.wsgi", log_name="estate-hub.log"):
    """The sandbox hub on its own gunicorn (threads, so that an added latency is waited in parallel), with
    faults (HUB_SANDBOX_FAULTS' text); its output in BENCH_DIR / log_name."""
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    with (BENCH_DIR / log_name).open("w") as output:
        hub = subprocess.Popen(  # noqa: S603
            [
                sys.executable,
                "-m",
                "gunicorn",
                application,
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--threads",
                "16",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", "HUB_SANDBOX_FAULTS": faults},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    wait_for(lambda: answers(port), "the sandbox hub", timeout=60)
    return hub


def signed_headers(raw):
    """The hub's headers for a vendor API call: bearer token and a Standard Webhooks signature over the raw
    body (a new message id each time, as the replay check demands)."""
    from standardwebhooks.webhooks import Webhook

    msg_id, now = f"msg_{uuid.uuid4().hex}", datetime.datetime.now(datetime.UTC)
    return {
        "Authorization": f"Bearer {settings.VENDOR_API_TOKEN}",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(settings.VENDOR_API_SECRETS[0]).sign(msg_id, now, raw),
    }
