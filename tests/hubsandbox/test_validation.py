"""Every field rule of the spec answers 400 with a message that names the field, and stores nothing."""

import pytest

from hubsandbox import state

from .hubclient import KO, error, ok

LOCALE_LIST = "ko-KR, en-US, zh-CN, ja-JP, vn-VN, th-TH, zh-TW"
PHOTO = {"url": "https://img.example.com/1.jpg", "order": 0}
BEDS = {"single_beds": 0, "double_beds": 1, "bunk_beds": 0}

PROPERTY_CASES = [
    ({"id": None}, "id: may not be null"),
    ({"id": 5}, "id: must be a string"),
    ({"id": ""}, "id: must not be empty"),
    ({"id": "x" * 41}, "id: must be at most 40 characters long"),
    ({"name": "바다펜션"}, "name: unknown field"),
    ({"status": "active"}, "status: must be one of enabled, disabled"),
    ({"i18n": [{"locale": "ko", "name": "x"}]}, f"i18n[0].locale: must be one of {LOCALE_LIST}"),
    ({"i18n": [{"name": "x"}]}, "i18n[0].locale: is required"),
    ({"i18n": [{"locale": "en-US", "name": "Sea pension"}]}, "i18n: must include an entry for ko-KR"),
    ({"i18n": []}, "i18n: must include an entry for ko-KR"),
    ({"i18n": [KO, {"locale": "ko-KR"}]}, "i18n[1].locale: ko-KR appears more than once"),
    ({"i18n": [KO | {"title": "x"}]}, "i18n[0].title: unknown field"),
    ({"i18n": [KO | {"notice": 3}]}, "i18n[0].notice: must be a string"),
    ({"i18n": [KO | {"address_detail": "101호"}]}, "i18n[0].address_detail: requires address in the same entry"),
    ({"i18n": KO}, "i18n: must be an array"),
    ({"email": "front.desk"}, "email: must be a valid email address"),
    ({"facility_tags": None}, "facility_tags: may not be null"),
    ({"phone": 1012345678}, "phone: must be a string"),
    ({"sms_phone": ["010"]}, "sms_phone: must be a string"),
    ({"checkin": "9:00"}, "checkin: must be a time written HH:mm"),
    ({"checkin": "24:00"}, "checkin: must be a time written HH:mm"),
    ({"checkout": "11:60"}, "checkout: must be a time written HH:mm"),
    ({"checkout": "11:00:00"}, "checkout: must be a time written HH:mm"),
    ({"website": "www.example.com"}, "website: must be an absolute URI"),
    ({"website": "https://"}, "website: must be an absolute URI"),
    ({"website": "https://예시.kr"}, "website: must be an absolute URI"),
    ({"website": "https://example.com/a b"}, "website: must be an absolute URI"),
    ({"refunds": {"1": 50}}, "refunds: key '1' must be a number of days before check-in"),
    ({"refunds": {"d1": 50}}, "refunds: key 'd1' must be a number of days before check-in"),
    ({"refunds": {"1d": 101}}, "refunds.1d: must be a number from 0 to 100"),
    ({"refunds": {"1d": -1}}, "refunds.1d: must be a number from 0 to 100"),
    ({"refunds": {"1d": "50"}}, "refunds.1d: must be a number"),
    ({"refunds": {"1d": True}}, "refunds.1d: must be a number"),
    ({"refunds": [50]}, "refunds: must be an object"),
    # SPEC: keys of the form 0d, 1d, 2d: no leading zero, a lowercase d.
    ({"refunds": {"01d": 50}}, "refunds: key '01d' must be a number of days before check-in"),
    ({"refunds": {"1D": 50}}, "refunds: key '1D' must be a number of days before check-in"),
    ({"refunds": {"\uff10d": 50}}, "refunds: key '\uff10d' must be a number of days before check-in"),
    # SPEC: the address is a single line.
    ({"i18n": [KO | {"address": "부산광역시\n해운대구"}]}, "i18n[0].address: must be a single line"),
    ({"i18n": [KO | {"address": "부산광역시\r해운대구"}]}, "i18n[0].address: must be a single line"),
    ({"i18n": [KO | {"address": "부산광역시\u2028해운대구"}]}, "i18n[0].address: must be a single line"),
    # Null only where the spec marks a field nullable (settings.extra_adult_price): formatted fields
    # cannot be cleared, maps are cleared by sending them empty.
    ({"email": None}, "email: may not be null"),
    ({"phone": None}, "phone: may not be null"),
    ({"sms_phone": None}, "sms_phone: may not be null"),
    ({"checkin": None}, "checkin: may not be null"),
    ({"checkout": None}, "checkout: may not be null"),
    ({"website": None}, "website: may not be null"),
    ({"refunds": None}, "refunds: may not be null"),
    ({"photos": None}, "photos: may not be null"),
    ({"status": None}, "status: may not be null"),
    ({"classifications": ["castle"]}, "classifications[0]: unknown classification code 'castle'"),
    ({"classifications": "hotel"}, "classifications: must be an array"),
    ({"classifications": [1]}, "classifications[0]: must be a string"),
    ({"property_tags": ["theme", "pool"]}, "property_tags[1]: unknown property code 'pool'"),
    ({"facility_tags": ["wifi"]}, "facility_tags[0]: unknown facility code 'wifi'"),
    ({"service_tags": ["parking"]}, "service_tags[0]: unknown service code 'parking'"),
    ({"attraction_tags": ["beach.waikiki"]}, "attraction_tags[0]: unknown attraction code 'beach.waikiki'"),
    ({"photos": [{"order": 0}]}, "photos[0].url: is required"),
    ({"photos": [{"url": "https://img.example.com/1.jpg"}]}, "photos[0].order: is required"),
    ({"photos": [PHOTO | {"url": "img/1.jpg"}]}, "photos[0].url: must be an absolute URI"),
    ({"photos": [PHOTO, PHOTO | {"order": -1}]}, "photos[1].order: must be an integer >= 0"),
    ({"photos": [PHOTO | {"order": 1.5}]}, "photos[0].order: must be an integer >= 0"),
    ({"photos": [PHOTO | {"order": True}]}, "photos[0].order: must be an integer >= 0"),
    ({"photos": [PHOTO | {"description": 5}]}, "photos[0].description: must be a string"),
    ({"photos": [PHOTO | {"width": 800}]}, "photos[0].width: unknown field"),
    ({"photos": [PHOTO | {"order": None}]}, "photos[0].order: may not be null"),
    ({"settings": {"extra_adult_price": -1}}, "settings.extra_adult_price: must be an integer >= 0"),
    ({"settings": {"extra_adult_price": 1000.5}}, "settings.extra_adult_price: must be an integer >= 0"),
    ({"settings": {"extra_adult_price": "10000"}}, "settings.extra_adult_price: must be an integer >= 0"),
    ({"settings": {"extra_adult_price": True}}, "settings.extra_adult_price: must be an integer >= 0"),
    ({"settings": {"extra_child_price": 1}}, "settings.extra_child_price: unknown field"),
    ({"settings": None}, "settings: may not be null"),
]


@pytest.mark.parametrize(("fields", "message"), PROPERTY_CASES)
def test_property_create_rules(hub, fields, message):
    assert error(hub.post("/properties", {"id": "p1", "i18n": [KO]} | fields), 400).startswith(message)
    assert state.list_resources("property") == []


def _patch_cases(cases):
    """The create cases that also apply to a patch: all but those on id and on ko-KR (create only)."""
    return [case for case in cases if not case[1].startswith(("id:", "i18n: must include an entry for ko-KR"))]


@pytest.mark.parametrize(("fields", "message"), _patch_cases(PROPERTY_CASES))
def test_property_patch_rules(hub, prop, fields, message):
    before = state.get_resource("property", prop)
    assert error(hub.patch(f"/properties/{prop}", fields), 400).startswith(message)
    assert state.get_resource("property", prop) == before


def test_patch_ko_kr_is_required_on_create_only(hub, prop):
    body = ok(hub.patch(f"/properties/{prop}", {"i18n": [{"locale": "en-US", "name": "Sea pension"}]}))
    assert body["i18n"] == [{"locale": "en-US", "name": "Sea pension"}]


def test_id_may_not_be_patched(hub, prop):
    assert error(hub.patch(f"/properties/{prop}", {"id": "p2"}), 400) == "id: unknown field"


ROOMTYPE_CASES = [
    ({"i18n": [{"locale": "en-US", "name": "Deluxe"}]}, "i18n: must include an entry for ko-KR"),
    ({"i18n": [KO | {"address": "부산"}]}, "i18n[0].address: unknown field"),
    ({"i18n": [KO | {"description": None}]}, "i18n[0].description: may not be null"),
    ({"status": "on"}, "status: must be one of enabled, disabled"),
    ({"min_stay": 0}, "min_stay: must be an integer >= 1"),
    ({"min_stay": True}, "min_stay: must be an integer >= 1"),
    ({"max_stay": "2"}, "max_stay: must be an integer >= 1"),
    ({"max_stay": 1.5}, "max_stay: must be an integer >= 1"),
    ({"standard_capacity": -2}, "standard_capacity: must be an integer >= 1"),
    ({"max_capacity": False}, "max_capacity: must be an integer >= 1"),
    ({"roomtype_tags": None}, "roomtype_tags: may not be null"),
    ({"size": "33.5"}, "size: must be a number"),
    ({"size": True}, "size: must be a number"),
    ({"details": {"bedroom": "2"}}, "details.bedroom: must be a number"),
    ({"details": [1]}, "details: must be an object"),
    ({"bedtype": BEDS | {"single_beds": -1}}, "bedtype.single_beds: must be an integer >= 0"),
    ({"bedtype": BEDS | {"double_beds": True}}, "bedtype.double_beds: must be an integer >= 0"),
    # A part of a bed type is refused: the spec's bedtype is the three counts.
    ({"bedtype": {"single_beds": 2}}, "bedtype.double_beds: is required"),
    ({"bedtype": {"single_beds": 2, "double_beds": 1}}, "bedtype.bunk_beds: is required"),
    ({"bedtype": {}}, "bedtype.single_beds: is required"),
    # Null only where the spec marks a field nullable: none of a room type's is.
    ({"min_stay": None}, "min_stay: may not be null"),
    ({"max_stay": None}, "max_stay: may not be null"),
    ({"size": None}, "size: may not be null"),
    ({"standard_capacity": None}, "standard_capacity: may not be null"),
    ({"max_capacity": None}, "max_capacity: may not be null"),
    ({"details": None}, "details: may not be null"),
    ({"bedtype": None}, "bedtype: may not be null"),
    ({"photos": None}, "photos: may not be null"),
    ({"bedtype": {"king_beds": 1}}, "bedtype.king_beds: unknown field"),
    ({"bedtype": 2}, "bedtype: must be a JSON object"),
    ({"roomtype_tags": ["room.penthouse"]}, "roomtype_tags[0]: unknown roomtype code 'room.penthouse'"),
    ({"amenity_tags": ["nature.ocean"]}, "amenity_tags[0]: unknown amenity code 'nature.ocean'"),
    ({"view_tags": ["bath.bathtub"]}, "view_tags[0]: unknown view code 'bath.bathtub'"),
    ({"photos": [{"url": "ftp//x", "order": 0}]}, "photos[0].url: must be an absolute URI"),
    ({"checkin": "15:00"}, "checkin: unknown field"),
]


@pytest.mark.parametrize(("fields", "message"), ROOMTYPE_CASES)
def test_roomtype_create_rules(hub, prop, fields, message):
    response = hub.post(f"/properties/{prop}/roomtypes", {"id": "r2", "i18n": [KO]} | fields)
    assert error(response, 400).startswith(message)
    assert state.get_resource("roomtype", prop, "r2") is None


@pytest.mark.parametrize(("fields", "message"), _patch_cases(ROOMTYPE_CASES))
def test_roomtype_patch_rules(hub, prop, fields, message):
    assert error(hub.patch(f"/properties/{prop}/roomtypes/r1", fields), 400).startswith(message)


MODEL_CASES = [
    ({"i18n": None}, "i18n: may not be null"),
    ({"i18n": []}, "i18n: must have at least 1 entry"),
    ({"i18n": [{"locale": "ja-JP", "name": "素泊まり"}]}, "i18n: must include an entry for ko-KR"),
    ({"type": "bundle"}, "type: must be one of standalone, package"),
    ({"sale_from": "2026-13-01"}, "sale_from: 2026-13-01 is not a valid date"),
    ({"sale_from": "2026/01/01"}, "sale_from: must be a date written YYYY-MM-DD"),
    ({"sale_to": "20260101"}, "sale_to: must be a date written YYYY-MM-DD"),
    ({"sale_to": "2026-02-30"}, "sale_to: 2026-02-30 is not a valid date"),
    ({"min_los": 0}, "min_los: must be an integer >= 1"),
    ({"max_los": 2.5}, "max_los: must be an integer >= 1"),
    ({"refundable": "yes"}, "refundable: must be a boolean"),
    ({"refundable": None}, "refundable: may not be null"),
    ({"meals": {"breakfast": True, "dinner": False}}, "meals.lunch: is required"),
    ({"meals": {"breakfast": True, "lunch": False, "dinner": "no"}}, "meals.dinner: must be a boolean"),
    ({"meals": {"breakfast": True, "lunch": False, "dinner": False, "snack": True}}, "meals.snack: unknown field"),
    ({"meals": None}, "meals: may not be null"),
    ({"channels": [0]}, "channels[0]: must be an integer >= 1"),
    ({"channels": [3, True]}, "channels[1]: must be an integer >= 1"),
    ({"channels": "all"}, "channels: must be an array"),
    ({"status": "enabled"}, "status: unknown field"),
    ({"sale_from": "2027-01-02", "sale_to": "2027-01-01"}, "sale_to: 2027-01-01 is before sale_from 2027-01-02"),
    ({"type": None}, "type: may not be null"),
]


@pytest.mark.parametrize(("fields", "message"), MODEL_CASES)
def test_rateplan_model_create_rules(hub, prop, fields, message):
    response = hub.post(f"/properties/{prop}/rateplan-models", {"id": "m2", "i18n": [KO]} | fields)
    assert error(response, 400).startswith(message)
    assert state.get_resource("rateplan_model", prop, "m2") is None


@pytest.mark.parametrize(("fields", "message"), MODEL_CASES)
def test_rateplan_model_patch_rules(hub, prop, fields, message):
    response = hub.patch(f"/properties/{prop}/rateplan-models/pkg", {"i18n": [KO]} | fields)
    assert error(response, 400).startswith(message)


def test_rateplan_model_requires_i18n_on_create_and_patch(hub, prop):
    assert error(hub.post(f"/properties/{prop}/rateplan-models", {"id": "m2"}), 400) == "i18n: is required"
    assert error(hub.patch(f"/properties/{prop}/rateplan-models/pkg", {"refundable": True}), 400) == "i18n: is required"


RATEPLAN_CREATE_CASES = [
    ({"vendor_rateplan_model_id": None}, "vendor_rateplan_model_id: may not be null"),
    ({"vendor_rateplan_model_id": "m" * 41}, "vendor_rateplan_model_id: must be at most 40 characters long"),
    ({"id": "rp" * 21}, "id: must be at most 40 characters long"),
    ({"status": "paused"}, "status: must be one of enabled, disabled"),
    ({"type": "package"}, "type: unknown field"),
    ({"vendor_rateplan_model_id": "nope"}, "vendor_rateplan_model_id: no rate plan model 'nope' in property 'p1'"),
]


@pytest.mark.parametrize(("fields", "message"), RATEPLAN_CREATE_CASES)
def test_rateplan_create_rules(hub, prop, fields, message):
    body = {"id": "rp1", "vendor_rateplan_model_id": "std"} | fields
    assert error(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", body), 400).startswith(message)
    assert state.list_resources("rateplan") == []


def test_rateplan_create_requires_its_model_id(hub, prop):
    response = hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1"})
    assert error(response, 400) == "vendor_rateplan_model_id: is required"


def test_rateplan_model_must_belong_to_the_same_property(hub, prop):
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))
    ok(hub.post("/properties/p2/rateplan-models", {"id": "other", "i18n": [KO]}))
    body = {"id": "rp1", "vendor_rateplan_model_id": "other"}
    message = error(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", body), 400)
    assert message == "vendor_rateplan_model_id: no rate plan model 'other' in property 'p1'"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"vendor_rateplan_model_id": "pkg"}, "vendor_rateplan_model_id: unknown field"),
        ({"id": "rp9"}, "id: unknown field"),
        ({"status": None}, "status: may not be null"),
        ({"status": "off"}, "status: must be one of enabled, disabled"),
    ],
)
def test_rateplan_patch_takes_status_only(hub, prop, fields, message):
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    assert error(hub.patch(f"/properties/{prop}/roomtypes/r1/rateplans/rp1", fields), 400) == message
    assert state.get_resource("rateplan", prop, "r1", "rp1")["vendor_rateplan_model_id"] == "std"


@pytest.mark.parametrize(
    ("raw", "content_type", "status", "message"),
    [
        ('{"id": "p1",', "application/json", 400, "body: malformed JSON"),
        ('["p1"]', "application/json", 400, "body: must be a JSON object"),
        ('"p1"', "application/json", 400, "body: must be a JSON object"),
        ("", "application/json", 400, "body: is required (a JSON object)"),
        (" ", "application/json", 400, "body: malformed JSON"),
        ('{"id": "p1", "settings": {"extra_adult_price": NaN}}', "application/json", 400, "body: malformed JSON"),
        ('{"id": "p1"}', "text/plain", 415, "Content-Type: must be application/json"),
    ],
)
def test_bodies_that_are_not_json_objects(hub, raw, content_type, status, message):
    response = hub.call("POST", "/properties", raw=raw, content_type=content_type)
    assert error(response, status).startswith(message)


def test_invalid_utf8_is_malformed(hub):
    response = hub.call("POST", "/properties", raw=b'{"id": "\xff"}')
    assert error(response, 400).startswith("body: malformed JSON")
