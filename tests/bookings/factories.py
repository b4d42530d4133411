"""Sellable content and create bodies for the booking tests."""

import datetime
import itertools

from core.dates import KOREA
from integration.channels.choices import ChannelStatus
from integration.models import PropertyChannel, RatePlanDay, RoomTypeDay, SalesChannel
from tests.factories import PropertyFactory, hub_content
from tests.integration.ari.factories import day

RATE = 100_000
MODIFY = 20_000
#: The hub channel the create bodies sell on; sellable() opens the property on it.
CHANNEL_ID = 7
_numbers = itertools.count(1)


def open_channel(prop, channel_id=CHANNEL_ID, *, channel_type="hub", **fields):
    """The property open and on sale on a channel (as the hub's statuses and our settings would have it)."""
    channel, _created = SalesChannel.objects.get_or_create(
        channel_id=channel_id, defaults={"name": f"Channel {channel_id}", "channel_type": channel_type}
    )
    return PropertyChannel.objects.update_or_create(
        property=prop, channel=channel, defaults={"status": ChannelStatus.OPEN, "on_sale": True, **fields}
    )[0]


def sellable(*, allotment=5, nights=14, refunds=None, max_capacity=4):
    """A property with a room type, a standalone and a package plan, rates and stock for the next nights
    (from tomorrow, Korea time). Returns (room_type, standalone_plan, package_plan)."""
    prop = PropertyFactory(refunds=refunds or {})
    room_type, _standalone_model, _package_model, (standalone, package) = hub_content(prop)
    room_type.max_capacity = max_capacity
    room_type.save(update_fields=["max_capacity"])
    dates = [day(n) for n in range(1, nights + 1)]
    RatePlanDay.objects.bulk_create(
        [RatePlanDay(rate_plan=standalone, date=d, rate=RATE) for d in dates]
        + [RatePlanDay(rate_plan=package, date=d, rate_modify=MODIFY) for d in dates]
    )
    RoomTypeDay.objects.bulk_create(
        RoomTypeDay(room_type=room_type, date=d, allotment=allotment, available=allotment) for d in dates
    )
    open_channel(prop)
    return room_type, standalone, package


def stay(first, nights):
    """Check-in at 15:00 and check-out at 11:00 Korea time, first = days from today."""
    checkin = datetime.datetime.combine(day(first), datetime.time(15), tzinfo=KOREA)
    checkout = datetime.datetime.combine(day(first + nights), datetime.time(11), tzinfo=KOREA)
    return checkin.isoformat(), checkout.isoformat()


def create_body(plan, *, first=1, nights=1, adults=2, children=0, **overrides):
    """A valid create body for plan, the amount being our own rates."""
    n = next(_numbers)
    checkin, checkout = stay(first, nights)
    per_night = RATE + (MODIFY if plan.model.type == "package" else 0)
    body = {
        "channel_id": CHANNEL_ID,
        "channel_name": "Channel Seven",
        "channel_booking_number": f"CH-{n}",
        "gds_booking_number": f"G-{n}",
        "gds_sub_booking_number": f"G-{n}-1",
        "property_id": plan.property.vendor_id,
        "roomtype_id": plan.room_type.vendor_id,
        "rateplan_id": plan.vendor_id,
        "type": "overnight",
        "checkin": checkin,
        "checkout": checkout,
        "currency": "KRW",
        "amount": per_night * nights,
        "total_amount": per_night * nights + 10_000,
        "net_price": per_night * nights - 5_000,
        "payment_type": "prepayment",
        "guest": {"name": "Kim Minji", "adults": adults, "children": children, "infants": 0, "pets": 0, "cars": 1},
        "booker": {"name": "Kim Minji", "email": "minji@example.com", "phone": "010-1234-5678"},
        "reserved_at": "2026-11-20T10:00:00+09:00",
    }
    body.update(overrides)
    return body


def stock(room_type):
    """[(date, allotment, held, taken, available)] of room_type, in date order."""
    return list(
        RoomTypeDay.objects.filter(room_type=room_type)
        .order_by("date")
        .values_list("date", "allotment", "held", "taken", "available")
    )
