"""How a booking reads to the front desk: amounts with thousands separators and currency, stay dates in
Korea time, the nightly amounts as rows. A part of the bookings screens (bookings.admin): list, page, print."""

import datetime
from decimal import Decimal

from django.contrib.admin.utils import display_for_field
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.formats import number_format

from core.dates import KOREA

from .models import Booking


def amount_text(value, currency):
    """An amount with the language's thousands separators and its currency (110,000 KRW); decimals
    only when it has some."""
    if value is None:
        return "-"
    value = Decimal(value)
    places = 0 if value == value.to_integral_value() else 2
    return f"{number_format(value, decimal_pos=places, use_l10n=True, force_grouping=True)} {currency}"


def stay_dates(booking):
    """(check-in date, check-out date) in Korea, where the hotel is."""
    return booking.checkin.astimezone(KOREA).date(), booking.checkout.astimezone(KOREA).date()


def night_rows(booking):
    """[(night, amount or None)] in date order: the channel's nightly amounts where the hub sent them,
    None for a night it sent none for."""
    given = {rate["date"]: rate["amount"] for rate in booking.rates or []}
    return [(datetime.date.fromisoformat(night), given.get(night)) for night in booking.nights]


def booking_value_text(name, value, currency):
    """A value of the Booking field `name` as the booking page shows it, whoever holds it (ours or the
    hub's answer): a choice by its label (확정됨, 숙박), an amount with separators and currency, a date-time
    in Korea time in the reader's format; None when empty. A value the field cannot read stays as sent."""
    if value in (None, ""):
        return None
    field = Booking._meta.get_field(name)
    if isinstance(field, models.DecimalField):
        return amount_text(value, currency)
    if field.is_relation or not isinstance(field, models.Field):  # the hub's id of the property, room type, ...
        return str(value)
    try:
        value = field.to_python(value)
    except ValidationError:
        return str(value)
    # None for a value outside the field's choices (shown as absent); Django takes any empty value, the stubs
    # want a str.
    return display_for_field(value, field, None)  # type: ignore[arg-type]
