"""The reconciliation reads the hub's own status words (issue 24): the spec shows none, and the hub's are
not ours."""

import pytest
from django.utils import translation

from bookings.models import Booking
from bookings.settlement.choices import Category, hub_status_as_ours
from bookings.settlement.models import Reconciliation
from bookings.settlement.services import booking_compare_with_hub, reconciliation_run
from integration.hub.client import HubResponse
from tests.integration.ari.factories import day

from ..factories import create_body, sellable

pytestmark = pytest.mark.django_db


class CannedHub:
    """A hub client whose settlement list holds these records and whose booking read answers the first."""

    def __init__(self, records):
        self.records = records

    def call(self, endpoint, *, path_params=None, query=None, body=None):
        if path_params:  # the single booking read (operation 19)
            return HubResponse(200, {**self.records[0], "error": ""}, 1)
        offset = int(query["offset"])
        page = {"count": len(self.records), "offset": offset, "limit": 1000, "reservations": self.records[offset:]}
        return HubResponse(200, page, 1)


def test_the_hubs_word_for_a_cancellation_matches_our_canceled_booking(hub_client):
    _room_type, standalone, _package = sellable()
    number = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    ours = hub_client.post(f"/bookings/{number}/cancel").json()
    record = {key: ours[key] for key in ("status", "checkin", "checkout", "total_amount", "net_price")}
    hub = CannedHub([{**record, "booking_number": number, "status": "Cancelled"}])
    reconciliation = Reconciliation.objects.create(date_from=day(0), date_to=day(30))
    reconciliation.properties.set([standalone.property])

    reconciliation = reconciliation_run(reconciliation_id=reconciliation.pk, client=hub)

    row = reconciliation.rows.get()
    assert (row.category, row.hub_status, row.our_status) == (Category.MATCHED, "Cancelled", "canceled")
    with translation.override("en"):
        assert row.hub_status_label() == "Canceled"
        compared = booking_compare_with_hub(booking=Booking.objects.get(), client=hub)
    status = next(field for field in compared.fields if field.label == "status")
    assert (status.hub, status.differs) == ("canceled", False)


@pytest.mark.parametrize(("word", "ours"), [("reserved", "confirmed"), ("requested", "pending"), ("void", "void")])
def test_the_hubs_other_words_are_read_as_ours_and_an_unknown_word_as_written(word, ours):
    assert hub_status_as_ours(word) == ours
