"""The rates-and-availability benchmark's measurements. Import once Django is set up.

A bulk edit of 50 rate plans (10 room types x 5 models) x 365 days x 3 channels: its hub requests
against the goal of one per rate plan and one per affected room type, its bytes against one entry per
day, the time to apply it, and the time to push it against the sandbox's floor; and the calendar grid
of 10 room types and 30 rate plans: queries and render time, against a grid of one room type.
"""

import datetime
import time

from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.pages import superuser_client
from bench.sync_cases import measure
from core.dates import korea_today
from integration.ari.dates import DateRange
from integration.ari.resources import rate_plan_push_values
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.content.choices import RatePlanType
from integration.hub import endpoints
from integration.hub.client import encode_body, get_hub_client
from integration.hub.payloads import build_ari_bodies
from integration.models import Property, PropertyChannel, RatePlan, RatePlanModel, RoomType, SalesChannel
from integration.sync.services.batch import sync_pending

ROOM_TYPES = 10
MODELS = 5  # one standalone, four packages: 50 rate plans
DAYS = 365
CHANNELS = (3, 5, 7)


def create_property(vendor_id, room_types, models):
    """A property with room_types x models rate plans and Korean names, known to the hub."""
    prop = Property.objects.create(vendor_id=vendor_id, name=vendor_id)
    prop.translations.create(locale="ko-KR", name=f"{vendor_id} 숙소")
    rooms = [RoomType.objects.create(property=prop, vendor_id=f"room-{n}", name=f"Room {n}") for n in range(room_types)]
    for room in rooms:
        room.translations.create(locale="ko-KR", name=f"{room.name} 객실")
    plans_models = []
    for n in range(models):
        model = RatePlanModel.objects.create(
            property=prop,
            vendor_id=f"model-{n}",
            name=f"Model {n}",
            type=RatePlanType.STANDALONE if n == 0 else RatePlanType.PACKAGE,
        )
        model.translations.create(locale="ko-KR", name=f"요금 {n}")
        plans_models.append(model)
    for room in rooms:
        for model in plans_models:
            RatePlan.objects.create(
                property=prop, room_type=room, model=model, vendor_id=f"{room.vendor_id}-{model.vendor_id}"
            )
    sync_pending(full=True)  # the hub knows the content first
    return prop, rooms


def bulk_edits(prop, rooms):
    """The edits of the bulk change (76,650 cells) of a property made by create_property: weekday and
    weekend rates, a rate on each of three channels (opened for it), and availability over 365 days."""
    plans = list(RatePlan.objects.filter(property=prop).select_related("model", "room_type", "property"))
    standalone = [plan for plan in plans if plan.model.type == RatePlanType.STANDALONE]
    packages = [plan for plan in plans if plan.model.type == RatePlanType.PACKAGE]
    channels = [
        SalesChannel.objects.get_or_create(channel_id=cid, defaults={"name": f"Channel {cid}"})[0] for cid in CHANNELS
    ]
    # Only the channels open for the property get their own values at the hub.
    PropertyChannel.objects.bulk_create(PropertyChannel(property=prop, channel=c, status="open") for c in channels)
    year = _year()
    weekdays, weekend = frozenset({0, 1, 2, 3, 6}), frozenset({4, 5})

    def rates(value, plans, **options):
        return AriEdit(ranges=year, operation=Operation.SET, value=value, rate_plans=tuple(plans), **options)

    return [
        rates(100000, standalone, weekdays=weekdays),
        rates(130000, standalone, weekdays=weekend),
        rates(125000, packages, weekdays=weekdays),
        rates(155000, packages, weekdays=weekend),
        *(rates(110000 + 1000 * n, plans, channel=channel) for n, channel in enumerate(channels)),
        AriEdit(ranges=year, operation=Operation.SET_AVAILABILITY, value=5, room_types=tuple(rooms)),
    ]


def _year():
    return (DateRange(korea_today(), korea_today() + datetime.timedelta(days=DAYS - 1)),)


def bulk_edit():
    """One bulk change: weekday and weekend rates, a rate on each of three channels, and availability,
    over 365 days of 50 rate plans; applied in one transaction, then pushed."""
    prop, rooms = create_property("bulk", ROOM_TYPES, MODELS)
    plans = list(RatePlan.objects.filter(property=prop).select_related("model", "room_type", "property"))
    edits, year = bulk_edits(prop, rooms), _year()
    started = time.perf_counter()
    with transaction.atomic():
        for edit in edits:
            ari_edit_apply(edit)
    apply_seconds = time.perf_counter() - started

    pushed = measure(lambda: dict(sync_pending().counts))

    # Our own share of the push: reading the days and building the bodies, without sending them.
    started = time.perf_counter()
    for plan in plans:
        build_ari_bodies("rates", *rate_plan_push_values(plan, list(year)))
    build_seconds = time.perf_counter() - started

    # The same values with one entry per day (no runs): what a day-by-day sender would put on the wire.
    per_day_bytes = 0
    for plan in plans:
        common, by_channel = rate_plan_push_values(plan, list(year))
        per_day = [{"from": d.isoformat(), "to": d.isoformat(), **v} for d, v in common]
        per_channel = [
            {"channel_id": cid, "rates": [{"from": d.isoformat(), "to": d.isoformat(), **v} for d, v in values]}
            for cid, values in by_channel.items()
        ]
        per_day_bytes += len(encode_body({"rates": per_day, "channels": per_channel}))
    ours_rate_bytes = sum(
        len(encode_body(body))
        for plan in plans
        for body in build_ari_bodies("rates", *rate_plan_push_values(plan, list(year)))
    )

    client = get_hub_client()

    def floor_requests():
        # A valid, empty availability update: the sandbox authenticates, parses and logs; we build nothing.
        for i in range(pushed["requests"]):
            room = rooms[i % len(rooms)]
            client.call(
                endpoints.ARI_AVAILS, path_params={"pid": prop.vendor_id, "rid": room.vendor_id}, body={"avails": []}
            )

    floor = measure(floor_requests)
    return {
        "rate_plans": len(plans),
        "room_types": len(rooms),
        "days": DAYS,
        "channels": len(CHANNELS),
        "cells_written": len(plans) * DAYS * (1 + len(CHANNELS)) + len(rooms) * DAYS,
        "apply_seconds": round(apply_seconds, 3),
        "requests": pushed["requests"],
        "goal_requests": len(plans) + len(rooms),
        "request_bytes": pushed["request_bytes"],
        "rate_bytes_runs": ours_rate_bytes,
        "rate_bytes_one_entry_per_day": per_day_bytes,
        "bytes_ratio": round(per_day_bytes / max(1, ours_rate_bytes), 1),
        "push_seconds": pushed["seconds"],
        "build_seconds_rates": round(build_seconds, 3),
        "push_ms_per_request": pushed["ms_per_request"],
        "floor_ms_per_request": floor["ms_per_request"],
        "vs_floor": round(pushed["ms_per_request"] / floor["ms_per_request"], 2),
        "outcomes": {str(k): v for k, v in pushed["result"].items()},
    }


def grid_page(url_for):
    """Queries and render time of a month of the calendar grid: 10 room types x 3 rate plans, against a
    grid of one room type with one rate plan. url_for(prop) is the grid's URL."""
    client = superuser_client(Client)
    figures = {}
    for label, rooms, models in (("small", 1, 1), ("large", 10, 3)):
        prop, room_types = create_property(f"grid-{label}", rooms, models)
        month = (DateRange(korea_today(), korea_today() + datetime.timedelta(days=30)),)
        with transaction.atomic():
            ari_edit_apply(
                AriEdit(ranges=month, operation=Operation.SET_AVAILABILITY, value=4, room_types=tuple(room_types))
            )
            standalone = tuple(RatePlan.objects.filter(property=prop, model__type=RatePlanType.STANDALONE))
            ari_edit_apply(AriEdit(ranges=month, operation=Operation.SET, value=90000, rate_plans=standalone))
        client.get(url_for(prop))  # warm up templates and caches
        timings = []
        for _ in range(5):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url_for(prop))
                timings.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"the grid answered {response.status_code}")
        figures[label] = {
            "room_types": rooms,
            "rate_plans": rooms * models,
            "status": response.status_code,
            "queries": len(queries),
            "render_ms": round(1000 * sorted(timings)[len(timings) // 2], 1),
        }
    return figures
