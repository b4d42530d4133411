"""The sandbox stands in for two hubs, staging and production: the same endpoints under two prefixes
(/sandbox/ and /sandbox/production/), each with its own token and its own state, so that a vendor who
switches hub environments finds the production hub empty, as a real one would be.

Which hub a request (or a test's look into the sandbox) is addressed to is the current hub: set by
serving() around a request's handling, read by the selectors and services that store content.
"""

import contextlib
from contextvars import ContextVar

from django.conf import settings

STAGING = "staging"
PRODUCTION = "production"
#: Each hub and the setting holding the token it accepts (the vendor's settings for the same hub).
HUB_TOKEN_SETTINGS = {STAGING: "HUB_API_TOKEN", PRODUCTION: "HUB_PRODUCTION_API_TOKEN"}

_current = ContextVar("sandbox_hub", default=STAGING)


def current_hub() -> str:
    """The hub being served now (staging outside any serving())."""
    return _current.get()


@contextlib.contextmanager
def serving(hub: str):
    """Address everything inside the block to hub ("staging" or "production")."""
    if hub not in HUB_TOKEN_SETTINGS:
        raise ValueError(f"unknown sandbox hub {hub!r}; one of {', '.join(HUB_TOKEN_SETTINGS)}")
    token = _current.set(hub)
    try:
        yield
    finally:
        _current.reset(token)


def hub_token(hub: str) -> str:
    """The token the hub accepts in Authorization."""
    return getattr(settings, HUB_TOKEN_SETTINGS[hub], "")
