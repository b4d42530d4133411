"""Settings of the gunicorn that the booking benchmark starts: the product's, plus its baseline view."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
