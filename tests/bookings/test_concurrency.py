"""On PostgreSQL, many hub calls at once never oversell: concurrent creates for the last rooms, and
overlapping multi-night stays with interleaved confirms and cancels, keep held + taken + available =
allotment on every date and availability at or above zero."""

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from bookings.models import Booking
from integration.models import RoomTypeDay

from .factories import create_body, sellable, stock
from .signing import HubClient

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WORKERS = 32


def in_thread(call):
    """Run call with its own database connection, closed afterwards."""

    def run(*args):
        try:
            return call(*args)
        finally:
            connection.close()

    return run


def assert_counts_whole(room_type):
    for date, allotment, held, taken, available in stock(room_type):
        assert available >= 0, date
        assert held + taken + available == allotment, date


def test_200_concurrent_creates_for_the_last_7_rooms_make_exactly_7_bookings():
    room_type, standalone, _package = sellable(allotment=7, nights=5)
    bodies = [create_body(standalone, first=2, nights=3) for _ in range(200)]
    lowest = []
    stop = threading.Event()

    @in_thread
    def create(body):
        return HubClient(Client()).post("/bookings", body).status_code

    @in_thread
    def watch():
        while not stop.is_set():
            lowest.append(min(RoomTypeDay.objects.filter(room_type=room_type).values_list("available", flat=True)))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            statuses = Counter(pool.map(create, bodies))
    finally:
        stop.set()
        watcher.join()

    assert statuses == {200: 7, 409: 193}
    assert Booking.objects.count() == 7
    assert min(lowest) >= 0
    assert [row[2:] for row in stock(room_type)] == [(0, 0, 7), (7, 0, 0), (7, 0, 0), (7, 0, 0), (0, 0, 7)]
    assert_counts_whole(room_type)


def test_overlapping_stays_with_interleaved_confirms_and_cancels_keep_every_date_whole():
    room_type, standalone, package = sellable(allotment=4, nights=12)
    randomness = random.Random(20261121)
    plans = []
    for _ in range(150):
        nights = randomness.randint(1, 4)
        plan = randomness.choice((standalone, package))
        plans.append(
            (create_body(plan, first=randomness.randint(1, 12 - nights + 1), nights=nights), randomness.random())
        )

    @in_thread
    def sell(item):
        body, fate = item
        hub = HubClient(Client())
        response = hub.post("/bookings", body)
        if response.status_code != 200:
            return response.json()["code"]
        number = response.json()["vendor_booking_number"]
        if fate < 0.3:
            return hub.post(f"/bookings/{number}/cancel").json()["status"]
        if fate < 0.8:
            hub.put(f"/bookings/{number}/confirm")
            if fate < 0.45:
                return hub.post(f"/bookings/{number}/cancel").json()["status"]
            return "confirmed"
        return "pending"

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        outcomes = Counter(pool.map(sell, plans))

    assert set(outcomes) <= {"4000", "pending", "confirmed", "canceled"}
    assert outcomes["canceled"] > 0
    assert outcomes["4000"] > 0
    assert_counts_whole(room_type)
    expected = Counter()
    for booking in Booking.objects.exclude(status="canceled"):
        for night in booking.nights:
            expected[(night, booking.status)] += 1
    for date, _allotment, held, taken, _available in stock(room_type):
        assert held == expected[(date.isoformat(), "pending")], date
        assert taken == expected[(date.isoformat(), "confirmed")], date
