"""The health check the load balancer and operators probe: database, cache and broker."""

import logging

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from .celery import app as celery_app

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2


def _check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _check_cache():
    cache.set("healthz", "ok", timeout=10)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not return what was stored")


def _check_broker():
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)


CHECKS = {"database": _check_database, "cache": _check_cache, "broker": _check_broker}


@never_cache
def healthz(request):
    """200 {"status": "ok", ...} when every service answers; 503 naming what is down otherwise."""
    checks = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as exc:  # any failure of a service means "down"; the reason goes to the log
            logger.warning("health check %s failed: %s", name, exc.__class__.__name__)
            checks[name] = "down"
        else:
            checks[name] = "ok"
    down = [name for name, state in checks.items() if state != "ok"]
    body = {"status": "unavailable" if down else "ok", "checks": checks, "down": down}
    return JsonResponse(body, status=503 if down else 200)
