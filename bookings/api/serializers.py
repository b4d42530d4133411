"""Input validation of the vendor API (contract section 3); any failure answers 3000."""

import datetime

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from integration.ari.dates import KOREA

from ..models import Booking
from ..services import LOOKUP_TYPES


@extend_schema_field(OpenApiTypes.DATETIME)
class OffsetDateTimeField(serializers.Field):
    """An ISO 8601 date-time that must carry its UTC offset (e.g. 2026-12-01T15:00:00+09:00)."""

    default_error_messages = {"invalid": _("Give a date-time with its offset, such as 2026-12-01T15:00:00+09:00.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            value = datetime.datetime.fromisoformat(data)
        except ValueError:
            self.fail("invalid")
        if value.tzinfo is None:
            self.fail("invalid")
        return value

    def to_representation(self, value):
        return value.isoformat()


class TextField(serializers.CharField):
    """A string that is valid UTF-8 text (no lone surrogates, which no database column can store)."""

    default_error_messages = {"text": _("Give text without invalid characters.")}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("text")
        return value


def _amount(**kwargs):
    return serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, **kwargs)


def _count():
    return serializers.IntegerField(min_value=0, max_value=1000)


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
    amount = _amount()


class BookingCreateSerializer(serializers.Serializer):
    """The body of POST /bookings."""

    channel_id = serializers.IntegerField(min_value=1, max_value=2_147_483_647)
    channel_name = TextField(max_length=200)
    channel_booking_number = TextField(max_length=100, required=False, allow_null=True)
    gds_booking_number = TextField(max_length=100)
    gds_sub_booking_number = TextField(max_length=100)
    property_id = TextField(max_length=40)
    roomtype_id = TextField(max_length=40)
    rateplan_id = TextField(max_length=40)
    type = serializers.ChoiceField(choices=Booking.Type.choices, required=False)
    checkin = OffsetDateTimeField()
    checkout = OffsetDateTimeField()
    currency = serializers.RegexField(r"^[A-Z]{3}$")
    amount = _amount()
    rates = NightlyAmountSerializer(many=True, required=False)
    total_amount = _amount()
    net_price = _amount()
    payment_type = serializers.ChoiceField(choices=Booking.PaymentType.choices)
    guest = GuestSerializer()
    booker = BookerSerializer()
    reserved_at = OffsetDateTimeField()
    special_comment = TextField(required=False, allow_blank=True, max_length=4000)
    visit_type = serializers.ChoiceField(choices=Booking.VisitType.choices, required=False)
    secondary_channel = TextField(max_length=200, required=False, allow_blank=True)

    def validate(self, attrs):
        if attrs["checkout"] <= attrs["checkin"]:
            raise serializers.ValidationError({"checkout": _("Check-out must be after check-in.")})
        return attrs


class GuestChangeSerializer(GuestSerializer):
    """Guest fields to change (each optional)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class BookerChangeSerializer(BookerSerializer):
    """Booker fields to change (each optional)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class BookingModifySerializer(serializers.Serializer):
    """The body of PUT /bookings/{n}/modify: only what changes."""

    guest = GuestChangeSerializer(required=False)
    booker = BookerChangeSerializer(required=False)
    special_comment = TextField(required=False, allow_blank=True, max_length=4000)
    visit_type = serializers.ChoiceField(choices=Booking.VisitType.choices, required=False)
    total_amount = _amount(required=False)


class BookingLookupSerializer(serializers.Serializer):
    """The query of GET /bookings/{number}."""

    type = serializers.ChoiceField(choices=LOOKUP_TYPES, required=False, default="vendor_booking_number")
    channel_id = serializers.IntegerField(min_value=1, required=False)


@extend_schema_field(OpenApiTypes.STR)
class KoreaDateField(serializers.Field):
    """A date (2026-12-01) or a date-time with its offset, as its date in Korea. A "+" of the offset
    that a query string turned into a space is read as "+"."""

    default_error_messages = {"invalid": _("Give a date, or a date-time with its offset.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        text = data.strip().replace(" ", "+") if "T" in data else data.strip()
        try:
            if len(text) == 10:
                return datetime.date.fromisoformat(text)
            value = datetime.datetime.fromisoformat(text)
        except ValueError:
            self.fail("invalid")
        if value.tzinfo is None:
            self.fail("invalid")
        return value.astimezone(KOREA).date()

    def to_representation(self, value):
        return value.isoformat()


class RefundPolicyQuerySerializer(serializers.Serializer):
    """The query of GET /refund-policy."""

    property_id = TextField(max_length=40)
    roomtype_id = TextField(max_length=40)
    rateplan_id = TextField(max_length=40)
    checkin = KoreaDateField()
    checkout = KoreaDateField()

    def validate(self, attrs):
        if attrs["checkout"] < attrs["checkin"]:
            raise serializers.ValidationError({"checkout": _("Check-out must be after check-in.")})
        return attrs
