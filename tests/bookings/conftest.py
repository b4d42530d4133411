"""Fixtures of the booking tests: a client that signs as the hub, and a fresh replay cache."""

import pytest
from django.core.cache import cache

from .signing import HubClient


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def hub_client(client):
    return HubClient(client)
