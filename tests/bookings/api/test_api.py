"""The vendor API through its real endpoints: every error code, duplicates and retries, confirm, modify,
cancel, check, refund policy and hold expiry."""

import datetime
import json

import pytest
from django.db.models import F
from django.test import override_settings
from django.utils import timezone
from rest_framework.exceptions import APIException

from bookings import services
from bookings.errors import ERROR_TABLE
from bookings.models import Booking, InboundCall, RefusedCall
from integration.models import AriDirtyRange, RatePlanDay, RoomTypeDay
from tests.integration.ari.factories import day

from ..factories import RATE, create_body, open_channel, sellable, stock

pytestmark = pytest.mark.django_db

ERRORS = {error.code: (error.status, error.message) for error in ERROR_TABLE}


def assert_error(response, code):
    status, message = ERRORS[code]
    assert (response.status_code, response.json()) == (status, {"code": code, "error": message})


@pytest.fixture
def content():
    return sellable(allotment=3)


def create(hub_client, body):
    return hub_client.post("/bookings", body)


def test_create_holds_every_night_and_answers_pending(hub_client, content):
    room_type, standalone, _package = content
    body = create_body(standalone, nights=2, special_comment="Late arrival", visit_type="car")

    response = create(hub_client, body)

    assert response.status_code == 200
    answer = response.json()
    assert answer["status"] == "pending"
    assert answer["vendor_booking_number"].startswith("VH")
    assert answer["amount"] == 2 * RATE
    assert answer["guest"]["adults"] == 2
    assert answer["special_comment"] == "Late arrival"
    assert answer["confirmed_at"] is None
    assert "secondary_channel" not in answer
    assert stock(room_type)[:3] == [
        (day(1), 3, 1, 0, 2),
        (day(2), 3, 1, 0, 2),
        (day(3), 3, 0, 0, 3),
    ]
    booking = Booking.objects.get()
    assert booking.nights == [day(1).isoformat(), day(2).isoformat()]
    assert booking.booker_email == "minji@example.com"


def test_a_package_costs_the_standalone_rate_plus_its_difference(hub_client, content):
    _room_type, _standalone, package = content
    response = create(hub_client, create_body(package, nights=3))
    assert response.status_code == 200
    assert response.json()["amount"] == 3 * 120_000


@pytest.mark.parametrize(
    "change",
    [
        {"amount": -1},
        {"amount": "lots"},
        {"channel_id": "seven"},
        {"checkin": "2026-12-01T15:00:00"},
        {"guest": {"name": "No counts"}},
        {"payment_type": "barter"},
        {"property_id": "no-such-property"},
        {"roomtype_id": "no-such-room"},
        {"rateplan_id": "no-such-plan"},
        {"currency": "won"},
        {"gds_sub_booking_number": "\ud800"},
        {"guest": {"name": "Kim", "adults": "two", "children": 0, "infants": 0, "pets": 0, "cars": 0}},
        {"type": "weekly"},
    ],
)
def test_bad_input_is_3000_and_stores_nothing(hub_client, content, change):
    room_type, standalone, _package = content
    response = create(hub_client, create_body(standalone) | change)
    assert_error(response, "3000")
    assert not Booking.objects.exists()
    assert {row[2] for row in stock(room_type)} == {0}


def test_missing_fields_malformed_json_and_checkout_before_checkin_are_3000(hub_client, content):
    _room_type, standalone, _package = content
    body = create_body(standalone)
    del body["booker"]
    assert_error(create(hub_client, body), "3000")
    assert_error(create(hub_client, b'{"channel_id": 7,'), "3000")
    assert_error(create(hub_client, b"[1, 2]"), "3000")
    body = create_body(standalone)
    body["checkout"] = body["checkin"]
    assert_error(create(hub_client, body), "3000")
    assert not Booking.objects.exists()


def test_no_stock_business_day_closed_or_disabled_content_is_4000(hub_client, content):
    room_type, standalone, package = content
    RoomTypeDay.objects.filter(room_type=room_type, date=day(2)).update(allotment=0, available=0)
    assert_error(create(hub_client, create_body(standalone, first=1, nights=2)), "4000")
    assert stock(room_type)[0][2] == 0  # the first night's hold was undone

    RatePlanDay.objects.filter(rate_plan=package, date=day(4)).update(business_day=False)
    assert_error(create(hub_client, create_body(package, first=4)), "4000")

    assert_error(create(hub_client, create_body(standalone, first=30)), "4000")  # no rate, no stock

    package.status = "disabled"
    package.save()
    assert_error(create(hub_client, create_body(package, first=5)), "4000")
    room_type.status = "disabled"
    room_type.save()
    assert_error(create(hub_client, create_body(standalone, first=5)), "4000")
    assert not Booking.objects.exists()


def test_an_amount_other_than_our_rates_is_4001(hub_client, content):
    _room_type, standalone, _package = content
    assert_error(create(hub_client, create_body(standalone, amount=RATE - 1)), "4001")


def test_guest_counts_outside_the_capacity_are_4002_and_4003(hub_client, content):
    _room_type, standalone, _package = content
    assert_error(create(hub_client, create_body(standalone, adults=0, children=0)), "4002")
    assert_error(create(hub_client, create_body(standalone, adults=3, children=2)), "4003")
    assert create(hub_client, create_body(standalone, adults=2, children=2)).status_code == 200


def test_the_same_sub_booking_again_is_the_same_booking_and_holds_nothing_twice(hub_client, content):
    room_type, standalone, _package = content
    body = create_body(standalone)
    first = create(hub_client, body)
    again = create(hub_client, body)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Booking.objects.count() == 1
    assert stock(room_type)[0][2] == 1


def test_a_retry_gets_its_booking_even_when_what_it_booked_is_gone_since(hub_client, content):
    room_type, standalone, _package = content
    body = create_body(standalone)
    first = create(hub_client, body)
    RoomTypeDay.objects.filter(room_type=room_type).update(allotment=F("held") + F("taken"), available=0)
    assert create(hub_client, body).json() == first.json()
    standalone.status = "disabled"
    standalone.save()
    assert create(hub_client, body).json() == first.json()
    # Other content under the same number is still refused as such, before the missing stock.
    assert_error(create(hub_client, body | {"total_amount": 1}), "3000")
    assert Booking.objects.count() == 1


def test_the_same_sub_booking_with_other_content_or_a_known_channel_number_is_3000(hub_client, content):
    room_type, standalone, _package = content
    body = create_body(standalone)
    create(hub_client, body)
    assert_error(create(hub_client, body | {"total_amount": 1}), "3000")
    other = create_body(standalone, channel_booking_number=body["channel_booking_number"])
    assert_error(create(hub_client, other), "3000")
    # The same channel number on another channel (open for the property too) is another booking.
    open_channel(standalone.property, 8)
    assert create(hub_client, other | {"channel_id": 8}).status_code == 200
    assert Booking.objects.count() == 2
    assert stock(room_type)[0][2] == 2


def test_confirm_takes_the_held_rooms_and_is_idempotent(hub_client, content):
    room_type, standalone, _package = content
    number = create(hub_client, create_body(standalone, nights=2)).json()["vendor_booking_number"]

    first = hub_client.put(f"/bookings/{number}/confirm")
    again = hub_client.put(f"/bookings/{number}/confirm")

    assert first.status_code == again.status_code == 200
    assert first.json()["status"] == "confirmed"
    assert first.json()["confirmed_at"] == again.json()["confirmed_at"]
    assert stock(room_type)[:2] == [(day(1), 3, 0, 1, 2), (day(2), 3, 0, 1, 2)]


def test_cancel_releases_the_nights_held_or_taken(hub_client, content):
    room_type, standalone, _package = content
    pending = create(hub_client, create_body(standalone, nights=2)).json()["vendor_booking_number"]
    confirmed = create(hub_client, create_body(standalone, nights=2)).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{confirmed}/confirm")

    for number in (pending, confirmed):
        response = hub_client.post(f"/bookings/{number}/cancel")
        assert response.status_code == 200
        assert response.json()["status"] == "canceled"
        assert response.json()["canceled_at"]

    assert {row[1:] for row in stock(room_type)} == {(3, 0, 0, 3)}


def test_cancel_twice_is_4005_confirming_a_canceled_booking_4007_modifying_it_4005(hub_client, content):
    _room_type, standalone, _package = content
    number = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    hub_client.post(f"/bookings/{number}/cancel")
    assert_error(hub_client.post(f"/bookings/{number}/cancel"), "4005")
    assert_error(hub_client.put(f"/bookings/{number}/confirm"), "4007")
    assert_error(hub_client.put(f"/bookings/{number}/modify", {"special_comment": "x"}), "4005")


def test_a_stay_that_is_over_cannot_be_cancelled_4006(hub_client, content):
    _room_type, standalone, _package = content
    number = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    past = timezone.now() - datetime.timedelta(days=2)
    Booking.objects.update(checkin=past, checkout=past + datetime.timedelta(hours=20))
    assert_error(hub_client.post(f"/bookings/{number}/cancel"), "4006")


def test_unknown_numbers_are_4004(hub_client, content):
    assert_error(hub_client.get("/bookings/VH000000000000"), "4004")
    assert_error(hub_client.put("/bookings/VH000000000000/confirm"), "4004")
    assert_error(hub_client.put("/bookings/VH000000000000/modify", {}), "4004")
    assert_error(hub_client.post("/bookings/VH000000000000/cancel"), "4004")


def test_modify_changes_only_the_allowed_fields(hub_client, content):
    _room_type, standalone, _package = content
    number = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    changes = {
        "guest": {"name": "Lee Jun", "adults": 3},
        "booker": {"phone": "010-0000-0000"},
        "special_comment": "High floor",
        "visit_type": "walk",
        "total_amount": 150_000,
    }
    answer = hub_client.put(f"/bookings/{number}/modify", changes).json()
    assert answer["guest"]["name"] == "Lee Jun"
    assert answer["guest"]["adults"] == 3
    assert answer["booker"]["phone"] == "010-0000-0000"
    assert answer["booker"]["name"] == "Kim Minji"
    assert (answer["special_comment"], answer["visit_type"], answer["total_amount"]) == ("High floor", "walk", 150_000)
    assert answer["amount"] == RATE
    assert_error(hub_client.put(f"/bookings/{number}/modify", {"guest": {"adults": 9}}), "3000")
    assert_error(hub_client.put(f"/bookings/{number}/modify", {"total_amount": "x"}), "3000")


def test_check_by_each_kind_of_number(hub_client, content):
    _room_type, standalone, _package = content
    body = create_body(standalone)
    number = create(hub_client, body).json()["vendor_booking_number"]
    assert hub_client.get(f"/bookings/{number}").json()["vendor_booking_number"] == number
    channel_number = body["channel_booking_number"]
    found = hub_client.get(f"/bookings/{channel_number}?type=channel_booking_number&channel_id=7")
    assert found.json()["vendor_booking_number"] == number
    assert_error(hub_client.get(f"/bookings/{channel_number}?type=channel_booking_number&channel_id=8"), "4004")
    sub = body["gds_sub_booking_number"]
    assert hub_client.get(f"/bookings/{sub}?type=gds_sub_booking_number").json()["vendor_booking_number"] == number
    assert_error(hub_client.get(f"/bookings/{sub}?type=nonsense"), "3000")


def test_refund_policy_from_the_refunds_map_and_the_models_refundable_flag(hub_client):
    _room_type, standalone, package = sellable(refunds={"0d": 0, "3d": 50, "7d": 100})
    checkin = day(10)
    query = (
        f"property_id={standalone.property.vendor_id}&roomtype_id={standalone.room_type.vendor_id}"
        f"&checkin={checkin}T15:00:00%2B09:00&checkout={day(11)}T11:00:00%2B09:00"
    )
    answer = hub_client.get(f"/refund-policy?{query}&rateplan_id={standalone.vendor_id}").json()
    assert answer == {
        "refundable": True,
        "policies": [
            {"until": f"{checkin - datetime.timedelta(days=7)}T23:59:59+09:00", "percent": 100},
            {"until": f"{checkin - datetime.timedelta(days=3)}T23:59:59+09:00", "percent": 50},
            {"until": f"{checkin}T23:59:59+09:00", "percent": 0},
        ],
    }
    package.model.refundable = False
    package.model.save()
    answer = hub_client.get(f"/refund-policy?{query}&rateplan_id={package.vendor_id}").json()
    assert answer == {"refundable": False, "policies": []}
    assert_error(hub_client.get(f"/refund-policy?{query}&rateplan_id=nope"), "3000")
    assert_error(hub_client.get("/refund-policy"), "3000")


def test_unexpected_failures_are_1000_or_9999_without_internals(hub_client, content, monkeypatch, caplog):
    _room_type, standalone, _package = content

    def crash(**kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(services, "booking_create", crash)
    response = create(hub_client, create_body(standalone))
    assert_error(response, "1000")
    assert "secret internals" not in response.content.decode()
    assert response["X-Request-Id"] in caplog.text

    def unlisted(**kwargs):
        raise APIException()

    monkeypatch.setattr(services, "booking_create", unlisted)
    assert_error(create(hub_client, create_body(standalone)), "9999")


def test_a_crash_after_the_holds_leaves_no_booking_and_no_held_room(hub_client, content, monkeypatch):
    room_type, standalone, _package = content
    hold = services.inventory_hold

    def hold_then_crash(**kwargs):
        hold(**kwargs)
        raise RuntimeError("the process died here")

    monkeypatch.setattr(services, "inventory_hold", hold_then_crash)
    assert_error(create(hub_client, create_body(standalone, nights=2)), "1000")

    assert not Booking.objects.exists()
    assert {row[2] for row in stock(room_type)} == {0}
    assert not AriDirtyRange.objects.exists()


def test_expired_holds_are_released_and_cannot_be_confirmed(hub_client, content, settings):
    room_type, standalone, _package = content
    settings.BOOKING_HOLD_MINUTES = 30
    old = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    fresh = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    Booking.objects.filter(vendor_booking_number=old).update(created_at=timezone.now() - datetime.timedelta(minutes=31))

    assert services.bookings_release_expired() == 1

    assert Booking.objects.get(vendor_booking_number=old).status == "canceled"
    assert Booking.objects.get(vendor_booking_number=fresh).status == "pending"
    assert stock(room_type)[0][1:] == (3, 1, 0, 2)
    assert_error(hub_client.put(f"/bookings/{old}/confirm"), "4007")


def test_every_call_is_logged_without_token_or_signature(hub_client, content):
    _room_type, standalone, _package = content
    response = create(hub_client, create_body(standalone))
    call = InboundCall.objects.get()
    assert call.status == 200
    assert call.booking.vendor_booking_number == response.json()["vendor_booking_number"]
    logged = json.dumps(call.request_headers).lower()
    assert "authorization" not in logged
    assert "webhook-signature" not in logged
    assert "webhook-id" in logged


@override_settings(VENDOR_API_ALLOWED_IPS=["10.0.0.0/8"])
def test_the_allow_list_refuses_other_addresses(hub_client, content):
    _room_type, standalone, _package = content
    assert_error(create(hub_client, create_body(standalone)), "2000")
    assert hub_client.post("/bookings", create_body(standalone), REMOTE_ADDR="10.1.2.3").status_code == 200


def test_the_periodic_task_releases_expired_holds(hub_client, content, settings):
    from bookings.tasks import bookings_release_expired_task

    _room_type, standalone, _package = content
    create(hub_client, create_body(standalone))
    Booking.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES + 1))
    bookings_release_expired_task()
    assert Booking.objects.get().status == "canceled"
    assert "bookings.tasks.bookings_release_expired_task" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }


def test_odd_numbers_and_bodies_get_the_contracts_answers_and_are_logged(hub_client, content):
    assert_error(hub_client.get("/bookings/a/b"), "4004")
    assert_error(hub_client.get("/bookings/%00"), "4004")
    assert_error(hub_client.put("/bookings/x/y/confirm"), "4004")
    assert_error(hub_client.put("/bookings/VH1/modify", b"\x00"), "3000")
    assert InboundCall.objects.filter(request_body="\\u0000").exists()


def test_every_hold_take_and_release_marks_the_room_types_availability_for_the_hub(hub_client, content):
    from integration.models import AriDirtyRange

    room_type, standalone, _package = content

    def marked():
        ranges = AriDirtyRange.objects.filter(state__kind="ari_avails", state__object_id=room_type.pk)
        found = set(ranges.values_list("date_from", "date_to"))
        ranges.delete()
        return found

    number = create(hub_client, create_body(standalone, nights=2)).json()["vendor_booking_number"]
    assert marked() == {(day(1), day(2))}
    hub_client.put(f"/bookings/{number}/confirm")
    assert marked() == {(day(1), day(2))}
    hub_client.post(f"/bookings/{number}/cancel")
    assert marked() == {(day(1), day(2))}
    assert_error(create(hub_client, create_body(standalone, adults=0)), "4002")
    assert marked() == set()


def test_staff_and_managers_may_view_bookings_and_calls():
    from django.contrib.auth.models import Group

    from integration.access.roles import GROUP_NAMES

    for name in GROUP_NAMES.values():
        codenames = set(Group.objects.get(name=name).permissions.values_list("codename", flat=True))
        assert {"view_booking", "view_inboundcall"} <= codenames
        assert not {"add_booking", "change_booking", "delete_booking"} & codenames


def test_line_breaks_in_a_number_still_get_the_contracts_answer(hub_client, content):
    assert_error(hub_client.put("/bookings/%0A/confirm"), "4004")
    assert_error(hub_client.get("/bookings/a%0Ab"), "4004")


def test_confirming_a_hold_past_its_time_releases_it_and_is_4007(hub_client, content, settings):
    room_type, standalone, _package = content
    number = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    Booking.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES + 1))
    assert_error(hub_client.put(f"/bookings/{number}/confirm"), "4007")
    assert Booking.objects.get().status == "canceled"
    assert stock(room_type)[0][1:] == (3, 0, 0, 3)


def test_the_call_log_keeps_its_days_then_the_daily_task_deletes_older_calls(hub_client, content, settings):
    from bookings.tasks import inbound_calls_purge_task

    _room_type, standalone, _package = content
    settings.VENDOR_API_CALL_LOG_DAYS = 180
    number = create(hub_client, create_body(standalone)).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    old, recent = InboundCall.objects.order_by("pk")
    InboundCall.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(days=181))
    InboundCall.objects.filter(pk=recent.pk).update(created_at=timezone.now() - datetime.timedelta(days=179))
    refused_old, refused_recent = (RefusedCall.objects.create(method="GET", path="/", status=403) for _ in range(2))
    RefusedCall.objects.filter(pk=refused_old.pk).update(created_at=timezone.now() - datetime.timedelta(days=181))

    inbound_calls_purge_task()

    assert list(InboundCall.objects.values_list("pk", flat=True)) == [recent.pk]
    assert list(RefusedCall.objects.values_list("pk", flat=True)) == [refused_recent.pk]
    assert Booking.objects.get().status == "confirmed"  # the booking outlives its calls
    assert "bookings.tasks.inbound_calls_purge_task" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
