"""The vendor API's views: one per operation, each authenticating the hub, validating its input and
calling one service. Every call is logged (InboundCall) without tokens or signatures; a call refused
by authentication only by its method, path, address, answer and declared size (RefusedCall), its body never
read (a flood of them from many addresses costs about 150 bytes a call); one the refused calls' rate limit
turns away is a log line and a metric, no row."""

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.http.request import RawPostDataException
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from core.client_address import client_address
from core.metrics import vendor_api_call_observed

from .. import selectors, services
from ..models import Booking, InboundCall, RefusedCall
from .answers import booking_answer
from .authentication import BodyTooLarge, HubSignatureAuthentication, check_body_size
from .errors import answer_code, exception_handler
from .limits import MAX_BODY_BYTES
from .parsers import HubJSONParser
from .schema import ERROR_RESPONSES, SIGNATURE_HEADERS, BookingAnswerSerializer, RefundPolicyAnswerSerializer
from .serializers import (
    BookingCreateSerializer,
    BookingLookupSerializer,
    BookingModifySerializer,
    RefundPolicyQuerySerializer,
)
from .throttling import RefusedCallThrottle, VendorApiThrottle

logger = logging.getLogger("bookings.api")

#: Request headers never stored in the call log.
_SECRET_HEADERS = {"authorization", "webhook-signature", "cookie", "proxy-authorization"}
#: The call log keeps at most this much of each body.
_MAX_LOGGED_BODY = 20_000
#: The call log keeps a call's headers up to this many characters in all (names and values).
MAX_LOGGED_HEADERS = 8_000


class VendorApiView(APIView):
    """What every vendor API view shares: the hub's authentication, JSON in and out, the one error
    handler, and the call log."""

    authentication_classes = [HubSignatureAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [HubJSONParser]
    renderer_classes = [JSONRenderer]
    throttle_classes = [VendorApiThrottle]
    booking: Booking | None = None
    refused_limit: RefusedCallThrottle
    #: Whether the call was refused before it was authenticated (logged without headers or body).
    refused = False
    #: Whether the refused calls' limit turned the call away: counted and logged as a line, no row stored.
    turned_away = False

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response]:
        return exception_handler

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self._started = time.monotonic()
        self.refused_limit = RefusedCallThrottle()
        if not self.refused_limit.allow_request(request, self):
            self.refused = self.turned_away = True
            self.throttled(request, self.refused_limit.wait() or 0.0)
        super().initial(request, *args, **kwargs)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
            self.refused = True
            self.refused_limit.record()
        return super().handle_exception(exc)

    def validated(self, serializer_class: type[Serializer[Any]], data: Any) -> dict[str, Any]:
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def answer(self, booking: Booking) -> Response:
        self.booking = booking
        return Response(booking_answer(booking))

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        started = getattr(self, "_started", None)
        duration = int((time.monotonic() - started) * 1000) if started else 0
        try:
            _log_call(
                request._request,
                response,
                duration,
                self.booking,
                kwargs.get("number", ""),
                client_address(request._request),
                refused=self.refused,
                turned_away=self.turned_away,
            )
        except Exception:  # the answer stands even when the log cannot be written
            logger.exception("vendor API: the call could not be logged")
        return response


def _storable(text: str, limit: int = _MAX_LOGGED_BODY) -> str:
    """text as any database column stores it: NUL bytes and lone surrogates escaped, cut at limit."""
    text = text.replace("\x00", "\\u0000")
    return text.encode("utf-8", errors="backslashreplace").decode("utf-8")[:limit]


def _logged_body(request: HttpRequest) -> str:
    """The body as text (bytes that are not UTF-8 as \\x escapes); a body over the limit is not read."""
    try:
        check_body_size(request)
    except BodyTooLarge:
        return f"(not read: over {MAX_BODY_BYTES} bytes, or without Content-Length)"
    try:
        return request.body.decode("utf-8", errors="backslashreplace")
    except RawPostDataException:
        return ""


def _logged_headers(request: HttpRequest) -> dict[str, str]:
    """The headers without secrets, each cut, all of them together at most MAX_LOGGED_HEADERS characters
    (the first ones kept; the rest counted under "…")."""
    headers: dict[str, str] = {}
    room = MAX_LOGGED_HEADERS
    left_out = 0
    for name, value in request.headers.items():
        if name.lower() in _SECRET_HEADERS:
            continue
        name, value = _storable(name, 200), _storable(value, 2000)
        if len(name) + len(value) > room:
            left_out += 1
            continue
        headers[name] = value
        room -= len(name) + len(value)
    if left_out:
        headers["…"] = f"{left_out} more not stored"
    return headers


def _declared_size(request: HttpRequest) -> int | None:
    """The body's size as its Content-Length declares it (None: absent or not a number)."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    return size if 0 <= size < 2**31 else None


def _log_call(
    request: HttpRequest,
    response: Response,
    duration_ms: int,
    booking: Booking | None,
    number: str,
    address: str,
    *,
    refused: bool,
    turned_away: bool,
) -> None:
    code = answer_code(response.data)
    operation = request.resolver_match.url_name if request.resolver_match else "unknown"
    vendor_api_call_observed(operation, code, duration_ms / 1000)
    logger.info(
        "vendor API %s answered %s %s in %d ms to %s",
        operation,
        response.status_code,
        code or "ok",
        duration_ms,
        address,
        extra={"client_address": address},
    )
    if turned_away:
        return
    if refused:
        # A refused call keeps nothing its sender chose but the path: its body is never read.
        RefusedCall.objects.create(
            method=_storable(request.method or "", 10),
            path=_storable(request.get_full_path(), 500),
            address=_storable(address, 64),
            status=response.status_code,
            code=code,
            body_size=_declared_size(request),
        )
        return
    InboundCall.objects.create(
        method=_storable(request.method or "", 10),
        path=_storable(request.get_full_path(), 500),
        request_headers=_logged_headers(request),
        request_body=_storable(_logged_body(request)),
        body_size=_declared_size(request),
        address=_storable(address, 64),
        status=response.status_code,
        response_body=_storable(json.dumps(response.data, ensure_ascii=False)),
        duration_ms=duration_ms,
        code=code,
        request_id=getattr(request, "request_id", ""),
        booking=booking,
        booking_number=booking.vendor_booking_number if booking else _storable(number, 100),
    )


class BookingCreateView(VendorApiView):
    """POST /bookings: a pending booking holding its nights (or the existing one, for a retry)."""

    @extend_schema(
        request=BookingCreateSerializer,
        responses={200: BookingAnswerSerializer, **ERROR_RESPONSES},
        parameters=[*SIGNATURE_HEADERS],
    )
    def post(self, request: Request) -> Response:
        booking, _created = services.booking_create(payload=self.validated(BookingCreateSerializer, request.data))
        return self.answer(booking)


class BookingConfirmView(VendorApiView):
    """PUT /bookings/{n}/confirm."""

    @extend_schema(
        request=None, responses={200: BookingAnswerSerializer, **ERROR_RESPONSES}, parameters=[*SIGNATURE_HEADERS]
    )
    def put(self, request: Request, number: str) -> Response:
        return self.answer(services.booking_confirm(number=number))


class BookingModifyView(VendorApiView):
    """PUT /bookings/{n}/modify."""

    @extend_schema(
        request=BookingModifySerializer,
        responses={200: BookingAnswerSerializer, **ERROR_RESPONSES},
        parameters=[*SIGNATURE_HEADERS],
    )
    def put(self, request: Request, number: str) -> Response:
        changes = self.validated(BookingModifySerializer, request.data)
        return self.answer(services.booking_modify(number=number, changes=changes))


class BookingCancelView(VendorApiView):
    """POST /bookings/{n}/cancel."""

    @extend_schema(
        request=None, responses={200: BookingAnswerSerializer, **ERROR_RESPONSES}, parameters=[*SIGNATURE_HEADERS]
    )
    def post(self, request: Request, number: str) -> Response:
        return self.answer(services.booking_cancel(number=number))


class BookingDetailView(VendorApiView):
    """GET /bookings/{number}?type=...&channel_id=..."""

    @extend_schema(
        request=None,
        responses={200: BookingAnswerSerializer, **ERROR_RESPONSES},
        parameters=[*SIGNATURE_HEADERS, BookingLookupSerializer],
    )
    def get(self, request: Request, number: str) -> Response:
        query = self.validated(BookingLookupSerializer, request.query_params)
        booking = selectors.booking_get(number=number, lookup=query["type"], channel_id=query.get("channel_id"))
        return self.answer(booking)


class RefundPolicyView(VendorApiView):
    """GET /refund-policy?property_id=&roomtype_id=&rateplan_id=&checkin=&checkout="""

    @extend_schema(
        request=None,
        responses={200: RefundPolicyAnswerSerializer, **ERROR_RESPONSES},
        parameters=[*SIGNATURE_HEADERS, RefundPolicyQuerySerializer],
    )
    def get(self, request: Request) -> Response:
        query = self.validated(RefundPolicyQuerySerializer, request.query_params)
        return Response(
            selectors.refund_policy(
                property_id=query["property_id"],
                roomtype_id=query["roomtype_id"],
                rateplan_id=query.get("rateplan_id"),
                checkin=query["checkin"],
            )
        )
