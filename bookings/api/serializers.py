"""Input validation of the vendor API (decision 0011); any failure answers 3000."""

import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.dates import KOREA

from ..models import Booking
from ..selectors import LOOKUP_TYPES
from .limits import (
    EARLIEST_DATETIME,
    LATEST_DATETIME,
    MAX_AMOUNT,
    MAX_NIGHTS,
    RESERVED_AT_MAX_AHEAD,
    checkin_window,
)

_MAX_INT = 2_147_483_647  # the largest integer column value PostgreSQL stores


def _in_range(value: datetime.datetime) -> bool:
    """Whether an aware date-time lies within the API's bounds (compared without converting it, which
    could itself overflow at years 1 and 9999)."""
    return EARLIEST_DATETIME <= value < LATEST_DATETIME


def _stay_errors(checkin: datetime.date, checkout: datetime.date) -> dict[str, Any]:
    """The field errors of a stay given as Korea dates: check-in within checkin_window(), check-out not
    before it and at most MAX_NIGHTS nights later."""
    first, last = checkin_window()
    if not first <= checkin <= last:
        return {
            "checkin": _("Give a check-in from %(first)s to %(last)s (Korea time).") % {"first": first, "last": last}
        }
    if not 0 <= (checkout - checkin).days <= MAX_NIGHTS:
        return {
            "checkout": _("Give a check-out after check-in, at most %(nights)s nights later.") % {"nights": MAX_NIGHTS}
        }
    return {}


@extend_schema_field(OpenApiTypes.DATETIME)
class OffsetDateTimeField(serializers.Field):
    """An ISO 8601 date-time that must carry its UTC offset (e.g. 2026-12-01T15:00:00+09:00)."""

    default_error_messages = {
        "invalid": _("Give a date-time with its offset, such as 2026-12-01T15:00:00+09:00."),
        "range": _("Give a date-time from the year {first} to {last}."),
    }

    def to_internal_value(self, data: Any) -> datetime.datetime:
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            value = datetime.datetime.fromisoformat(data)
        except ValueError:
            self.fail("invalid")
        if value.tzinfo is None:
            self.fail("invalid")
        if not _in_range(value):
            self.fail("range", first=EARLIEST_DATETIME.year, last=LATEST_DATETIME.year - 1)
        return value

    def to_representation(self, value: datetime.date) -> str:
        return value.isoformat()


class TextField(serializers.CharField):
    """A JSON string (not a number made into one) that is valid UTF-8 text (no lone surrogates, which no
    database column can store; DRF's CharField already refuses NUL)."""

    default_error_messages = {"text": _("Give text without invalid characters.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        value = super().to_internal_value(data)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("text")
        return value


def _refuse_non_numbers(field: serializers.Field[Any, Any, Any, Any], data: Any) -> None:
    # DRF reads "7" as 7; the body's numbers are JSON numbers (decision 0013), and true is no number at all.
    if isinstance(data, bool) or not isinstance(data, int | float):
        field.fail("invalid")


class NumberField(serializers.IntegerField):
    """An integer given as a JSON number."""

    def to_internal_value(self, data: Any) -> int:
        _refuse_non_numbers(self, data)
        return super().to_internal_value(data)


@extend_schema_field(OpenApiTypes.NUMBER)
class AmountField(serializers.DecimalField):
    """An amount (KRW, 2 decimals at most) given as a JSON number, from 0 to MAX_AMOUNT."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=14, decimal_places=2, min_value=0, max_value=MAX_AMOUNT, **kwargs)

    def to_internal_value(self, data: Any) -> Decimal:
        _refuse_non_numbers(self, data)
        return super().to_internal_value(data)


def _count() -> NumberField:
    return NumberField(min_value=0, max_value=1000)


class GuestSerializer(serializers.Serializer):
    """The guest: a name and the party's counts."""

    name = TextField(max_length=200)
    adults = _count()
    children = _count()
    infants = _count()
    pets = _count()
    cars = _count()


class BookerSerializer(serializers.Serializer):
    """Who booked: name, email and phone."""

    name = TextField(max_length=200)
    email = TextField(max_length=254)
    phone = TextField(max_length=50)


class NightlyAmountSerializer(serializers.Serializer):
    """What the channel charged for one night."""

    date = serializers.DateField()
    amount = AmountField()


class BookingCreateSerializer(serializers.Serializer):
    """The body of POST /bookings."""

    channel_id = NumberField(min_value=1, max_value=_MAX_INT)
    channel_name = TextField(max_length=200)
    channel_booking_number = TextField(max_length=100, required=False, allow_null=True)
    gds_booking_number = TextField(max_length=100)
    gds_sub_booking_number = TextField(max_length=100)
    property_id = TextField(max_length=40)
    roomtype_id = TextField(max_length=40)
    # Optional (the spec: "omitted for bookings with no mapping", so omitted, not null): the room type is
    # then booked alone.
    rateplan_id = TextField(
        max_length=40, required=False, help_text="Omitted for a booking with no mapping: the room type is booked."
    )
    type = serializers.ChoiceField(choices=Booking.Type.choices, required=False)
    checkin = OffsetDateTimeField()
    checkout = OffsetDateTimeField()
    currency = serializers.RegexField(r"^[A-Z]{3}$")
    amount = AmountField()
    # When given, one entry per night of the stay (services.booking_create compares them).
    # many=True hands max_length to DRF's ListSerializer, which the stubs' Serializer signature lacks.
    rates = NightlyAmountSerializer(many=True, required=False, max_length=MAX_NIGHTS)  # type: ignore[call-arg]
    total_amount = AmountField()
    net_price = AmountField()
    payment_type = serializers.ChoiceField(choices=Booking.PaymentType.choices)
    guest = GuestSerializer()
    booker = BookerSerializer()
    reserved_at = OffsetDateTimeField()
    special_comment = TextField(required=False, allow_blank=True, max_length=4000)
    visit_type = serializers.ChoiceField(choices=Booking.VisitType.choices, required=False)
    secondary_channel = TextField(max_length=200, required=False, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["checkout"] <= attrs["checkin"]:
            raise serializers.ValidationError({"checkout": _("Check-out must be after check-in.")})
        errors = _stay_errors(attrs["checkin"].astimezone(KOREA).date(), attrs["checkout"].astimezone(KOREA).date())
        if attrs["reserved_at"] > timezone.now() + RESERVED_AT_MAX_AHEAD:
            errors["reserved_at"] = _("Give a reservation time that is not in the future.")
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class GuestChangeSerializer(GuestSerializer):
    """Guest fields to change (each optional)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class BookerChangeSerializer(BookerSerializer):
    """Booker fields to change (each optional)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class BookingModifySerializer(serializers.Serializer):
    """The body of PUT /bookings/{n}/modify: only what changes."""

    guest = GuestChangeSerializer(required=False)
    booker = BookerChangeSerializer(required=False)
    special_comment = TextField(required=False, allow_blank=True, max_length=4000)
    visit_type = serializers.ChoiceField(choices=Booking.VisitType.choices, required=False)
    total_amount = AmountField(required=False)


class BookingLookupSerializer(serializers.Serializer):
    """The query of GET /bookings/{number}."""

    type = serializers.ChoiceField(choices=LOOKUP_TYPES, required=False, default="vendor_booking_number")
    channel_id = serializers.IntegerField(min_value=1, max_value=_MAX_INT, required=False)


@extend_schema_field(OpenApiTypes.STR)
class KoreaDateField(serializers.Field):
    """A date (2026-12-01) or a date-time with its offset, as its date in Korea. A "+" of the offset
    that a query string turned into a space is read as "+"."""

    default_error_messages = {
        "invalid": _("Give a date, or a date-time with its offset."),
        "range": _("Give a date-time from the year {first} to {last}."),
    }

    def to_internal_value(self, data: Any) -> datetime.date:
        if not isinstance(data, str):
            self.fail("invalid")
        text = data.strip().replace(" ", "+") if "T" in data else data.strip()
        try:
            if len(text) == 10:
                value = datetime.datetime.combine(datetime.date.fromisoformat(text), datetime.time(), tzinfo=KOREA)
            else:
                value = datetime.datetime.fromisoformat(text)
        except ValueError:
            self.fail("invalid")
        if value.tzinfo is None:
            self.fail("invalid")
        if not _in_range(value):
            self.fail("range", first=EARLIEST_DATETIME.year, last=LATEST_DATETIME.year - 1)
        return value.astimezone(KOREA).date()

    def to_representation(self, value: datetime.date) -> str:
        return value.isoformat()


class RefundPolicyQuerySerializer(serializers.Serializer):
    """The query of GET /refund-policy."""

    property_id = TextField(max_length=40)
    roomtype_id = TextField(max_length=40)
    rateplan_id = TextField(max_length=40, required=False)
    checkin = KoreaDateField()
    checkout = KoreaDateField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        errors = _stay_errors(attrs["checkin"], attrs["checkout"])
        # DRF reads an empty optional query parameter as omitted; "rateplan_id=" names no rate plan.
        if "rateplan_id" in self.initial_data and "rateplan_id" not in attrs:
            errors["rateplan_id"] = _("Give a rate plan id, or leave the parameter out.")
        if errors:
            raise serializers.ValidationError(errors)
        return attrs
