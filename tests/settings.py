"""Settings for the test run: the development defaults, with the sandbox mounted and fast hashing."""

import os

os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("HUB_SANDBOX_ENABLED", "true")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
