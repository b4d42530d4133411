"""The vendor API's one DRF exception handler: every failure as a row of the error table (bookings.errors),
answered as {"code": "<string>", "error": "<exact English text>"} with its HTTP status."""

import logging
import math
from typing import Any

from rest_framework import exceptions
from rest_framework.response import Response

from core.request_id import request_id_get

from ..errors import (
    ACCESS_DENIED,
    BAD_INPUT,
    NOT_FOUND,
    RATE_LIMITED,
    SYSTEM_ERROR,
    UNKNOWN_ERROR,
    ApiError,
    BookingError,
)

logger = logging.getLogger("bookings.api")


def answer_code(data: object) -> str:
    """The contract code of an answer's body: an error's code, "" for a booking or a policy."""
    if not isinstance(data, dict):
        return ""
    code = data.get("code")
    return code if isinstance(code, str) and "error" in data else ""


def error_response(error: ApiError) -> Response:
    """The contract's error answer for one row of the table."""
    return Response({"code": error.code, "error": error.message}, status=error.status)


# DRF's own exceptions, by the row they answer with. Anything not listed is unexpected (1000).
_DRF_ERRORS = (
    ((exceptions.AuthenticationFailed, exceptions.NotAuthenticated, exceptions.PermissionDenied), ACCESS_DENIED),
    ((exceptions.NotFound,), NOT_FOUND),
    (
        (
            exceptions.ValidationError,
            exceptions.ParseError,
            exceptions.UnsupportedMediaType,
            exceptions.MethodNotAllowed,
            exceptions.NotAcceptable,
        ),
        BAD_INPUT,
    ),
)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """Every failure of the vendor API as a row of the error table; unexpected ones are logged with a
    request id and answer 1000 without internals."""
    from django.http import Http404

    if isinstance(exc, BookingError):
        return error_response(exc.error)
    if isinstance(exc, Http404):
        return error_response(NOT_FOUND)
    if isinstance(exc, exceptions.Throttled):
        response = error_response(RATE_LIMITED)
        response["Retry-After"] = str(max(1, math.ceil(getattr(exc, "wait", None) or 1)))
        return response
    for classes, error in _DRF_ERRORS:
        if isinstance(exc, classes):
            return error_response(error)
    # A DRF error the table has no row for is "unknown" (9999); any other exception is a system error.
    error = UNKNOWN_ERROR if isinstance(exc, exceptions.APIException) else SYSTEM_ERROR
    # The request's own id (core.request_id): every line of the call and its call log row carry it too.
    request_id = request_id_get()
    request = context.get("request")
    logger.error(
        "vendor API: unexpected error (request id %s) on %s %s",
        request_id,
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        exc_info=exc,
    )
    return error_response(error)
