"""The token check on every path, and the code catalog."""

import pytest

from hubsandbox import catalog, state

from .hubclient import error, ok


@pytest.mark.parametrize("authorization", ["", "wrong-token", "Bearer sandbox-hub-token", "sandbox-hub-token "])
@pytest.mark.parametrize(("method", "path"), [("GET", "/meta"), ("POST", "/properties"), ("GET", "/nowhere")])
def test_requests_without_the_token_are_401(hub, authorization, method, path):
    response = hub.call(method, path, {"id": "p1"} if method == "POST" else None, authorization=authorization)
    assert error(response, 401) == "Authorization: missing or invalid access token"
    assert state.list_resources("property") == []


def test_missing_header_is_401(hub):
    response = hub.client.get(hub.base + "/meta")
    assert error(response, 401) == "Authorization: missing or invalid access token"


def test_scheme_word_when_configured(hub, settings):
    settings.HUB_AUTH_SCHEME = "Bearer"
    settings.HUB_API_TOKEN = "t0ken"
    assert error(hub.get("/meta", authorization="t0ken"), 401)
    ok(hub.get("/meta", authorization="Bearer t0ken"))


def test_catalog_has_the_eight_groups_named_in_korean(hub):
    data = ok(hub.get("/meta"))["data"]
    assert list(data) == [
        "classification",
        "property",
        "facility",
        "service",
        "attraction",
        "roomtype",
        "amenity",
        "view",
    ]
    pension = next(node for node in data["classification"] if node["code"] == "pension")
    assert pension["name"] == "펜션"
    assert {"code": "pension.pool_villa", "name": "풀빌라"} in pension["children"]


def _walk(nodes):
    for node in nodes:
        yield node
        yield from _walk(node.get("children", []))


def test_catalog_nodes_are_code_name_and_children_on_parents_only(hub):
    for group, nodes in ok(hub.get("/meta"))["data"].items():
        every = list(_walk(nodes))
        assert 8 <= len(every) <= 25, group
        assert len({node["code"] for node in every}) == len(every), group
        assert {node["code"] for node in every} == catalog.valid_codes(group)
        for node in every:
            assert set(node) in ({"code", "name"}, {"code", "name", "children"})
            assert node.get("children", [None]) != []
        assert any("children" in node for node in nodes), group


@pytest.mark.parametrize(("query", "named"), [("locale=en-US", "locale"), ("lang=ko", "lang"), ("locale=", "locale")])
def test_the_catalog_refuses_any_query_parameter(hub, query, named):
    """SPEC: GET /meta has no parameters; a hub that refuses unknown ones answers 400 naming it."""
    assert (
        error(hub.get(f"/meta?{query}"), 400) == f"{named}: unknown query parameter (GET /gds/vendor/meta takes none)"
    )


def test_valid_codes_hold_parents_and_leaves():
    assert {"parking", "parking.free", "dining.bbq", "wellness.spa", "pool.outdoor"} <= catalog.valid_codes("facility")
    assert {"nature.ocean", "nature.mountain", "urban.city"} <= catalog.valid_codes("view")
    assert {"hotel", "hanok", "motel", "camping.glamping"} <= catalog.valid_codes("classification")
    assert "wifi" not in catalog.valid_codes("facility")
