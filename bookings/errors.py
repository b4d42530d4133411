"""The vendor API's one error table (decision 0012): the failures the bookings services report,
each with its code, its exact English text and its HTTP status. The API layer
(bookings.api.errors) turns them into answers; the admin's screens name them by their label."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class ApiError:
    """One row of the error table; its message is the exact English text of decision 0012, never translated;
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
# (bookings.selectors.extra_charges); a booking without a rate plan has no rate of ours to differ from.
AMOUNT_DIFFERS = ApiError("4001", "Requested amount differs from actual amount", 409, _("Amount differs"))
TOO_FEW_GUESTS = ApiError("4002", "Minimum guest requirement not met", 409, _("Too few guests"))
TOO_MANY_GUESTS = ApiError("4003", "Maximum guest capacity exceeded", 409, _("Too many guests"))
NOT_FOUND = ApiError("4004", "Reservation not found", 404, _("Booking not found"))
ALREADY_CANCELED = ApiError("4005", "Reservation already cancelled", 409, _("Already canceled"))
CANNOT_CANCEL = ApiError("4006", "Reservation cannot be cancelled", 409, _("Cannot be canceled"))
CANNOT_CONFIRM = ApiError("4007", "Reservation cannot be confirmed", 409, _("Cannot be confirmed"))
UNKNOWN_ERROR = ApiError("9999", "An unknown error occurred", 500, _("Unknown error"))
# A caller over the vendor API's rate limit (bookings.api.throttling): the contract has no code for it, so
# it answers 1000's code and text with 429 and Retry-After, which the hub retries later. Not a row of its
# own: the table's codes stay unique.
RATE_LIMITED = ApiError("1000", SYSTEM_ERROR.message, 429, _("Too many calls"))

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
