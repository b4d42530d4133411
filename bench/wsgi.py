"""WSGI entry point of the booking benchmark's gunicorn (bench.settings)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

application = get_wsgi_application()
