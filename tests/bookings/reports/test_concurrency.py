"""On PostgreSQL, bookings confirmed and canceled at once on the same nights and channel add up in the
daily figures: no confirm or cancel is lost to another's (the figures are added to, never overwritten),
and the figures kept equal those rebuilt from the bookings."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import Client

from bookings.models import Booking
from bookings.reports.figures import figures_rebuild
from bookings.reports.models import DailyFigure, PickupFigure

from ..factories import create_body, sellable
from ..signing import HubClient

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def rows(model):
    fields = [field.attname for field in model._meta.concrete_fields if not field.primary_key]
    return sorted(model.objects.values_list(*fields))


def test_concurrent_confirms_and_cancels_on_the_same_nights_all_count():
    _room_type, standalone, _package = sellable(allotment=40, nights=6)
    numbers = [
        HubClient(Client())
        .post("/bookings", create_body(standalone, first=1 + n % 3, nights=3))
        .json()["vendor_booking_number"]
        for n in range(24)
    ]
    canceled = set(random.Random(7).sample(numbers, 8))

    def confirm_then_cancel(number):
        try:
            client = HubClient(Client())
            assert client.put(f"/bookings/{number}/confirm").status_code == 200
            if number in canceled:
                assert client.post(f"/bookings/{number}/cancel").status_code == 200
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=12) as pool:
        list(pool.map(confirm_then_cancel, numbers))

    staying = Booking.objects.filter(status=Booking.Status.CONFIRMED).count()
    assert staying == 16
    totals = DailyFigure.objects.aggregate(rooms=Sum("rooms"), canceled=Sum("canceled"), arrivals=Sum("arrivals"))
    assert totals == {"rooms": 16 * 3, "canceled": 8, "arrivals": 16}
    kept = {model: rows(model) for model in (DailyFigure, PickupFigure)}
    figures_rebuild()
    assert {model: rows(model) for model in (DailyFigure, PickupFigure)} == kept
