"""Our models as the hub's bodies, and the merge-patch between two bodies."""

import datetime

import pytest

from integration.hub.payloads import (
    HUB_KEEPS,
    NULLABLE,
    build_property,
    build_rateplan,
    build_rateplan_model,
    build_roomtype,
    full_patch_body,
    hub_uri,
    merge_patch,
    patch_body,
    redact_body,
)
from integration.models import ResourceKind
from tests.factories import PropertyFactory, RatePlanFactory, RatePlanModelFactory, RoomTypeFactory, korean

pytestmark = pytest.mark.django_db


def test_property_body_holds_every_field_in_the_hubs_shape():
    prop = PropertyFactory(
        vendor_id="seochon",
        email="stay@example.com",
        phone="02-123-4567",
        sms_phone="010-1234-5678",
        checkin=datetime.time(15, 0),
        checkout=datetime.time(11, 30),
        website="https://example.com",
        refunds={"7d": 100, "0d": 0, "3d": 50},
        classifications=["hanok"],
        facility_tags=["parking", "wifi"],
        extra_adult_price=20000,
    )
    korean(prop, name="서촌", address="서울 종로구", address_detail="1층")
    prop.translations.create(locale="en-US", name="Seochon")
    prop.photos.create(url="https://img.example.com/b.jpg", order=2)
    prop.photos.create(url="https://img.example.com/a.jpg", description="Front", order=1)

    body = build_property(prop)

    assert body == {
        "id": "seochon",
        "status": "enabled",
        "i18n": [
            {"locale": "en-US", "name": "Seochon"},
            {"locale": "ko-KR", "name": "서촌", "address": "서울 종로구", "address_detail": "1층"},
        ],
        "email": "stay@example.com",
        "phone": "02-123-4567",
        "sms_phone": "010-1234-5678",
        "checkin": "15:00",
        "checkout": "11:30",
        "website": "https://example.com",
        "refunds": {"0d": 0, "3d": 50, "7d": 100},
        "classifications": ["hanok"],
        "property_tags": [],
        "facility_tags": ["parking", "wifi"],
        "service_tags": [],
        "attraction_tags": [],
        "photos": [
            {"url": "https://img.example.com/a.jpg", "description": "Front", "order": 1},
            {"url": "https://img.example.com/b.jpg", "order": 2},
        ],
        "settings": {"extra_adult_price": 20000},
    }


def test_property_body_leaves_out_empty_optional_fields_and_sends_maps_whole():
    body = build_property(PropertyFactory())

    assert not {"email", "phone", "sms_phone", "checkin", "checkout", "website"} & body.keys()
    assert body["refunds"] == {}  # maps and arrays always travel whole: an empty one clears the hub's
    assert body["settings"] == {"extra_adult_price": None}


def test_roomtype_body():
    room_type = RoomTypeFactory(
        vendor_id="ondol",
        size="33.50",
        details={"bedroom": 1, "bathroom": 1},
        double_beds=1,
        amenity_tags=["tv"],
    )
    korean(room_type, name="온돌방", description="따뜻한 방")

    assert build_roomtype(room_type) == {
        "id": "ondol",
        "status": "enabled",
        "i18n": [{"locale": "ko-KR", "name": "온돌방", "description": "따뜻한 방"}],
        "min_stay": 1,
        "max_stay": 14,
        "size": 33.5,
        "standard_capacity": 2,
        "max_capacity": 4,
        "roomtype_tags": [],
        "amenity_tags": ["tv"],
        "view_tags": [],
        "details": {"bedroom": 1, "bathroom": 1},
        "bedtype": {"single_beds": 0, "double_beds": 1, "bunk_beds": 0},
        "photos": [],
    }


def test_rateplan_model_body_with_all_channels_has_no_channels():
    model = RatePlanModelFactory(
        vendor_id="bb", sale_from=datetime.date(2026, 12, 1), min_los=2, refundable=False, breakfast=True
    )
    korean(model, name="조식 포함")

    body = build_rateplan_model(model)

    assert body == {
        "id": "bb",
        "type": "package",
        "i18n": [{"locale": "ko-KR", "name": "조식 포함"}],
        "sale_from": "2026-12-01",
        "min_los": 2,
        "refundable": False,
        "meals": {"breakfast": True, "lunch": False, "dinner": False},
    }
    model.channels = [3, 1]
    assert build_rateplan_model(model)["channels"] == [1, 3]


def test_rateplan_body_names_its_model():
    plan = RatePlanFactory(vendor_id="ondol-bb", model__vendor_id="bb", status="disabled")

    assert build_rateplan(plan) == {"id": "ondol-bb", "vendor_rateplan_model_id": "bb", "status": "disabled"}


def test_merge_patch_holds_changed_fields_whole_and_null_for_removed_ones():
    old = {"id": "p", "email": "a@example.com", "photos": [{"url": "u1", "order": 0}], "refunds": {"0d": 0, "1d": 50}}
    new = {"id": "p", "photos": [{"url": "u1", "order": 0}, {"url": "u2", "order": 1}], "refunds": {"0d": 0, "1d": 60}}

    assert merge_patch(old, new) == {
        "email": None,
        "photos": [{"url": "u1", "order": 0}, {"url": "u2", "order": 1}],
        "refunds": {"0d": 0, "1d": 60},
    }
    assert merge_patch(new, new) == {}


def test_patch_bodies_follow_each_resources_rules():
    # No id in any patch body.
    assert patch_body(ResourceKind.PROPERTY, {"id": "p", "status": "enabled"}, {"id": "p", "status": "disabled"}) == {
        "status": "disabled"
    }
    # A rate plan patch carries its status only.
    old_plan = {"id": "rp", "vendor_rateplan_model_id": "m1", "status": "enabled"}
    assert patch_body(ResourceKind.RATE_PLAN, old_plan, {**old_plan, "vendor_rateplan_model_id": "m2"}) == {}
    # A rate plan model patch always carries i18n, as the spec requires.
    old_model = {"id": "m", "i18n": [{"locale": "ko-KR", "name": "기본"}], "min_los": 2}
    assert patch_body(ResourceKind.RATE_PLAN_MODEL, old_model, {**old_model, "min_los": 3}) == {
        "min_los": 3,
        "i18n": [{"locale": "ko-KR", "name": "기본"}],
    }
    assert patch_body(ResourceKind.RATE_PLAN_MODEL, old_model, old_model) == {}


def _full_and_empty(kind):
    """A resource of kind with every optional field set, and the same with none: their bodies."""
    if kind == ResourceKind.PROPERTY:
        full = PropertyFactory(
            email="stay@example.com",
            phone="02-123-4567",
            sms_phone="010-1234-5678",
            checkin=datetime.time(15, 0),
            checkout=datetime.time(11, 0),
            website="https://example.com",
            refunds={"0d": 0},
            facility_tags=["wifi"],
            extra_adult_price=10000,
        )
        full.photos.create(url="https://img.example.com/a.jpg", order=0)
        korean(full, address="서울", address_detail="1층")
        empty = PropertyFactory()
        korean(empty)
        return build_property(full), build_property(empty)
    if kind == ResourceKind.ROOM_TYPE:
        full = RoomTypeFactory(size="20", details={"bedroom": 1}, amenity_tags=["tv"])
        korean(full, description="방")
        empty = RoomTypeFactory(min_stay=None, max_stay=None, standard_capacity=None, max_capacity=None)
        korean(empty)
        return build_roomtype(full), build_roomtype(empty)
    full = RatePlanModelFactory(
        sale_from=datetime.date(2027, 1, 1), sale_to=datetime.date(2027, 1, 31), min_los=1, max_los=7, channels=[3]
    )
    korean(full)
    empty = RatePlanModelFactory()
    korean(empty)
    return build_rateplan_model(full), build_rateplan_model(empty)


#: What the patch from a full body to an empty one sends as empty maps and arrays (that clears them).
_SENT_EMPTY = {
    ResourceKind.PROPERTY: {"refunds": {}, "photos": [], "facility_tags": []},
    ResourceKind.ROOM_TYPE: {"details": {}, "amenity_tags": []},
    ResourceKind.RATE_PLAN_MODEL: {},
}


@pytest.mark.parametrize("kind", list(_SENT_EMPTY))
def test_a_patch_clears_as_the_contract_says_and_never_sends_null_where_the_spec_forbids_it(kind):
    full, empty = _full_and_empty(kind)

    for patch in (patch_body(kind, full, empty), full_patch_body(kind, empty)):
        # null for each nullable field we lack, and nowhere else; what the hub keeps is left out.
        assert {key for key, value in patch.items() if value is None} == NULLABLE.get(kind, frozenset())
        assert not set(HUB_KEEPS.get(kind, ())) & patch.keys()
        assert {key: patch[key] for key in _SENT_EMPTY[kind]} == _SENT_EMPTY[kind]


def test_a_full_patch_sends_every_field_we_hold():
    prop = PropertyFactory(email="stay@example.com")
    korean(prop)
    body = build_property(prop)

    assert full_patch_body(ResourceKind.PROPERTY, body) == {key: value for key, value in body.items() if key != "id"}


@pytest.mark.parametrize(
    ("url", "uri"),
    [
        ("https://img.example.com/a.jpg", "https://img.example.com/a.jpg"),
        ("https://img.example.com/객실.jpg", "https://img.example.com/%EA%B0%9D%EC%8B%A4.jpg"),
        ("https://예시.kr/소개?방=1#사진", "https://xn--vv4b11d.kr/%EC%86%8C%EA%B0%9C?%EB%B0%A9=1#%EC%82%AC%EC%A7%84"),
        ("https://user@예시.kr:8443/a b", "https://user@xn--vv4b11d.kr:8443/a%20b"),
        ("https://img.example.com/%EA%B0%9D실.jpg", "https://img.example.com/%EA%B0%9D%EC%8B%A4.jpg"),
        ("", ""),
    ],
)
def test_urls_go_to_the_hub_as_uris(url, uri):
    assert hub_uri(url) == uri


def test_redact_body_keeps_the_size_of_files_and_secrets_only():
    body = {"type": "permit", "data": {"file": "QUJD" * 100, "number": "123"}, "token": "abc123"}

    assert redact_body(body) == {
        "type": "permit",
        "data": {"file": "[400 characters removed]", "number": "123"},
        "token": "[6 characters removed]",
    }
