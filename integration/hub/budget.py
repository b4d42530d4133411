"""The request budget per hub, property and kind (decision 0022): at most N requests in any minute, shared by
every process. A slot is taken before each request about a property (HubClient.call); when none is free, the
caller learns how many seconds until one frees.

The window is a sliding log of the moments of the last requests, so that at most N fall within ANY
WINDOW_SECONDS + MARGIN_SECONDS: a hub counting by clock minute or by sliding minute never sees N + 1, even
when a request travels up to MARGIN_SECONDS longer than the one N before it. (A token bucket or GCRA lets N + 1
through within a minute.) The log lives in Redis when the broker is Redis, else in a database row locked while
a slot is taken; both run the same _slot() under their own lock, so the rule is written once."""

import hashlib
import json
import time

import redis
from django.conf import settings
from django.db import transaction

from core.once import made_once

from .endpoints import BUDGET_AVAILABILITY, BUDGET_CONTENT, BUDGET_RATES
from .models import HubBudgetWindow

WINDOW_SECONDS = 60.0
#: Added to the window: the largest difference in travel time (and clock skew between workers) between two
#: requests N apart that the hub's count may still not notice.
MARGIN_SECONDS = 1.0
SPAN_SECONDS = WINDOW_SECONDS + MARGIN_SECONDS
_REDIS_KEY = "vendorhub:hub-budget:{}"
_REDIS_SCHEMES = ("redis://", "rediss://")


def budget_limit(kind: str) -> int:
    """Requests a minute that the budget of kind allows; 0: no budget."""
    return {
        BUDGET_RATES: settings.HUB_BUDGET_RATES_PER_MINUTE,
        BUDGET_AVAILABILITY: settings.HUB_BUDGET_AVAILABILITY_PER_MINUTE,
        BUDGET_CONTENT: settings.HUB_BUDGET_CONTENT_PER_MINUTE,
    }.get(kind, 0)


def budget_take(hub: str, property_id: str, kind: str) -> float:
    """Take a slot of the budget of kind for the property at hub (its base URL) now: 0.0 when taken (or no
    budget is set), else the seconds until one frees (nothing taken)."""
    limit = budget_limit(kind)
    if limit <= 0:
        return 0.0
    key = f"{kind}:{hashlib.sha256(hub.encode()).hexdigest()[:16]}:{property_id}"
    if settings.CELERY_BROKER_URL.startswith(_REDIS_SCHEMES):
        return _take_redis(key, limit)
    return _take_database(key, limit)


def _slot(times: list[float], limit: int, now: float) -> tuple[list[float], float]:
    """The log after taking a slot at now and 0.0; or, when limit requests fall within the span, the log as
    it is and the seconds until the oldest of them leaves it."""
    recent = sorted(moment for moment in times if moment > now - SPAN_SECONDS)
    if len(recent) < limit:
        return [*recent, now], 0.0
    return recent, recent[-limit] + SPAN_SECONDS - now


@transaction.atomic
def _take_database(key: str, limit: int) -> float:
    HubBudgetWindow.objects.bulk_create([HubBudgetWindow(key=key)], ignore_conflicts=True)
    window = HubBudgetWindow.objects.select_for_update(of=("self",)).get(key=key)
    # The moment is read once the row is locked: a slot is never dated before a slot taken meanwhile.
    times, wait = _slot(window.times, limit, time.time())
    if not wait:
        window.times = times
        window.save(update_fields=["times"])
    return wait


def _take_redis(key: str, limit: int) -> float:
    name = _REDIS_KEY.format(key)
    with _redis().pipeline() as pipe:
        while True:
            try:
                # Optimistic lock: the log is written only if no one wrote it since it was read.
                pipe.watch(name)
                raw = pipe.get(name)
                times, wait = _slot(json.loads(raw) if raw else [], limit, time.time())
                if wait:
                    return wait
                pipe.multi()
                pipe.set(name, json.dumps(times), px=round(SPAN_SECONDS * 1000))
                pipe.execute()
                return 0.0
            except redis.WatchError:
                continue


def _redis() -> redis.Redis:
    """The process's client of the broker's Redis (a pool of connections, safe across threads and forks)."""
    return _client(settings.CELERY_BROKER_URL)


@made_once
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)
