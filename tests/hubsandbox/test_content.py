"""Content operations: read shapes, RFC 7396 merge patch, 409 on an existing id, 404 on unknown paths,
one standalone model per property, rate plans as room type x model."""

import pytest

from hubsandbox import state

from .hubclient import KO, error, ok

FULL_PROPERTY = {
    "id": "p1",
    "status": "enabled",
    "i18n": [
        KO | {"address": "부산광역시 해운대구 해운대해변로 1", "address_detail": "101동", "notice": "금연"},
        {"locale": "en-US", "name": "Sea Pension"},
    ],
    "email": "front@seapension.example",
    "phone": "051-000-0000",
    "sms_phone": "01000000000",
    "checkin": "15:00",
    "checkout": "11:00",
    "website": "https://seapension.example/ko",
    "refunds": {"0d": 0, "1d": 30, "7d": 100},
    "classifications": ["pension", "pension.pool_villa"],
    "property_tags": ["theme.family"],
    "facility_tags": ["parking.free", "dining.bbq"],
    "service_tags": ["wifi"],
    "attraction_tags": ["beach.haeundae"],
    "photos": [{"url": "https://img.example.com/1.jpg", "description": "전경", "order": 0}],
    "settings": {"extra_adult_price": 20000},
}


def test_property_create_answers_the_full_read_shape(hub):
    assert ok(hub.post("/properties", FULL_PROPERTY)) == FULL_PROPERTY
    assert ok(hub.get("/properties/p1")) == FULL_PROPERTY
    assert state.get_resource("property", "p1") == FULL_PROPERTY


def test_property_read_shape_fills_required_fields(hub):
    assert ok(hub.post("/properties", {"id": "p1", "i18n": [KO]})) == {
        "id": "p1",
        "status": "enabled",
        "i18n": [KO],
        "classifications": [],
        "property_tags": [],
        "facility_tags": [],
        "service_tags": [],
        "attraction_tags": [],
        "photos": [],
        "settings": {"extra_adult_price": None},
    }


def test_integral_numbers_are_integers(hub):
    body = ok(hub.post("/properties", {"id": "p1", "i18n": [KO], "settings": {"extra_adult_price": 15000.0}}))
    assert body["settings"]["extra_adult_price"] == 15000
    assert isinstance(body["settings"]["extra_adult_price"], int)


def test_property_merge_patch(hub):
    ok(hub.post("/properties", FULL_PROPERTY))

    # Omitted fields keep their values.
    body = ok(hub.patch("/properties/p1", {"phone": "051-111-1111"}))
    assert body == FULL_PROPERTY | {"phone": "051-111-1111"}

    # Arrays and maps that are sent replace the stored value.
    body = ok(hub.patch("/properties/p1", {"refunds": {"3d": 50}, "facility_tags": ["pool.indoor"], "photos": []}))
    assert body["refunds"] == {"3d": 50}
    assert body["facility_tags"] == ["pool.indoor"]
    assert body["photos"] == []
    body = ok(hub.patch("/properties/p1", {"i18n": [{"locale": "ko-KR", "name": "새이름"}]}))
    assert body["i18n"] == [{"locale": "ko-KR", "name": "새이름"}]

    # settings is an object: its members merge, null clears extra_adult_price.
    assert ok(hub.patch("/properties/p1", {"settings": {}}))["settings"] == {"extra_adult_price": 20000}
    body = ok(hub.patch("/properties/p1", {"settings": {"extra_adult_price": None}}))
    assert body["settings"] == {"extra_adult_price": None}
    assert ok(hub.get("/properties/p1"))["settings"] == {"extra_adult_price": None}

    # An empty patch changes nothing.
    assert ok(hub.patch("/properties/p1", {})) == body


def test_status_moves_with_patch(hub):
    ok(hub.post("/properties", {"id": "p1", "i18n": [KO], "status": "disabled"}))
    assert ok(hub.patch("/properties/p1", {"status": "enabled"}))["status"] == "enabled"


def test_roomtype_create_and_read(hub, prop):
    roomtype = {
        "id": "r2",
        "status": "disabled",
        "i18n": [KO | {"description": "바다 전망"}],
        "min_stay": 1,
        "max_stay": 7,
        "size": 33.5,
        "standard_capacity": 2,
        "max_capacity": 4,
        "roomtype_tags": ["room.deluxe", "feature.spa_bath"],
        "amenity_tags": ["bath.bathtub", "wifi"],
        "view_tags": ["nature.ocean"],
        "details": {"bedroom": 1, "bathroom": 1},
        "bedtype": {"single_beds": 0, "double_beds": 1, "bunk_beds": 0},
        "photos": [{"url": "https://img.example.com/r2.jpg", "order": 1}],
    }
    assert ok(hub.post(f"/properties/{prop}/roomtypes", roomtype)) == roomtype
    assert ok(hub.get(f"/properties/{prop}/roomtypes/r2")) == roomtype


def test_roomtype_read_shape_fills_required_fields(hub, prop):
    assert ok(hub.post(f"/properties/{prop}/roomtypes", {"id": "r2", "i18n": [KO]})) == {
        "id": "r2",
        "status": "enabled",
        "i18n": [KO],
        "roomtype_tags": [],
        "amenity_tags": [],
        "view_tags": [],
        "photos": [],
    }


def test_roomtype_merge_patch(hub, prop):
    base = {
        "id": "r2",
        "i18n": [KO],
        "max_capacity": 4,
        "details": {"bedroom": 2, "bathroom": 1},
        "bedtype": {"single_beds": 2, "double_beds": 0, "bunk_beds": 0},
    }
    ok(hub.post(f"/properties/{prop}/roomtypes", base))
    bedtype = {"single_beds": 0, "double_beds": 1, "bunk_beds": 0}
    body = ok(hub.patch(f"/properties/{prop}/roomtypes/r2", {"details": {"room": 1}, "bedtype": bedtype}))
    assert body["details"] == {"room": 1}  # a map replaces
    assert body["bedtype"] == bedtype  # sent whole (a part of it is refused)
    assert body["max_capacity"] == 4  # omitted keeps
    assert ok(hub.patch(f"/properties/{prop}/roomtypes/r2", {"details": {}}))["details"] == {}  # an empty map clears


MODEL = {
    "id": "m1",
    "type": "package",
    "i18n": [KO | {"description": "조식 포함"}],
    "sale_from": "2026-12-01",
    "sale_to": "2027-02-28",
    "min_los": 1,
    "max_los": 14,
    "refundable": True,
    "meals": {"breakfast": True, "lunch": False, "dinner": False},
    "channels": [3, 7],
}


def test_rateplan_model_create_and_read(hub, prop):
    expected = MODEL | {"vendor_property_id": prop}
    assert ok(hub.post(f"/properties/{prop}/rateplan-models", MODEL)) == expected
    assert ok(hub.get(f"/properties/{prop}/rateplan-models/m1")) == expected


def test_rateplan_model_read_shape_defaults(hub, prop):
    body = ok(hub.post(f"/properties/{prop}/rateplan-models", {"id": "m1", "i18n": [KO]}))
    assert body == {"id": "m1", "vendor_property_id": prop, "type": "package", "i18n": [KO], "refundable": False}


def test_rateplan_model_merge_patch(hub, prop):
    ok(hub.post(f"/properties/{prop}/rateplan-models", MODEL))
    patch = {
        "i18n": [KO],
        "sale_from": None,
        "max_los": None,
        "meals": {"breakfast": False, "lunch": True, "dinner": True},
    }
    body = ok(hub.patch(f"/properties/{prop}/rateplan-models/m1", patch))
    assert "sale_from" not in body
    assert "max_los" not in body
    assert body["sale_to"] == "2027-02-28"
    assert body["min_los"] == 1
    assert body["meals"] == {"breakfast": False, "lunch": True, "dinner": True}
    assert body["i18n"] == [KO]


@pytest.mark.parametrize("reset", [None, []])
def test_rateplan_model_channels_reset_to_all(hub, prop, reset):
    ok(hub.post(f"/properties/{prop}/rateplan-models", MODEL))
    body = ok(hub.patch(f"/properties/{prop}/rateplan-models/m1", {"i18n": [KO], "channels": reset}))
    assert "channels" not in body
    body = ok(hub.patch(f"/properties/{prop}/rateplan-models/m1", {"i18n": [KO], "channels": [9]}))
    assert body["channels"] == [9]


def test_one_standalone_model_per_property(hub, prop):
    message = error(hub.post(f"/properties/{prop}/rateplan-models", MODEL | {"type": "standalone"}), 400)
    assert message.startswith("type: property 'p1' already has a standalone rate plan model ('std')")

    # A package cannot become a second standalone.
    message = error(hub.patch(f"/properties/{prop}/rateplan-models/pkg", {"i18n": [KO], "type": "standalone"}), 400)
    assert message.startswith("type:")
    assert state.get_resource("rateplan_model", prop, "pkg")["type"] == "package"

    # The standalone itself may be patched, but not made a package: the role stays with it (issue 41).
    ok(hub.patch(f"/properties/{prop}/rateplan-models/std", {"i18n": [KO], "type": "standalone"}))
    message = error(hub.patch(f"/properties/{prop}/rateplan-models/std", {"i18n": [KO], "type": "package"}), 400)
    assert message.startswith("type: rate plan model 'std' is the standalone rate plan model of property 'p1'")
    assert state.get_resource("rateplan_model", prop, "std")["type"] == "standalone"

    # Another property has its own standalone.
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))
    ok(hub.post("/properties/p2/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))


def test_rateplan_create_read_and_status_patch(hub, prop):
    body = ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "pkg"}))
    expected = {
        "id": "rp1",
        "vendor_property_id": "p1",
        "vendor_roomtype_id": "r1",
        "vendor_rateplan_model_id": "pkg",
        "status": "enabled",
        "type": "package",
    }
    assert body == expected
    assert ok(hub.patch(f"/properties/{prop}/roomtypes/r1/rateplans/rp1", {"status": "disabled"})) == expected | {
        "status": "disabled"
    }
    assert ok(hub.patch(f"/properties/{prop}/roomtypes/r1/rateplans/rp1", {}))["status"] == "disabled"
    assert ok(hub.get(f"/properties/{prop}/roomtypes/r1/rateplans/rp1"))["status"] == "disabled"


def test_rateplan_type_follows_its_model(hub, prop):
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp2", "vendor_rateplan_model_id": "pkg"}))
    assert ok(hub.get(f"/properties/{prop}/roomtypes/r1/rateplans/rp1"))["type"] == "standalone"
    assert ok(hub.get(f"/properties/{prop}/roomtypes/r1/rateplans/rp2"))["type"] == "package"


def test_rateplan_created_with_status(hub, prop):
    body = {"id": "rp1", "vendor_rateplan_model_id": "std", "status": "disabled"}
    assert ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", body))["status"] == "disabled"


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/properties", {"id": "p1", "i18n": [KO]}, "property 'p1' already exists"),
        ("/properties/p1/roomtypes", {"id": "r1", "i18n": [KO]}, "room type 'r1' already exists in property 'p1'"),
        ("/properties/p1/rateplan-models", {"id": "pkg", "i18n": [KO]}, "rate plan model 'pkg' already exists"),
        (
            "/properties/p1/roomtypes/r2/rateplans",
            {"id": "rp1", "vendor_rateplan_model_id": "pkg"},
            "rate plan 'rp1' already exists in property 'p1'",
        ),
        (
            "/properties/p1/roomtypes/r1/rateplans",
            {"id": "rp2", "vendor_rateplan_model_id": "std"},
            "room type 'r1' already has rate plan 'rp1' for rate plan model 'std'",
        ),
    ],
)
def test_create_of_an_existing_resource_is_409(hub, prop, path, body, message):
    ok(hub.post(f"/properties/{prop}/roomtypes", {"id": "r2", "i18n": [KO]}))
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    before = state.list_resources("rateplan")
    assert error(hub.post(path, body), 409).startswith(message)
    assert state.list_resources("rateplan") == before


def test_ids_are_scoped_to_their_property(hub, prop):
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))
    ok(hub.post("/properties/p2/roomtypes", {"id": "r1", "i18n": [KO]}))
    ok(hub.post("/properties/p2/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))
    ok(hub.post("/properties/p2/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))


@pytest.mark.parametrize(
    ("method", "path", "body", "message"),
    [
        ("GET", "/properties/nope", None, "property 'nope' not found"),
        ("PATCH", "/properties/nope", {}, "property 'nope' not found"),
        ("POST", "/properties/nope/roomtypes", {"id": "r1", "i18n": [KO]}, "property 'nope' not found"),
        ("POST", "/properties/nope/rateplan-models", {"id": "m", "i18n": [KO]}, "property 'nope' not found"),
        ("GET", "/properties/p1/roomtypes/nope", None, "room type 'nope' not found in property 'p1'"),
        ("PATCH", "/properties/p1/roomtypes/nope", {}, "room type 'nope' not found in property 'p1'"),
        ("GET", "/properties/p1/rateplan-models/nope", None, "rate plan model 'nope' not found in property 'p1'"),
        ("PATCH", "/properties/p1/rateplan-models/nope", {"i18n": [KO]}, "rate plan model 'nope' not found"),
        (
            "POST",
            "/properties/p1/roomtypes/nope/rateplans",
            {"id": "rp", "vendor_rateplan_model_id": "std"},
            "room type 'nope' not found in property 'p1'",
        ),
        ("GET", "/properties/p1/roomtypes/r1/rateplans/nope", None, "rate plan 'nope' not found in room type 'r1'"),
        ("PATCH", "/properties/p1/roomtypes/r1/rateplans/nope", {}, "rate plan 'nope' not found in room type 'r1'"),
        ("GET", "/properties/p1/roomtypes/r2/rateplans/rp1", None, "rate plan 'rp1' not found in room type 'r2'"),
        ("GET", "/properties/p1/ari", None, "no hub endpoint GET /gds/vendor/properties/p1/ari"),
        ("GET", "/properties/", None, "no hub endpoint GET /gds/vendor/properties/"),
    ],
)
def test_unknown_resources_and_parents_are_404(hub, prop, method, path, body, message):
    ok(hub.post(f"/properties/{prop}/roomtypes", {"id": "r2", "i18n": [KO]}))
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    assert error(hub.call(method, path, body), 404).startswith(message)


def test_other_methods_are_405(hub, prop):
    assert error(hub.call("DELETE", f"/properties/{prop}"), 405) == "DELETE is not allowed on this path"
    assert error(hub.call("PUT", f"/properties/{prop}", {}), 405) == "PUT is not allowed on this path"
    assert error(hub.patch("/properties", {}), 405) == "PATCH is not allowed on this path"
    assert error(hub.post("/meta", {}), 405) == "POST is not allowed on this path"


def test_ids_with_url_escapes_round_trip(hub):
    ok(hub.post("/properties", {"id": "호텔 1", "i18n": [KO]}))
    assert ok(hub.get("/properties/%ED%98%B8%ED%85%94%201"))["id"] == "호텔 1"
