"""The sync benchmark's measurements: ten quick edits of one property against one full PATCH per edit,
and a full resync of 20 properties against the sandbox's own floor. Import once Django is set up."""

import time
from datetime import time as clock

from django.db import transaction

from hubsandbox import state as hub_state
from integration.content.choices import RatePlanType
from integration.hub import endpoints
from integration.hub.client import encode_body, get_hub_client
from integration.hub.payloads import full_patch_body
from integration.models import (
    Property,
    PropertyPhoto,
    PropertyTranslation,
    RatePlan,
    RatePlanModel,
    RatePlanModelTranslation,
    ResourceKind,
    RoomType,
    RoomTypePhoto,
    RoomTypeTranslation,
    SyncAttempt,
)
from integration.sync.resources import RESOURCES
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_mark_changed, sync_state_ensure
from integration.sync.services.sender import sync_send

PROPERTIES = 20
ROOM_TYPES = 10  # per property
#: Each property's rate plan models, (vendor id, Korean name, Korean description): the standalone one,
#: then two packages. Every room type is sold under each, so a property has ROOM_TYPES x 3 rate plans.
RATE_PLAN_MODELS = (
    ("base", "객실만", "객실만 이용하는 기본 요금입니다."),
    ("breakfast", "조식 포함", "한식 조식 2인이 포함됩니다."),
    ("breakfast-final", "조식 포함 (환불 불가)", "한식 조식 2인이 포함되며, 예약 후에는 환불되지 않습니다."),
)

DESCRIPTION = (
    "경복궁과 북촌 사이 조용한 골목 안에 자리한 전통 한옥 숙소입니다. 대청마루와 작은 마당이 있고, "
    "아침에는 직접 만든 한식 조식을 드립니다. 지하철 3호선 안국역에서 걸어서 7분 거리입니다."
)
NOTICE = "체크인은 오후 3시부터, 체크아웃은 오전 11시까지입니다. 전 객실 금연이며 반려동물은 동반할 수 없습니다."
RESERVATION = "예약이 확정되면 안내 문자를 보내 드립니다. 늦게 도착하시면 미리 연락해 주세요."
REFUNDS = "투숙 7일 전까지 전액, 3일 전까지 50%를 환불해 드리며 그 이후에는 환불되지 않습니다."
ROOM_DESCRIPTION = "온돌과 침대를 함께 갖춘 객실로, 마당이 내려다보이는 창과 전용 욕실이 있습니다."

#: Ten saves of one property by staff within a few seconds: (what is edited, the new values).
EDITS = (
    ("property", {"phone": "02-730-1234"}),
    ("ko-KR", {"notice": NOTICE + " 주차는 한 대까지 가능합니다."}),
    ("property", {"checkin": clock(16)}),
    ("property", {"email": "front@seochon.example.com"}),
    ("property", {"facility_tags": ["parking.free", "wellness.sauna", "dining.cafe", "pool.outdoor"]}),
    ("ko-KR", {"notice": NOTICE + " 주차는 두 대까지 가능합니다."}),
    ("property", {"website": "https://seochon.example.com/ko"}),
    ("property", {"checkout": clock(12)}),
    ("property", {"phone": "02-730-5678"}),
    ("property", {"extra_adult_price": 25000}),
)


def create_property(n):
    """A property as staff fill it in: Korean texts, photos, tags and a refund policy."""
    prop = Property.objects.create(
        vendor_id=f"bench-{n:02d}",
        name=f"Seochon Hanok {n}",
        email=f"stay{n}@seochon.example.com",
        phone=f"02-730-{n:04d}",
        checkin=clock(15),
        checkout=clock(11),
        website="https://seochon.example.com",
        refunds={"0d": 0, "3d": 50, "7d": 100},
        classifications=["hanok.stay"],
        property_tags=["theme.family", "location.downtown"],
        facility_tags=["parking.free", "wellness.sauna", "dining.cafe"],
        service_tags=["wifi", "meal.breakfast"],
        attraction_tags=["heritage.gyeongbokgung"],
        extra_adult_price=20000,
    )
    PropertyTranslation.objects.create(
        property=prop,
        locale="ko-KR",
        name=f"서촌 한옥 스테이 {n}호점",
        description=DESCRIPTION,
        address=f"서울특별시 종로구 자하문로{n}길 {n + 10}",
        address_detail="본관 1층",
        notice=NOTICE,
        reservation_description=RESERVATION,
        refunds_description=REFUNDS,
    )
    PropertyPhoto.objects.bulk_create(
        PropertyPhoto(
            property=prop, url=f"https://img.example.com/{prop.vendor_id}/{i}.jpg", description="전경", order=i
        )
        for i in range(5)
    )
    return prop


def create_content(prop, *, room_types=ROOM_TYPES, model_texts=RATE_PLAN_MODELS):
    """room_types room types, the rate plan models of model_texts (vendor id, Korean name, description),
    and a rate plan for each room type under each model, all with Korean texts; returns them, parents
    first."""
    rooms = RoomType.objects.bulk_create(
        RoomType(
            property=prop,
            vendor_id=f"room-{i:02d}",
            name=f"Ondol Deluxe {i}",
            min_stay=1,
            max_stay=14,
            size=33,
            standard_capacity=2,
            max_capacity=4,
            roomtype_tags=["room.deluxe", "room.ondol"],
            amenity_tags=["bath.bathtub", "appliance.tv", "wifi"],
            view_tags=["courtyard"],
            details={"room": 1, "bathroom": 1},
            double_beds=1,
        )
        for i in range(room_types)
    )
    RoomTypeTranslation.objects.bulk_create(
        RoomTypeTranslation(room_type=room, locale="ko-KR", name=f"온돌 디럭스 {i}호", description=ROOM_DESCRIPTION)
        for i, room in enumerate(rooms)
    )
    RoomTypePhoto.objects.bulk_create(
        RoomTypePhoto(room_type=room, url=f"https://img.example.com/{prop.vendor_id}/{room.vendor_id}/{i}.jpg", order=i)
        for room in rooms
        for i in range(3)
    )
    models = RatePlanModel.objects.bulk_create(
        RatePlanModel(
            property=prop,
            vendor_id=vendor_id,
            name=vendor_id,
            type=RatePlanType.STANDALONE if i == 0 else RatePlanType.PACKAGE,
            breakfast=i > 0,
            refundable=i < 2,
        )
        for i, (vendor_id, _name, _description) in enumerate(model_texts)
    )
    RatePlanModelTranslation.objects.bulk_create(
        RatePlanModelTranslation(model=model, locale="ko-KR", name=name, description=description)
        for model, (_vendor_id, name, description) in zip(models, model_texts, strict=True)
    )
    plans = RatePlan.objects.bulk_create(
        RatePlan(property=prop, room_type=room, model=model, vendor_id=f"{room.vendor_id}-{model.vendor_id}")
        for room in rooms
        for model in models
    )
    return [*rooms, *models, *plans]


def wire_bytes(body):
    """The size of body on the wire, encoded as the hub client sends it."""
    return len(encode_body(body))


def measure(run):
    """Run run() and return what reached the sandbox meanwhile (requests, bytes) and the wall time."""
    before = hub_state.request_totals()
    started = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - started
    after = hub_state.request_totals()
    return {
        "requests": after["count"] - before["count"],
        "request_bytes": after["request_bytes"] - before["request_bytes"],
        "seconds": round(seconds, 3),
        "ms_per_request": round(1000 * seconds / max(1, after["count"] - before["count"]), 2),
        "result": result,
    }


def ten_quick_edits():
    """(a) Ten saves of one property through the outbox, then one send as the worker makes it after the
    coalescing window; against one full-body PATCH per save."""
    prop = create_property(0)
    state = sync_state_ensure(prop)
    sync_send(state.pk, schedule=False)  # the hub knows the property: each save is an update
    resource = RESOURCES[ResourceKind.PROPERTY]
    korean = prop.translations.get(locale="ko-KR")
    attempts_before = SyncAttempt.objects.count()
    naive_bytes = []

    def edit_then_send():
        for target, values in EDITS:
            obj = prop if target == "property" else korean
            with transaction.atomic():
                for name, value in values.items():
                    setattr(obj, name, value)
                obj.save()
                sync_mark_changed(prop)
            # The naive sender would PATCH the whole body after each save.
            body = full_patch_body(ResourceKind.PROPERTY, resource.build(resource.load(prop.pk)))
            naive_bytes.append(wire_bytes(body))
        return sync_send(state.pk)

    ours = measure(edit_then_send)
    attempts = SyncAttempt.objects.count() - attempts_before
    sent = SyncAttempt.objects.filter(state=state).order_by("-id").first().request_body
    # Leave an empty hub and database to the next measurement.
    prop.delete()
    hub_state.reset()
    return {
        "edits": len(EDITS),
        "outbox": {
            "requests": ours["requests"],
            "attempts_recorded": attempts,
            "request_bytes": ours["request_bytes"],
            "outcome": str(ours["result"]),
            "fields_sent": sorted(sent),
        },
        "naive": {"requests": len(EDITS), "request_bytes": sum(naive_bytes)},
        "ratio_requests": round(len(EDITS) / max(1, ours["requests"]), 1),
        "ratio_bytes": round(sum(naive_bytes) / max(1, ours["request_bytes"]), 1),
    }


def full_resync():
    """(b) The initial sync of PROPERTIES properties with all their content, then a full resync through
    the batch service; against the floor of the sandbox: as many PATCHes of {} with the same session."""
    properties = [create_property(n) for n in range(1, PROPERTIES + 1)]
    resources = list(properties)
    for prop in properties:
        resources += create_content(prop)
    # What the services' sync_mark_changed would have left: a pending outbox row per resource.
    for obj in resources:
        sync_state_ensure(obj)

    initial = measure(lambda: dict(sync_pending().counts))
    resync = measure(lambda: dict(sync_pending(full=True).counts))
    client = get_hub_client()
    vendor_ids = [prop.vendor_id for prop in properties]

    def floor_requests():
        # {} is a valid merge-patch that changes nothing: the sandbox still authenticates, parses,
        # loads, saves and logs, while our side builds and compares nothing.
        for i in range(resync["requests"]):
            client.call(endpoints.PROPERTY_UPDATE, path_params={"pid": vendor_ids[i % len(vendor_ids)]}, body={})

    floor = measure(floor_requests)
    for phase in (initial, resync):
        phase["outcomes"] = {str(outcome): count for outcome, count in phase.pop("result").items()}
        phase["vs_floor"] = round(phase["ms_per_request"] / floor["ms_per_request"], 2)
    del floor["result"]
    return {
        "properties": PROPERTIES,
        "per_property": {
            "room_types": ROOM_TYPES,
            "rate_plan_models": len(RATE_PLAN_MODELS),
            "rate_plans": ROOM_TYPES * len(RATE_PLAN_MODELS),
        },
        "resources": len(resources),
        "initial_sync": initial,
        "full_resync": resync,
        "floor": floor,
    }
