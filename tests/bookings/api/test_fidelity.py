"""The vendor API as the spec has the hub call it (issue 24, items 3 to 5): a create without rateplan_id
(and how staff see it), amounts that carry extra charges, and a modify that answers no business code
but 4005."""

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from bookings.models import Booking
from integration.content.choices import ContentStatus
from tests.integration.ari.factories import day

from ..factories import RATE, create_body, open_channel, sellable, stock
from ..test_front_desk import LIST, _fieldset, cell, in_language, row_of
from ..test_notifications import by_recipient, call, members  # noqa: F401 - members is a fixture
from .test_api import assert_error

pytestmark = pytest.mark.django_db

EXTRA_ADULT = 20_000


@pytest.fixture
def content():
    return sellable(allotment=3)


def without_plan(plan, **overrides):
    """A create body for plan's room type with no rateplan_id (a booking with no mapping)."""
    body = create_body(plan, **overrides)
    del body["rateplan_id"]
    return body


# --- Item 3: rateplan_id is optional -----------------------------------------------------------------


def test_a_create_without_rateplan_id_holds_the_room_type_and_answers_without_one(hub_client, content):
    room_type, standalone, _package = content
    # The channel's own price: no rate of ours to compare it with.
    body = without_plan(standalone, nights=2, amount=123_456)

    response = hub_client.post("/bookings", body)

    assert response.status_code == 200, response.content
    answer = response.json()
    assert "rateplan_id" not in answer
    assert (answer["status"], answer["roomtype_id"], answer["amount"]) == ("pending", room_type.vendor_id, 123_456)
    booking = Booking.objects.get()
    assert (booking.room_type, booking.rate_plan) == (room_type, None)
    assert stock(room_type)[:3] == [(day(1), 3, 1, 0, 2), (day(2), 3, 1, 0, 2), (day(3), 3, 0, 0, 3)]
    number = answer["vendor_booking_number"]
    assert "rateplan_id" not in hub_client.get(f"/bookings/{number}").json()
    assert hub_client.put(f"/bookings/{number}/confirm").json()["status"] == "confirmed"
    assert hub_client.post(f"/bookings/{number}/cancel").json()["status"] == "canceled"
    assert stock(room_type)[0] == (day(1), 3, 0, 0, 3)


def test_a_create_without_rateplan_id_is_checked_for_all_but_the_rate_plan(hub_client, content):
    room_type, standalone, _package = content
    prop = room_type.property

    assert_error(hub_client.post("/bookings", without_plan(standalone, roomtype_id="nope")), "3000")
    assert_error(hub_client.post("/bookings", without_plan(standalone, adults=5)), "4003")
    assert_error(hub_client.post("/bookings", without_plan(standalone, adults=0)), "4002")
    assert_error(hub_client.post("/bookings", without_plan(standalone, first=20)), "4000")  # no stock that day
    open_channel(prop, room_types={room_type.vendor_id: False})
    assert_error(hub_client.post("/bookings", without_plan(standalone)), "4000")
    open_channel(prop, room_types={}, on_sale=False)
    assert_error(hub_client.post("/bookings", without_plan(standalone)), "4000")
    open_channel(prop, on_sale=True)
    room_type.status = ContentStatus.DISABLED
    room_type.save(update_fields=["status"])
    assert_error(hub_client.post("/bookings", without_plan(standalone)), "4000")
    assert not Booking.objects.exists()
    # The rate plan's own switches do not apply to a booking without one.
    room_type.status = ContentStatus.ENABLED
    room_type.save(update_fields=["status"])
    open_channel(prop, rate_plans={standalone.vendor_id: False})
    assert hub_client.post("/bookings", without_plan(standalone)).status_code == 200


def test_an_unknown_rateplan_id_is_still_3000(hub_client, content):
    _room_type, standalone, _package = content
    assert_error(hub_client.post("/bookings", create_body(standalone, rateplan_id="nope")), "3000")


def test_the_refund_policy_without_rateplan_id_is_the_propertys_map(hub_client):
    _room_type, standalone, _package = sellable(refunds={"3d": 100, "0d": 0})
    query = {
        "property_id": standalone.property.vendor_id,
        "roomtype_id": standalone.room_type.vendor_id,
        "checkin": day(10).isoformat(),
        "checkout": day(11).isoformat(),
    }

    answer = hub_client.get("/refund-policy?" + urlencode(query)).json()

    assert answer["refundable"] is True
    assert [policy["percent"] for policy in answer["policies"]] == [100, 0]


# --- Item 4: extra charges in the amount -------------------------------------------------------------


@pytest.fixture
def extra_adults(content):
    room_type, standalone, _package = content
    room_type.property.extra_adult_price = EXTRA_ADULT
    room_type.property.save(update_fields=["extra_adult_price"])
    return standalone  # standard capacity 2, maximum 4


def test_three_adults_pay_the_rate_plus_the_extra_adult_price_each_night(hub_client, extra_adults):
    body = create_body(extra_adults, nights=2, adults=3, amount=2 * (RATE + EXTRA_ADULT))

    response = hub_client.post("/bookings", body)

    assert response.status_code == 200, response.content
    assert response.json()["amount"] == 2 * (RATE + EXTRA_ADULT)


def test_three_adults_at_the_rate_alone_is_4001(hub_client, extra_adults):
    assert_error(hub_client.post("/bookings", create_body(extra_adults, nights=2, adults=3, amount=2 * RATE)), "4001")
    assert not Booking.objects.exists()


def test_children_and_infants_and_a_property_without_price_add_nothing(hub_client, content, extra_adults):
    body = create_body(extra_adults, adults=2, children=2, amount=RATE)
    body["guest"]["infants"] = 2
    assert hub_client.post("/bookings", body).status_code == 200

    prop = extra_adults.property
    prop.extra_adult_price = None
    prop.save(update_fields=["extra_adult_price"])
    assert hub_client.post("/bookings", create_body(extra_adults, adults=4, amount=RATE)).status_code == 200


# --- Item 5: modify answers no business code but 4005 ------------------------------------------------


@pytest.mark.parametrize("guest", [{"adults": 9}, {"adults": 0, "children": 0}])
def test_a_modify_outside_the_capacity_is_3000_and_changes_nothing(hub_client, content, guest):
    _room_type, standalone, _package = content
    number = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]

    assert_error(hub_client.put(f"/bookings/{number}/modify", {"guest": guest, "special_comment": "x"}), "3000")

    booking = Booking.objects.get()
    assert (booking.adults, booking.children, booking.special_comment) == (2, 0, "")


# --- Item 3 on the staff screens: "no rate plan" -----------------------------------------------------


@pytest.fixture
def unmapped(hub_client, content):
    """A booking the hub made without a rateplan_id, and one of the same room with its rate plan."""
    _room_type, standalone, _package = content
    without = hub_client.post("/bookings", without_plan(standalone)).json()["vendor_booking_number"]
    with_plan = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]
    return Booking.objects.get(vendor_booking_number=without), Booking.objects.get(vendor_booking_number=with_plan)


@pytest.mark.parametrize(("language", "words"), [("en", "no rate plan"), ("ko", "요금제 없음")])
def test_the_list_page_and_print_say_no_rate_plan(admin_client, unmapped, language, words):
    without, with_plan = unmapped
    in_language(admin_client, language)

    page = admin_client.get(LIST).content.decode()
    booking_page = admin_client.get(reverse("admin:bookings_booking_change", args=[without.pk])).content.decode()
    other_page = admin_client.get(reverse("admin:bookings_booking_change", args=[with_plan.pk])).content.decode()

    assert words in " ".join(cell(row_of(page, without.vendor_booking_number), "room"))
    assert words not in " ".join(cell(row_of(page, with_plan.vendor_booking_number), "room"))
    # The Stay group, which the print stylesheet keeps.
    assert f"{without.room_type.name} · {words}" in _fieldset(booking_page, "Stay" if language == "en" else "숙박")
    assert words not in other_page


@pytest.mark.usefixtures("members")
def test_the_e_mails_say_no_rate_plan(hub_client, django_capture_on_commit_callbacks, content):
    _room_type, standalone, _package = content
    capture = django_capture_on_commit_callbacks
    number = call(hub_client, capture, "post", "/bookings", without_plan(standalone))["vendor_booking_number"]

    call(hub_client, capture, "put", f"/bookings/{number}/confirm")

    sent = by_recipient()
    room = standalone.room_type.name
    assert f"객실: {room} · 요금제 없음" in sent["ko@example.com"].body
    assert f"Room: {room} · no rate plan" in sent["en@example.com"].body
    assert f"{room} · no rate plan" in sent["en@example.com"].alternatives[0][0]
