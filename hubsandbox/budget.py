"""The sandbox hub's request budget (the fault option `budget=N`), kept as Channex keeps its own: each
property's requests are counted per kind (rates, availability, content) per clock minute as they are received,
and a request beyond N in its minute is answered 429 with Retry-After, the seconds to the next minute.

The kind is what a hub reads from the request: the rates and availability ARI paths, and every other path
below /properties/{pid} (reads included); POST /properties counts for the property its body names. The counts
live in the cache, shared by the sandbox's processes when the cache is Redis."""

import hashlib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from urllib.parse import unquote

from django.core.cache import cache
from django.http import JsonResponse

from .models import SandboxRequest

_PREFIX = "/gds/vendor/properties"
_PROPERTY_PATH = re.compile(r"^/gds/vendor/properties/(?P<pid>[^/]+)(?P<rest>/.*)?$")
_RATES = re.compile(r"^/roomtypes/[^/]+/rateplans/[^/]+/ari$")
_AVAILABILITY = re.compile(r"^/roomtypes/[^/]+/ari/avails$")
_CACHE_KEY = "hubsandbox:budget:{hub}:{kind}:{minute}:{property}"


def budget_of(method: str, path: str, body: bytes | str | None) -> tuple[str, str] | None:
    """(property id, kind) of the budget a request to the hub's path spends, or None when it is about no
    property."""
    if method == "POST" and path == _PREFIX:
        try:
            property_id = json.loads(body or b"")["id"]
        except (ValueError, TypeError, KeyError):
            return None
        return str(property_id), "content"
    match = _PROPERTY_PATH.match(path)
    if match is None:
        return None
    rest = match["rest"] or ""
    kind = "rates" if _RATES.match(rest) else "availability" if _AVAILABILITY.match(rest) else "content"
    return unquote(match["pid"]), kind


def budget_refusal(
    hub: str, method: str, path: str, body: bytes | None, limit: int, *, now: float | None = None
) -> JsonResponse | None:
    """Count the request received now against its property's budget of its kind; the 429 that answers it
    beyond limit in this clock minute, else None. limit 0: no budget."""
    spent = budget_of(method, path, body) if limit > 0 else None
    if spent is None:
        return None
    property_id, kind = spent
    now = time.time() if now is None else now
    key = _CACHE_KEY.format(
        hub=hub, kind=kind, minute=int(now // 60), property=hashlib.sha256(property_id.encode()).hexdigest()[:24]
    )
    cache.add(key, 0, timeout=120)
    if cache.incr(key) <= limit:
        return None
    response = JsonResponse(
        {"message": f"Too many {kind} requests for property {property_id}: at most {limit} a minute"}, status=429
    )
    response["Retry-After"] = str(max(1, math.ceil(60 - now % 60)))
    return response


def budget_minutes(requests: Iterable[SandboxRequest]) -> Counter[tuple[str, str, datetime]]:
    """How many of requests (the sandbox's log) each (property, kind, clock minute) received: each counted in
    the minute it arrived (its answer's latency before it was logged taken off)."""
    counts: Counter[tuple[str, str, datetime]] = Counter()
    for request in requests:
        spent = budget_of(request.method, request.path, request.request_body)
        if spent is not None:
            arrived = request.received_at - timedelta(milliseconds=request.duration_ms)
            counts[(*spent, arrived.replace(second=0, microsecond=0))] += 1
    return counts
