"""The sandbox hub's booking lookup (operation 19): answers from the bookings it sold (hubsandbox.sales)."""

from . import sales
from .views import HubView


class BookingLookupView(HubView):
    """GET /gds/vendor/booking/{vendor_booking_number}: the spec's Booking (single retrieval response)."""

    def get(self, request, number):
        return sales.booking_lookup(number)
