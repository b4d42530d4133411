"""The one error table of the vendor API (contract section 3) and the one DRF exception handler that
turns every failure into {"code": "<string>", "error": "<exact English text>"} with its HTTP status."""

import logging
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.response import Response

from core.request_id import request_id_get

logger = logging.getLogger("bookings.api")


@dataclass(frozen=True)
class ApiError:
    """One row of the error table; its message is the contract's exact English text, never translated;
    label is what the admin's screens call it, in the user's language."""

    code: str
    message: str
    status: int
    label: str | Promise


SYSTEM_ERROR = ApiError("1000", "An error occurred during system processing", 500, _("System error"))
ACCESS_DENIED = ApiError("2000", "Access denied", 403, _("Access denied"))
BAD_INPUT = ApiError("3000", "Please check your input information", 400, _("Bad input"))
NO_ROOMS = ApiError("4000", "No rooms available for booking", 409, _("No rooms available"))
# 4001 on create only: amount other than our nightly rates plus the extra charges we compute
# (bookings.services.extra_charges); a booking without a rate plan has no rate of ours to differ from.
AMOUNT_DIFFERS = ApiError("4001", "Requested amount differs from actual amount", 409, _("Amount differs"))
TOO_FEW_GUESTS = ApiError("4002", "Minimum guest requirement not met", 409, _("Too few guests"))
TOO_MANY_GUESTS = ApiError("4003", "Maximum guest capacity exceeded", 409, _("Too many guests"))
NOT_FOUND = ApiError("4004", "Reservation not found", 404, _("Booking not found"))
ALREADY_CANCELED = ApiError("4005", "Reservation already cancelled", 409, _("Already canceled"))
CANNOT_CANCEL = ApiError("4006", "Reservation cannot be cancelled", 409, _("Cannot be canceled"))
CANNOT_CONFIRM = ApiError("4007", "Reservation cannot be confirmed", 409, _("Cannot be confirmed"))
UNKNOWN_ERROR = ApiError("9999", "An unknown error occurred", 500, _("Unknown error"))

ERROR_TABLE = (
    SYSTEM_ERROR,
    ACCESS_DENIED,
    BAD_INPUT,
    NO_ROOMS,
    AMOUNT_DIFFERS,
    TOO_FEW_GUESTS,
    TOO_MANY_GUESTS,
    NOT_FOUND,
    ALREADY_CANCELED,
    CANNOT_CANCEL,
    CANNOT_CONFIRM,
    UNKNOWN_ERROR,
)


class BookingError(Exception):
    """A failure the services report with a row of the error table."""

    def __init__(self, error: ApiError):
        super().__init__(error.code)
        self.error = error


def answer_code(data):
    """The contract code of an answer's body: an error's code, "" for a booking or a policy."""
    code = data.get("code") if isinstance(data, dict) else None
    return code if isinstance(code, str) and "error" in data else ""


def error_response(error: ApiError):
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


def exception_handler(exc, context):
    """Every failure of the vendor API as a row of the error table; unexpected ones are logged with a
    request id and answer 1000 without internals."""
    from django.http import Http404

    if isinstance(exc, BookingError):
        return error_response(exc.error)
    if isinstance(exc, Http404):
        return error_response(NOT_FOUND)
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
