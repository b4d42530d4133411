"""Settings for the test run: the development defaults, with the sandbox mounted and fast hashing."""

import os
from urllib.parse import urlsplit

# The suite runs on its own defaults, whatever the checkout's .env (make setup's) says.
os.environ.setdefault("DJANGO_ENV_FILE", "")
os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("HUB_SANDBOX_ENABLED", "true")
# Without a real broker, tasks go to an in-process queue that the integration tests' worker consumes.
os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")

_REDIS_VARIABLES = ("CELERY_BROKER_URL", "CACHE_URL")


#: Redis's numbered databases (its default `databases`), which the xdist workers share out.
REDIS_DATABASES = 16


def _redis_databases(environ):
    """{variable: (URL split, database number)} of the variables that name a Redis."""
    urls = {
        name: urlsplit(environ[name])
        for name in _REDIS_VARIABLES
        if environ.get(name, "").startswith(("redis://", "rediss://"))
    }
    return {name: (url, int(url.path.strip("/") or 0)) for name, url in urls.items()}


def redis_workers_at_most(environ):
    """How many xdist workers fit on Redis's databases, each with a span of its own (spread_redis_databases);
    None without Redis. More would name a database that Redis does not have."""
    databases = [number for _url, number in _redis_databases(environ).values()]
    if not databases:
        return None
    span = max(databases) - min(databases) + 1
    return max(1, (REDIS_DATABASES - 1 - max(databases)) // span + 1)


def spread_redis_databases(environ, worker):
    """Under pytest-xdist, worker gwN's broker and cache move N spans along Redis's numbered databases
    (dbs 0 and 1 become 2N and 2N+1): each worker purges, flushes and consumes only its own. The moved URLs
    go back into environ, once, so that processes a test starts with tests.settings use the same."""
    if not worker or environ.get("TEST_REDIS_SPREAD_FOR") == worker:
        return
    databases = _redis_databases(environ)
    if databases:
        numbers = [number for _url, number in databases.values()]
        moved = (max(numbers) - min(numbers) + 1) * int(worker.removeprefix("gw"))
        for name, (url, number) in databases.items():
            environ[name] = url._replace(path=f"/{number + moved}").geturl()
    environ["TEST_REDIS_SPREAD_FOR"] = worker


# pytest-xdist names each worker ("gw0", "gw1", ...) in its environment; nothing in a run without -n.
spread_redis_databases(os.environ, os.environ.get("PYTEST_XDIST_WORKER", ""))

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if CELERY_BROKER_URL.startswith("memory://"):  # noqa: F405
    # The tests' worker polls the in-process queue often, so that it also stops quickly.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared memory: the live server and the worker threads then wait for each other's
    # locks (with the timeout above) instead of failing with "table is locked". One per test process
    # (pytest-django adds the xdist worker's name, as it does to PostgreSQL's test database).
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
else:
    # The live server's threads keep a hub client's keep-alive connection open after the last test; a
    # database connection kept beyond its request would stop the test database from being dropped.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
