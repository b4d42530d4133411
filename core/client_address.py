"""The client's address, one notion for the whole product: the vendor API's allow-list, the login lockout
and the vendor API's call log all count the same address."""

import ipaddress

from django.conf import settings
from django.http import HttpRequest

#: More proxies than this in front of the web server is taken for a mistake (the deploy check warns).
PROXY_COUNT_MAX = 5


def client_address(request: HttpRequest) -> str:
    """The address the nearest trusted proxy saw: with DJANGO_PROXY_COUNT proxies that each append to
    X-Forwarded-For, the entry that many places from its end, else the connection's own address. Entries
    further left are the client's own claims and never read; an entry that is no address, or a header
    with fewer entries than the count (a request that came past the proxies), gives the connection's
    address."""
    remote = request.META.get("REMOTE_ADDR") or ""
    count = settings.PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < count:
        return remote
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
