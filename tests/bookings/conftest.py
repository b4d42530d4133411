"""Fixtures of the booking tests: a client that signs as the hub."""

import pytest

from .signing import HubClient


@pytest.fixture
def hub_client(client):
    return HubClient(client)
