"""Settings for the test run: the development defaults, with the sandbox mounted and fast hashing."""

import os

os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("HUB_SANDBOX_ENABLED", "true")
# Without a real broker, tasks go to an in-process queue that the integration tests' worker consumes.
os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
