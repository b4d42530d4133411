"""The booking answer of the vendor API: the create body's names plus vendor_booking_number, status,
confirmed_at, canceled_at and updated_at; optional fields with no value are omitted (decision 0011)."""

import datetime
from decimal import Decimal
from typing import Any

from core.dates import KOREA

from ..models import Booking


def _number(value: Decimal | int | float | str) -> int | float:
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _time(value: datetime.datetime | None) -> str | None:
    return value.astimezone(KOREA).isoformat() if value else None


def booking_answer(booking: Booking) -> dict[str, Any]:
    """The booking as the hub reads it."""
    answer: dict[str, Any] = {
        "vendor_booking_number": booking.vendor_booking_number,
        "status": booking.status,
        "type": booking.type,
        "channel_id": booking.channel_id,
        "channel_name": booking.channel_name,
        "channel_booking_number": booking.channel_booking_number,
        "gds_booking_number": booking.gds_booking_number,
        "gds_sub_booking_number": booking.gds_sub_booking_number,
        "property_id": booking.property.vendor_id,
        "roomtype_id": booking.room_type.vendor_id,
        "rateplan_id": booking.rate_plan.vendor_id if booking.rate_plan else None,
        "checkin": _time(booking.checkin),
        "checkout": _time(booking.checkout),
        "currency": booking.currency,
        "amount": _number(booking.amount),
        "rates": [{"date": r["date"], "amount": _number(r["amount"])} for r in booking.rates or []],
        "total_amount": _number(booking.total_amount),
        "net_price": _number(booking.net_price),
        "payment_type": booking.payment_type,
        "guest": {
            "name": booking.guest_name,
            "adults": booking.adults,
            "children": booking.children,
            "infants": booking.infants,
            "pets": booking.pets,
            "cars": booking.cars,
        },
        "booker": {"name": booking.booker_name, "email": booking.booker_email, "phone": booking.booker_phone},
        "reserved_at": _time(booking.reserved_at),
        "special_comment": booking.special_comment,
        "visit_type": booking.visit_type,
        "secondary_channel": booking.secondary_channel,
        "confirmed_at": _time(booking.confirmed_at),
        "canceled_at": _time(booking.canceled_at),
        "updated_at": _time(booking.updated_at),
    }
    optional = ("channel_booking_number", "rateplan_id", "rates", "special_comment", "visit_type", "secondary_channel")
    for key in optional:
        if answer[key] in (None, "", []):
            del answer[key]
    return answer
