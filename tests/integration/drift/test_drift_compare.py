"""The field by field comparison of what we last sent with the hub's read shape."""

from integration.drift.compare import body_differences
from integration.sync.models import ResourceKind


def rows(kind, ours, hubs):
    return [
        (d.field, d.ours if d.ours_present else "ABSENT", d.hubs if d.hubs_present else "ABSENT")
        for d in body_differences(kind, ours, hubs)
    ]


def test_equal_bodies_have_no_difference_and_numbers_compare_as_json():
    body = {"id": "r1", "size": 25, "bedtype": {"single_beds": 1}, "roomtype_tags": ["a", "b"]}
    assert rows(ResourceKind.ROOM_TYPE, body, {**body, "size": 25.0}) == []


def test_translations_compare_by_locale_and_objects_by_member():
    ours = {
        "i18n": [{"locale": "ko-KR", "name": "한옥"}, {"locale": "en-US", "name": "Hanok"}],
        "settings": {"extra_adult_price": 10000},
    }
    hubs = {
        "i18n": [{"locale": "ko-KR", "name": "바뀐 한옥", "notice": "공지"}],
        "settings": {"extra_adult_price": None},
    }
    assert rows(ResourceKind.PROPERTY, ours, hubs) == [
        ("i18n[en-US]", {"locale": "en-US", "name": "Hanok"}, "ABSENT"),
        ("i18n[ko-KR].name", "한옥", "바뀐 한옥"),
        ("i18n[ko-KR].notice", "ABSENT", "공지"),
        ("settings.extra_adult_price", 10000, None),
    ]


def test_fields_only_one_side_has_and_whole_arrays_of_values():
    ours = {"email": "a@example.com", "property_tags": ["x", "y"], "refundable": True}
    hubs = {"website": "https://hub.example.com", "property_tags": ["y", "x"], "refundable": 1}
    assert rows(ResourceKind.PROPERTY, ours, hubs) == [
        ("email", "a@example.com", "ABSENT"),
        ("property_tags", ["x", "y"], ["y", "x"]),
        ("refundable", True, 1),
        ("website", "ABSENT", "https://hub.example.com"),
    ]


def test_fields_the_hub_derives_are_not_compared():
    ours = {"id": "p1", "vendor_rateplan_model_id": "m1", "status": "enabled"}
    hubs = {**ours, "vendor_property_id": "prop", "vendor_roomtype_id": "r1", "type": "package"}
    assert rows(ResourceKind.RATE_PLAN, ours, hubs) == []
    assert rows(ResourceKind.RATE_PLAN, ours, {**hubs, "status": "disabled"}) == [("status", "enabled", "disabled")]
