"""The sandbox as two hubs (staging at /sandbox/, production at /sandbox/production/): separate states and
tokens, so that production knows nothing staging was told; and both refuse a create without ko-KR."""

import pytest

from hubsandbox import state
from hubsandbox.models import SandboxProperty

from .hubclient import KO, HubClient, error, ok

KOREAN_REQUIRED = "i18n: must include an entry for ko-KR"


@pytest.fixture
def production(client, db, settings):
    settings.HUB_PRODUCTION_API_TOKEN = "production-token"
    return HubClient(client, hub="production")


def test_production_knows_nothing_staging_was_told(hub, production):
    ok(hub.post("/properties", {"id": "p1", "i18n": [KO]}))

    assert error(production.get("/properties/p1"), 404) == "property 'p1' not found"
    assert error(production.patch("/properties/p1", {"status": "disabled"}), 404) == "property 'p1' not found"
    assert state.get_resource("property", "p1", hub="production") is None
    assert state.list_resources("property", hub="production") == []


def test_the_same_ids_live_apart_at_each_hub(hub, production):
    ok(hub.post("/properties", {"id": "p1", "i18n": [KO | {"name": "스테이징 숙소"}]}))
    ok(production.post("/properties", {"id": "p1", "i18n": [KO | {"name": "운영 숙소"}]}))
    ok(production.post("/properties/p1/roomtypes", {"id": "r1", "i18n": [KO]}))

    assert state.get_resource("property", "p1")["i18n"][0]["name"] == "스테이징 숙소"
    assert state.get_resource("property", "p1", hub="production")["i18n"][0]["name"] == "운영 숙소"
    assert state.get_resource("roomtype", "p1", "r1") is None
    assert state.get_resource("roomtype", "p1", "r1", hub="production") is not None
    assert SandboxProperty.objects.count() == 2
    assert [entry.path for entry in state.request_log(hub="production")] == [
        "/gds/vendor/properties",
        "/gds/vendor/properties/p1/roomtypes",
    ]


def test_each_hub_accepts_only_its_own_token(hub, production, settings):
    staging_token = f"{settings.HUB_AUTH_SCHEME} {settings.HUB_API_TOKEN}".strip()
    assert error(production.get("/meta", authorization=staging_token), 401).startswith("Authorization")
    assert error(hub.get("/meta", authorization=production.authorization), 401).startswith("Authorization")
    ok(production.get("/meta"))


def test_a_hub_without_a_token_accepts_no_one(client, db, settings):
    settings.HUB_PRODUCTION_API_TOKEN = ""
    production = HubClient(client, hub="production")
    assert error(production.get("/meta", authorization=""), 401).startswith("Authorization")
    assert error(production.post("/properties", {"id": "p1", "i18n": [KO]}), 401).startswith("Authorization")


@pytest.mark.parametrize("body", [{"id": "p2"}, {"id": "p2", "i18n": [{"locale": "en-US", "name": "Sea"}]}])
def test_a_property_is_created_only_with_korean(hub, production, body):
    for at in (hub, production):
        assert error(at.post("/properties", body), 400) == KOREAN_REQUIRED
    assert not SandboxProperty.objects.exists()


@pytest.mark.parametrize("body", [{"id": "r2"}, {"id": "r2", "i18n": []}])
def test_a_room_type_is_created_only_with_korean(hub, prop, body):
    assert error(hub.post(f"/properties/{prop}/roomtypes", body), 400) == KOREAN_REQUIRED
    assert state.get_resource("roomtype", prop, "r2") is None


def test_a_patch_needs_no_korean(hub, prop):
    # SPEC: ko-KR is required on create; a patch sends only what changes.
    assert ok(hub.patch(f"/properties/{prop}", {"status": "disabled"}))["status"] == "disabled"
    assert ok(hub.patch(f"/properties/{prop}/roomtypes/r1", {"max_capacity": 3}))["max_capacity"] == 3
