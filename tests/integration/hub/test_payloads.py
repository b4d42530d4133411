"""Our models as the hub's bodies, and the merge-patch between two bodies."""

import datetime

import pytest

from integration.hub.payloads import (
    build_property,
    build_rateplan,
    build_rateplan_model,
    build_roomtype,
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


def test_property_body_leaves_out_empty_optional_fields():
    body = build_property(PropertyFactory())

    assert not {"email", "phone", "sms_phone", "checkin", "checkout", "website", "refunds"} & body.keys()
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


def test_redact_body_keeps_the_size_of_files_and_secrets_only():
    body = {"type": "permit", "data": {"file": "QUJD" * 100, "number": "123"}, "token": "abc123"}

    assert redact_body(body) == {
        "type": "permit",
        "data": {"file": "[400 characters removed]", "number": "123"},
        "token": "[6 characters removed]",
    }
