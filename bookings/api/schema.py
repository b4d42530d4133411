"""The vendor API's OpenAPI description (drf-spectacular): the answer shapes and the hub's
authentication headers. Used only for the schema; the views render their answers themselves."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from ..errors import ERROR_TABLE
from ..models import Booking
from .serializers import BookerSerializer, GuestSerializer, NightlyAmountSerializer


class ErrorAnswerSerializer(serializers.Serializer):
    """Every error: a code of the error table and its exact English text."""

    code = serializers.ChoiceField(choices=[error.code for error in ERROR_TABLE])
    error = serializers.CharField()


class BookingAnswerSerializer(serializers.Serializer):
    """A booking as the hub reads it; optional fields with no value are omitted."""

    vendor_booking_number = serializers.CharField()
    status = serializers.ChoiceField(choices=Booking.Status.choices)
    type = serializers.ChoiceField(choices=Booking.Type.choices)
    channel_id = serializers.IntegerField()
    channel_name = serializers.CharField()
    channel_booking_number = serializers.CharField(required=False)
    gds_booking_number = serializers.CharField()
    gds_sub_booking_number = serializers.CharField()
    property_id = serializers.CharField()
    roomtype_id = serializers.CharField()
    rateplan_id = serializers.CharField(required=False, help_text="Omitted for a booking with no rate plan.")
    checkin = serializers.DateTimeField()
    checkout = serializers.DateTimeField()
    currency = serializers.CharField()
    amount = serializers.FloatField()
    rates = NightlyAmountSerializer(many=True, required=False)
    total_amount = serializers.FloatField()
    net_price = serializers.FloatField()
    payment_type = serializers.ChoiceField(choices=Booking.PaymentType.choices)
    guest = GuestSerializer()
    booker = BookerSerializer()
    reserved_at = serializers.DateTimeField()
    special_comment = serializers.CharField(required=False)
    visit_type = serializers.ChoiceField(choices=Booking.VisitType.choices, required=False)
    secondary_channel = serializers.CharField(required=False)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    canceled_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField()


class RefundStepSerializer(serializers.Serializer):
    """Cancelling until this time refunds this percent."""

    until = serializers.DateTimeField()
    percent = serializers.FloatField(min_value=0, max_value=100)


class RefundPolicyAnswerSerializer(serializers.Serializer):
    """The refund policy of a stay."""

    refundable = serializers.BooleanField()
    policies = RefundStepSerializer(many=True)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorAnswerSerializer, description=description)


ERROR_RESPONSES = {
    400: _error("3000: the input is not valid"),
    403: _error("2000: authentication failed"),
    404: _error("4004: no such booking"),
    409: _error("4000-4007: the booking cannot be made or changed"),
    500: _error("1000 or 9999: an error on our side"),
}

SIGNATURE_HEADERS = [
    OpenApiParameter(name, str, OpenApiParameter.HEADER, required=True, description=description)
    for name, description in (
        ("webhook-id", "Unique per call; a repeated id is refused."),
        ("webhook-timestamp", "Unix seconds; at most 300 s from now."),
        ("webhook-signature", 'Space-separated "v1,<base64 HMAC-SHA256>" of "{id}.{timestamp}.{raw body}".'),
    )
]


class HubSignatureScheme(OpenApiAuthenticationExtension):
    """The bearer token half of the hub's authentication (the signature headers are parameters)."""

    target_class = "bookings.api.authentication.HubSignatureAuthentication"
    name = "hubBearer"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer"}
