"""Fixtures of the sandbox hub's tests."""

import pytest

from .hubclient import KO, HubClient, ok


@pytest.fixture
def hub(client, db):
    return HubClient(client)


@pytest.fixture
def prop(hub):
    """Property p1 with room type r1, a standalone model std and a package model pkg."""
    ok(hub.post("/properties", {"id": "p1", "i18n": [KO]}))
    ok(hub.post("/properties/p1/roomtypes", {"id": "r1", "i18n": [{"locale": "ko-KR", "name": "디럭스"}]}))
    ok(hub.post("/properties/p1/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))
    ok(hub.post("/properties/p1/rateplan-models", {"id": "pkg", "type": "package", "i18n": [KO]}))
    return "p1"
