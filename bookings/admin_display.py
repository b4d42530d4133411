"""How a booking reads to the front desk: amounts with thousands separators and currency, stay dates in
Korea time, the nightly amounts as rows. A part of the bookings screens (bookings.admin): list, page, print."""

import datetime
from decimal import Decimal

from django.utils.formats import number_format

from core.dates import KOREA


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
