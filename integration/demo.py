"""The demo data `make run` starts with: a realistic hanok stay with its rooms, rate plan models, rate
plans, 90 days of rates and availability, and an admin who manages it. Everything is queued for the hub,
so the demo shows it synced."""

import datetime
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from core.background.jobs import job_queue
from core.dates import korea_today

from .access.choices import MembershipRole
from .access.services import membership_grant
from .ari.dates import DateRange
from .ari.models_prices import PriceMethod, PricingSettings
from .ari.services.bulk import ari_edit_apply
from .ari.services.edits import AriEdit, Operation
from .ari.services.price_rules import channel_commission_set, price_rule_set
from .catalog.models import CatalogSnapshot
from .catalog.services.catalog import REFRESH_TASK as CATALOG_REFRESH_TASK
from .channels.models import PropertyChannel, SalesChannel
from .channels.services import (
    channel_mapping_update,
    channel_open_request,
    channel_settings_update,
    sales_channels_queue_refresh,
)
from .content.choices import RatePlanType
from .content.models import Property, RatePlan, RatePlanModel, RoomType
from .sync.services.outbox import sync_mark_changed

DEMO_ADMIN_USERNAME = "admin"
DEMO_PROPERTY = {
    "vendor_id": "demo-seochon-hanok",
    "name": "서촌 한옥스테이",
    "email": "stay@seochon-hanok.example",
    "phone": "02-730-1234",
    "sms_phone": "010-2345-6789",
    "checkin": datetime.time(15, 0),
    "checkout": datetime.time(11, 0),
    "website": "https://seochon-hanok.example",
    "refunds": {"0d": 0, "1d": 30, "3d": 50, "7d": 100},
    "classifications": ["hanok", "hanok.stay"],
    "property_tags": ["location.downtown", "theme.couple", "policy.no_smoking"],
    "facility_tags": ["parking", "dining.cafe"],
    "service_tags": ["wifi", "meal.breakfast", "front.luggage"],
    "attraction_tags": ["heritage", "heritage.gyeongbokgung", "shopping.traditional_market"],
    "extra_adult_price": 20000,
}
DEMO_PROPERTY_TEXT = {
    "ko-KR": {
        "name": "서촌 한옥스테이",
        "description": "경복궁 서쪽 골목에 자리한 100년 된 한옥을 고친 숙소입니다.",
        "address": "서울특별시 종로구 자하문로 12",
        "address_detail": "안채",
        "notice": "한옥 특성상 방음이 약할 수 있습니다. 밤 10시 이후에는 조용히 해 주세요.",
        "reservation_description": "체크인 당일 오후 1시에 출입 비밀번호를 문자로 보내 드립니다.",
        "refunds_description": "체크인 7일 전까지 전액, 3일 전까지 50%, 1일 전까지 30% 환불됩니다.",
    },
    "en-US": {
        "name": "Seochon Hanok Stay",
        "description": "A restored 100-year-old hanok in the lanes west of Gyeongbokgung Palace.",
        "address": "12 Jahamun-ro, Jongno-gu, Seoul",
        "address_detail": "Main wing",
    },
}
DEMO_PHOTOS = [
    ("https://images.seochon-hanok.example/courtyard.jpg", "마당", 0),
    ("https://images.seochon-hanok.example/gate.jpg", "대문", 1),
]
DEMO_ROOM_TYPES: list[dict[str, Any]] = [
    {
        "vendor_id": "ondol",
        "name": "온돌방",
        "en": "Ondol room",
        "fields": {
            "min_stay": 1,
            "max_stay": 14,
            "room_count": 4,
            "size": "19.80",
            "standard_capacity": 2,
            "max_capacity": 3,
            "roomtype_tags": ["room.ondol"],
            "amenity_tags": ["wifi", "bath.shower", "appliance.air_conditioner"],
            "view_tags": ["courtyard"],
            "details": {"room": 1, "bathroom": 1},
        },
    },
    {
        "vendor_id": "daecheong-suite",
        "name": "대청 스위트",
        "en": "Daecheong suite",
        "fields": {
            "min_stay": 1,
            "max_stay": 14,
            "room_count": 2,
            "size": "42.00",
            "standard_capacity": 2,
            "max_capacity": 4,
            "roomtype_tags": ["room.suite", "layout.separate_bedroom", "feature.terrace"],
            "amenity_tags": ["wifi", "bath.bathtub", "kitchen.coffee_machine", "appliance.tv"],
            "view_tags": ["garden"],
            "details": {"bedroom": 1, "living_room": 1, "bathroom": 1},
            "double_beds": 1,
        },
    },
    {
        "vendor_id": "family-annex",
        "name": "가족 별채",
        "en": "Family annex",
        "fields": {
            "min_stay": 2,
            "max_stay": 14,
            "room_count": 1,
            "size": "56.50",
            "standard_capacity": 4,
            "max_capacity": 6,
            "roomtype_tags": ["room.family", "layout.duplex"],
            "amenity_tags": ["wifi", "kitchen.cooktop", "appliance.refrigerator", "appliance.washer"],
            "view_tags": ["courtyard", "urban.landmark"],
            "details": {"bedroom": 2, "bathroom": 2},
            "single_beds": 2,
            "double_beds": 1,
        },
    },
]
DEMO_MODELS: list[dict[str, Any]] = [
    {"vendor_id": "room-only", "name": "객실만", "en": "Room only", "type": RatePlanType.STANDALONE, "fields": {}},
    {
        "vendor_id": "breakfast",
        "name": "한식 조식 포함",
        "en": "Korean breakfast included",
        "type": RatePlanType.PACKAGE,
        "fields": {"breakfast": True},
    },
    {
        "vendor_id": "early-bird",
        "name": "얼리버드 (환불 불가)",
        "en": "Early bird (non-refundable)",
        "type": RatePlanType.PACKAGE,
        "fields": {"refundable": False, "min_los": 2},
    },
]


@dataclass(frozen=True)
class DemoSeedResult:
    """What demo_seed did; password is set only when it created the admin user."""

    property: Property
    admin_username: str
    admin_password: str | None


@transaction.atomic
def demo_seed():
    """Create the demo property, its content and the admin user where missing, and queue what it created
    for the hub; running it again changes nothing."""
    demo_property, created = Property.objects.get_or_create(
        vendor_id=DEMO_PROPERTY["vendor_id"], defaults=DEMO_PROPERTY
    )
    if created:
        _create_content(demo_property)
    if not demo_property.channel_requests.exists():
        # Also a demo seeded before channels existed: its hand-made channel rows are kept (the hub's list
        # refreshes them), and it asks to open its channels as a new demo does.
        _open_channels(demo_property)
    User = get_user_model()
    password = None
    admin = User.objects.filter(username=DEMO_ADMIN_USERNAME).first()
    if admin is None:
        password = secrets.token_urlsafe(12)
        admin = User.objects.create_superuser(username=DEMO_ADMIN_USERNAME, email="", password=password)
    membership_grant(user=admin, property=demo_property, role=MembershipRole.MANAGER)
    if not SalesChannel.objects.filter(refreshed_at__isnull=False).exists():
        # The hub's channel list replaces the demo's rows once the web server (the sandbox) is up.
        sales_channels_queue_refresh()
    if not CatalogSnapshot.objects.exists():
        # The sandbox serves the catalog once the web server is up: the worker fetches it then.
        job_queue(CATALOG_REFRESH_TASK, countdown=5)
    return DemoSeedResult(property=demo_property, admin_username=admin.username, admin_password=password)


def _create_content(prop):
    for locale, text in DEMO_PROPERTY_TEXT.items():
        prop.translations.create(locale=locale, **text)
    for url, caption, order in DEMO_PHOTOS:
        prop.photos.create(url=url, description=caption, order=order)
    room_types = []
    for spec in DEMO_ROOM_TYPES:
        room_type = RoomType.objects.create(
            property=prop, vendor_id=spec["vendor_id"], name=spec["name"], **spec["fields"]
        )
        room_type.translations.create(locale="ko-KR", name=spec["name"])
        room_type.translations.create(locale="en-US", name=spec["en"])
        room_type.photos.create(url=f"https://images.seochon-hanok.example/{spec['vendor_id']}.jpg", order=0)
        room_types.append(room_type)
    models = []
    for spec in DEMO_MODELS:
        model = RatePlanModel.objects.create(
            property=prop, vendor_id=spec["vendor_id"], name=spec["name"], type=spec["type"], **spec["fields"]
        )
        model.translations.create(locale="ko-KR", name=spec["name"])
        model.translations.create(locale="en-US", name=spec["en"])
        models.append(model)
    plans = [
        RatePlan.objects.create(
            property=prop, room_type=room_type, model=model, vendor_id=f"{room_type.vendor_id}-{model.vendor_id}"
        )
        for room_type in room_types
        for model in models
    ]
    for obj in (prop, *room_types, *models, *plans):
        sync_mark_changed(obj)
    channels = _demo_channels()
    _create_rates_and_availability(room_types, plans, channels)
    _create_price_rules(prop, channels)


def _create_price_rules(prop, channels):
    """Hub OTA sells 10 % above the common rate; Travel Mall grosses the common rate up as the net wanted, by
    a typed 15 % commission until reconciled bookings measure its own. Both go out when the channels open."""
    hub_ota, travel_mall, *_others = channels
    PricingSettings.objects.create(property=prop, rounding_unit=100)
    price_rule_set(prop=prop, channel=hub_ota, rate_plan=None, method=PriceMethod.PERCENT, value=Decimal(10))
    channel_commission_set(prop=prop, channel=travel_mall, typed=Decimal(15))
    price_rule_set(prop=prop, channel=travel_mall, rate_plan=None, method=PriceMethod.NET, value=None)


def _demo_channels():
    return [
        SalesChannel.objects.get_or_create(channel_id=cid, defaults={"name": name, "channel_type": kind})[0]
        for cid, name, kind in DEMO_CHANNELS
    ]


def _open_channels(prop):
    """Requests to open channels 1, 2 and 3 (cms) and 5 (left pending), through the same services and
    outbox as a manager's, with what each will sell once open."""
    hub_ota, travel_mall, direct, global_ota = _demo_channels()
    room_types = list(prop.room_types.all())
    plans = list(prop.rate_plans.select_related("model"))
    for channel in (hub_ota, travel_mall, global_ota):
        channel_open_request(property=prop, channel=channel, comment="데모 숙소 판매 요청입니다.")
    channel_open_request(
        property=prop,
        channel=direct,
        cms_account_id=DEMO_CMS_ACCOUNT["cms_account_id"],
        cms_property_code=DEMO_CMS_ACCOUNT["cms_property_code"],
    )
    links = {link.channel_id: link for link in PropertyChannel.objects.filter(property=prop)}
    early_bird = [plan for plan in plans if plan.model.vendor_id == "early-bird"]
    channel_settings_update(property_channel=links[hub_ota.pk], on_sale=True)
    channel_settings_update(property_channel=links[travel_mall.pk], on_sale=True, rate_plans_off=early_bird)
    channel_settings_update(property_channel=links[direct.pk], on_sale=True)
    channel_mapping_update(
        property_channel=links[direct.pk],
        room_type_codes={
            room: DEMO_CMS_CODES[room.vendor_id] for room in room_types if room.vendor_id in DEMO_CMS_CODES
        },
        rate_plan_codes={plan: DEMO_CMS_CODES[plan.vendor_id] for plan in plans if plan.vendor_id in DEMO_CMS_CODES},
    )


#: Weekday and Friday/Saturday rates of each room type's standalone plan, and what the packages add.
DEMO_RATES = {"ondol": (89000, 119000), "daecheong-suite": (159000, 209000), "family-annex": (219000, 289000)}
DEMO_PACKAGE_DIFFERENCE = {"breakfast": 25000, "early-bird": -15000}
DEMO_ALLOTMENT = {"ondol": 4, "daecheong-suite": 2, "family-annex": 1}
#: The hub's channels the demo uses, as the sandbox hub lists them (the list itself is read from the hub
#: once the web server is up: the daily refresh, queued once by demo_seed).
DEMO_CHANNELS = [
    (1, "Hub OTA", SalesChannel.Type.HUB),
    (2, "Travel Mall", SalesChannel.Type.HUB),
    (3, "Direct channel (CMS)", SalesChannel.Type.CMS),
    (5, "Global OTA", SalesChannel.Type.HUB),
]
#: The demo's requests: open on two hub channels and one cms channel (the sandbox approves them after
#: HUB_SANDBOX_CHANNEL_REVIEW_SECONDS), and one request the sandbox leaves pending (channel 5 waits for
#: its admin). What each sells is prepared now and sent when the channel opens.
DEMO_CMS_ACCOUNT = {"cms_account_id": "seochon-hanok", "cms_property_code": "SEOCHON-01"}
DEMO_CMS_CODES = {
    "ondol": "OND",
    "daecheong-suite": "DCS",
    "ondol-room-only": "OND-RO",
    "daecheong-suite-room-only": "DCS-RO",
}
DEMO_DAYS = 90


def _create_rates_and_availability(room_types, plans, channels):
    """The next 90 days: Friday and Saturday dearer, packages priced against the standalone plan, and
    the cms channel selling the ondol room dearer at weekends."""
    days = (DateRange(korea_today(), korea_today() + datetime.timedelta(days=DEMO_DAYS - 1)),)
    weekdays, weekend = frozenset({0, 1, 2, 3, 6}), frozenset({4, 5})
    by_key = {(plan.room_type.vendor_id, plan.model.vendor_id): plan for plan in plans}
    for room_type in room_types:
        standalone = by_key[(room_type.vendor_id, "room-only")]
        for pattern, rate in zip((weekdays, weekend), DEMO_RATES[room_type.vendor_id], strict=True):
            ari_edit_apply(
                AriEdit(ranges=days, operation=Operation.SET, value=rate, rate_plans=(standalone,), weekdays=pattern)
            )
            for model_id, difference in DEMO_PACKAGE_DIFFERENCE.items():
                ari_edit_apply(
                    AriEdit(
                        ranges=days,
                        operation=Operation.SET,
                        value=rate + difference,
                        rate_plans=(by_key[(room_type.vendor_id, model_id)],),
                        weekdays=pattern,
                    )
                )
        ari_edit_apply(
            AriEdit(
                ranges=days,
                operation=Operation.SET_AVAILABILITY,
                value=DEMO_ALLOTMENT[room_type.vendor_id],
                room_types=(room_type,),
            )
        )
    ari_edit_apply(
        AriEdit(
            ranges=days,
            operation=Operation.SET,
            value=DEMO_RATES["ondol"][1] + 10000,
            rate_plans=(by_key[("ondol", "room-only")],),
            weekdays=weekend,
            channel=channels[2],
        )
    )
