"""The vendor API's rate limits, counted in the shared cache (CACHE_URL) so that every web process
sees the same counts. Both count per client address (core.client_address, as the allow-list and the
lockout see it); an
address over a limit is answered 429 in the contract's error shape (decision 0012) with Retry-After."""

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from core.client_address import client_address

logger = logging.getLogger("bookings.api")


class VendorApiThrottle(SimpleRateThrottle):
    """Every authenticated call: far above what a hub sends (settings: vendor_api)."""

    scope = "vendor_api"

    def get_ident(self, request: Request) -> str:
        # One notion of the client's address for the allow-list, the lockout, the call log and the limits.
        return client_address(request)

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Request, view: Any) -> bool:
        # Intake does not depend on the cache (decision 0015): without it, calls are not limited.
        try:
            return super().allow_request(request, view)
        except Exception:
            logger.warning("vendor API: the rate limit is not counted (the cache is unreachable)", exc_info=True)
            return True


class RefusedCallThrottle(VendorApiThrottle):
    """Calls refused by authentication (settings: vendor_api_refused). Checked before authentication and
    counted only when a call is refused, so an address that keeps failing is turned away unread while
    the hub's signed calls never count against it."""

    scope = "vendor_api_refused"
    # Set from the rate by SimpleRateThrottle.__init__.
    num_requests: int
    duration: int

    def allow_request(self, request: Request, view: Any) -> bool:
        self.key = self.get_cache_key(request, view)
        self.now = self.timer()
        try:
            self.history = self.cache.get(self.key, [])
        except Exception:
            logger.warning("vendor API: refused calls are not counted (the cache is unreachable)", exc_info=True)
            self.history = []
            return True
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) < self.num_requests

    def record(self) -> None:
        """Counts one refused call (after allow_request)."""
        try:
            self.throttle_success()
        except Exception:
            logger.warning("vendor API: a refused call is not counted (the cache is unreachable)", exc_info=True)
