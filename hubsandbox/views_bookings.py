"""The sandbox hub's booking reads: the lookup (operation 19) from the bookings it sold (hubsandbox.sales)
and the settlement list (operation 20, hubsandbox.settlement)."""

from . import sales, settlement
from .views import HubView


class BookingLookupView(HubView):
    """GET /gds/vendor/booking/{vendor_booking_number}: the spec's Booking (single retrieval response)."""

    def get(self, request, number):
        return sales.booking_lookup(number)


class SettlementListView(HubView):
    """GET /gds/vendor/bookings?option=&from=&to=&offset=&limit=&vendor_property_id=: one page of the
    settlement list."""

    def get(self, request):
        return settlement.settlement_list(request.GET)
