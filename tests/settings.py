"""Settings for the test run: the development defaults, with the sandbox mounted and fast hashing."""

import os

# The suite runs on its own defaults, whatever the checkout's .env (make setup's) says.
os.environ.setdefault("DJANGO_ENV_FILE", "")
os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("HUB_SANDBOX_ENABLED", "true")
# Without a real broker, tasks go to an in-process queue that the integration tests' worker consumes.
os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if CELERY_BROKER_URL.startswith("memory://"):  # noqa: F405
    # The tests' worker polls the in-process queue often, so that it also stops quickly.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared memory: the live server and the worker threads then wait for each other's
    # locks (with the timeout above) instead of failing with "table is locked". One per test run.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
else:
    # The live server's threads keep a hub client's keep-alive connection open after the last test; a
    # database connection kept beyond its request would stop the test database from being dropped.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
