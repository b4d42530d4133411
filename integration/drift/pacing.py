"""Pacing the drift check's reads so that it never floods the hub: a steady rate, and the hub's own
Retry-After (or an exponential wait) when it answers 429 or is briefly unavailable."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext as _

from ..hub.client import HubError


class HubBusy(Exception):
    """The hub stayed busy (429, 5xx or no answer) through every try, or asked for a longer wait than a
    check may spend; message says which."""

    def __init__(self, message, *, cause):
        super().__init__(message)
        self.message = message
        self.cause = cause


@dataclass
class Pacer:
    """Spaces calls at most `rate` per second and retries the hub's retryable errors.

    clock and sleep are injected so that tests count the waits instead of spending them.
    """

    rate: float
    max_tries: int
    max_wait: float
    backoff_base: float
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _next_at: float | None = field(default=None, init=False)

    def __post_init__(self):
        if self.rate <= 0 or self.max_tries < 1:
            raise ValueError("HUB_DRIFT_RATE must be above 0 and HUB_DRIFT_MAX_TRIES at least 1")

    @classmethod
    def from_settings(cls, **overrides):
        """A pacer with HUB_DRIFT_* settings (and the sync's backoff base)."""
        options = {
            "rate": settings.HUB_DRIFT_RATE,
            "max_tries": settings.HUB_DRIFT_MAX_TRIES,
            "max_wait": settings.HUB_DRIFT_MAX_WAIT,
            "backoff_base": settings.HUB_SYNC_BACKOFF_BASE,
        }
        return cls(**{**options, **overrides})

    def wait_turn(self):
        """Sleep until the next call is allowed by the rate."""
        now = self.clock()
        if self._next_at is not None and now < self._next_at:
            self.sleep(self._next_at - now)
            now = self._next_at
        self._next_at = now + 1 / self.rate

    def call(self, function):
        """function() at the configured rate; a retryable HubError is tried again after the hub's
        Retry-After (at least an exponential wait) up to max_tries; other errors go to the caller."""
        attempt = 0
        while True:
            attempt += 1
            self.wait_turn()
            try:
                return function()
            except HubError as error:
                if not error.retryable:
                    raise
                wait = max(error.retry_after or 0, self.backoff_base * 2 ** (attempt - 1))
                if attempt >= self.max_tries:
                    message = _("The hub was still busy after %(count)d tries: %(message)s")
                    raise HubBusy(message % {"count": attempt, "message": error.message}, cause=error) from error
                if wait > self.max_wait:
                    message = _("The hub asked to wait %(seconds)d s, longer than a check waits: %(message)s")
                    raise HubBusy(message % {"seconds": wait, "message": error.message}, cause=error) from error
                self.sleep(wait)
                # The wait is the gap before the next call: the rate's gap does not come on top of it.
                self._next_at = self.clock()
