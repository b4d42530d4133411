"""The sandbox sells rooms through the real vendor API over HTTP, as the hub would (issue 5, item 7)."""

import json
import random

import pytest
import requests
from django.conf import settings as django_settings
from django.contrib.messages import get_messages
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse

from bookings.models import Booking, InboundCall
from hubsandbox import sales
from hubsandbox.models import SandboxRateplan, SandboxSale
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.models import RoomTypeDay
from integration.sync.services.batch import sync_pending
from tests.factories import PropertyFactory, hub_content
from tests.integration.ari.factories import day
from tests.integration.channels.helpers import open_everywhere

pytestmark = pytest.mark.django_db(transaction=True)

RATE = 100_000
PACKAGE_PRICE = 130_000


def edit(**kwargs):
    with transaction.atomic():
        ari_edit_apply(AriEdit(**kwargs))


@pytest.fixture
def hub_side(live_server, settings):
    settings.HUB_SANDBOX_VENDOR_URL = live_server.url
    settings.HUB_BASE_URL = live_server.url + "/sandbox"
    return live_server


def seed(*, rooms=3, days=10, open_on=1, **property_fields):
    """Content, rates and availability for the next days, pushed to the sandbox; the property open and on
    sale on channel open_on there and here (None: on no channel)."""
    prop = PropertyFactory(**property_fields)
    room_type, _standalone_model, _package_model, (standalone, package) = hub_content(prop)
    sync_pending(full=True)
    days = (DateRange(day(1), day(days)),)
    edit(ranges=days, operation=Operation.SET, value=RATE, rate_plans=(standalone,))
    edit(ranges=days, operation=Operation.SET, value=PACKAGE_PRICE, rate_plans=(package,))
    edit(ranges=days, operation=Operation.SET_AVAILABILITY, value=rooms, room_types=(room_type,))
    sync_pending()
    if open_on is not None:
        open_everywhere(prop, open_on)  # the hub sells only on a channel the property is open and on sale on
    return room_type, standalone, package


def stock(room_type, date):
    return RoomTypeDay.objects.values("held", "taken", "available").get(room_type=room_type, date=date)


def test_a_sale_creates_then_confirms_and_takes_the_room(hub_side):
    room_type, standalone, _package = seed()

    result = sales.sell(rateplan_id=standalone.vendor_id, nights=2)

    assert [(s.name, s.status) for s in result.steps] == [("refund-policy", 200), ("create", 200), ("confirm", 200)]
    assert result.steps[1].answer["status"] == "pending"
    assert result.steps[1].answer["amount"] == 2 * RATE
    booking = Booking.objects.get(vendor_booking_number=result.sale.vendor_booking_number)
    assert booking.status == "confirmed"
    assert stock(room_type, day(1)) == {"held": 0, "taken": 1, "available": 2}
    assert stock(room_type, day(2)) == {"held": 0, "taken": 1, "available": 2}
    assert SandboxSale.objects.get().status == "confirmed"


def test_a_package_is_sold_at_the_standalone_rate_plus_its_difference(hub_side):
    _room_type, _standalone, package = seed()

    result = sales.sell(rateplan_id=package.vendor_id)

    assert result.ok
    assert result.steps[1].answer["amount"] == PACKAGE_PRICE


def test_the_hub_lookup_answers_the_sold_booking_in_the_spec_shape(hub_side, settings):
    _room_type, standalone, _package = seed()
    sale = sales.sell(rateplan_id=standalone.vendor_id).sale

    url = f"{hub_side.url}/sandbox/gds/vendor/booking/{sale.vendor_booking_number}"
    answer = requests.get(url, headers={"Authorization": settings.HUB_API_TOKEN}, timeout=10)

    assert answer.status_code == 200
    body = answer.json()
    assert body["error"] == ""
    assert body["bookingNumber"] == sale.vendor_booking_number
    assert body["status"] == "reserved"  # the hub's word for a confirmed booking
    assert body["rateplan_id"] == standalone.vendor_id
    assert body["confirmed_at"] is not None
    assert body["canceled_at"] is None
    assert {"update_at", "request_at", "guest", "booker", "net_price", "channel_booking_number"} <= body.keys()
    for absent in ("special_comment", "visit_type", "secondary_channel", "rates", "vendor_booking_number"):
        assert absent not in body
    unknown = requests.get(url + "x", headers={"Authorization": settings.HUB_API_TOKEN}, timeout=10)
    assert unknown.status_code == 404
    assert requests.get(url, timeout=10).status_code == 401


def test_modify_is_reflected_in_the_lookup(hub_side, settings):
    _room_type, standalone, _package = seed()
    sale = sales.sell(rateplan_id=standalone.vendor_id, then="modify").sale

    body = sales.booking_lookup(sale.vendor_booking_number)

    assert body["special_comment"] == "Late arrival, around 22:00"
    assert body["visit_type"] == "car"


def test_then_cancel_releases_the_room(hub_side):
    room_type, standalone, _package = seed()

    result = sales.sell(rateplan_id=standalone.vendor_id, then="cancel")

    assert [s.name for s in result.steps] == ["refund-policy", "create", "confirm", "cancel"]
    assert result.ok
    assert Booking.objects.get().status == "canceled"
    assert stock(room_type, day(1)) == {"held": 0, "taken": 0, "available": 3}
    assert sales.booking_lookup(result.sale.vendor_booking_number)["status"] == "cancelled"


def test_no_availability_is_our_4000_refusal_and_nothing_is_sold(hub_side):
    _room_type, standalone, _package = seed(rooms=0)

    result = sales.sell(rateplan_id=standalone.vendor_id)

    assert result.refusal.name == "create"
    assert result.refusal.status == 409
    assert result.refusal.answer == {"code": "4000", "error": "No rooms available for booking"}
    assert result.sale is None
    assert not SandboxSale.objects.exists()
    assert not Booking.objects.exists()


def test_the_command_exit_code(hub_side, capsys):
    _room_type, standalone, _package = seed(rooms=1)

    call_command("sandbox_sell", "--rateplan", standalone.vendor_id)
    assert "confirm: 200" in capsys.readouterr().out
    with pytest.raises(CommandError, match="create refused: 4000 No rooms available for booking") as refused:
        call_command("sandbox_sell", "--rateplan", standalone.vendor_id)
    assert refused.value.returncode == 1


def test_nothing_to_sell_makes_no_call(hub_side):
    with pytest.raises(sales.SaleImpossible):
        sales.sell()


def test_the_admin_action_sells_a_room_of_each_chosen_rate_plan(hub_side, admin_client):
    room_type, standalone, package = seed()
    chosen = SandboxRateplan.objects.filter(vendor_id__in=[standalone.vendor_id, package.vendor_id])
    admin_client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"

    response = admin_client.post(
        reverse("admin:hubsandbox_sandboxrateplan_changelist"),
        {"action": "sell_a_room", "_selected_action": [plan.pk for plan in chosen]},
    )

    assert response.status_code == 302
    sold = {sale.rateplan.vendor_id: sale.vendor_booking_number for sale in SandboxSale.objects.all()}
    assert sorted(str(message) for message in get_messages(response.wsgi_request)) == sorted(
        f"{plan}: sold {sold[plan]} (confirmed)." for plan in (standalone.vendor_id, package.vendor_id)
    )
    assert Booking.objects.filter(status="confirmed").count() == 2
    assert stock(room_type, day(1)) == {"held": 0, "taken": 2, "available": 1}


def test_the_admin_action_says_which_plan_was_refused_and_why(hub_side, admin_client):
    _room_type, standalone, _package = seed(rooms=0)
    admin_client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"

    response = admin_client.post(
        reverse("admin:hubsandbox_sandboxrateplan_changelist"),
        {"action": "sell_a_room", "_selected_action": [SandboxRateplan.objects.get(vendor_id=standalone.vendor_id).pk]},
    )

    assert [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)] == [
        ("warning", f"{standalone.vendor_id}: create refused: 4000 No rooms available for booking")
    ]
    assert not Booking.objects.exists()


def test_random_sales_book_stays_in_the_next_two_weeks_as_the_demo_shows_them(hub_side):
    seed(days=sales.RANDOM_CHECKIN_DAYS + sales.RANDOM_MAX_NIGHTS)

    results = [sales.sell_at_random(rng=random.Random(n)) for n in range(8)]

    assert all(result.ok for result in results)
    for result in results:
        names = [step.name for step in result.steps if step.name in ("refund-policy", "create", "confirm")]
        assert names[:3] == ["refund-policy", "create", "confirm"]
        booking = Booking.objects.get(vendor_booking_number=result.sale.vendor_booking_number)
        assert booking.status == ("canceled" if result.steps[-1].name == "cancel" else "confirmed")
        assert 1 <= len(booking.nights) <= sales.RANDOM_MAX_NIGHTS
        assert day(1).isoformat() <= booking.nights[0] <= day(sales.RANDOM_CHECKIN_DAYS).isoformat()
    # Different seeds pick different stays: the demo does not sell the same night over and over.
    assert len({tuple(booking.nights) for booking in Booking.objects.all()}) > 1


def test_beat_has_the_sandbox_sell_a_room_every_few_minutes(hub_side, settings):
    from hubsandbox.tasks import sandbox_sell_task

    seed(days=sales.RANDOM_CHECKIN_DAYS + sales.RANDOM_MAX_NIGHTS)

    sandbox_sell_task()

    assert SandboxSale.objects.count() == Booking.objects.count() == 1
    entry = settings.CELERY_BEAT_SCHEDULE["sandbox-sell"]
    assert (entry["task"], entry["schedule"]) == (sandbox_sell_task.name, settings.HUB_SANDBOX_SELL_SECONDS)


def test_a_random_sale_with_nothing_to_sell_or_no_vendor_api_sells_nothing(hub_side, settings, caplog):
    assert sales.sell_at_random() is None

    seed(days=sales.RANDOM_CHECKIN_DAYS + sales.RANDOM_MAX_NIGHTS)
    settings.HUB_SANDBOX_VENDOR_URL = "http://127.0.0.1:9"
    assert sales.sell_at_random(rng=random.Random(1)) is None

    assert "the vendor API did not answer" in caplog.text
    assert not Booking.objects.exists()
    assert not SandboxSale.objects.exists()


# --- What the hub does that a plain sale never shows (issue 24) --------------------------------------


def test_a_create_repeated_with_the_same_channel_number_is_refused_then_found_by_it(hub_side):
    room_type, standalone, _package = seed()

    result = sales.sell(rateplan_id=standalone.vendor_id, repeat=True)

    assert [(s.name, s.status) for s in result.steps] == [
        ("refund-policy", 200),
        ("create", 200),
        ("create again (same channel booking number)", 400),
        ("check by channel booking number", 200),
        ("confirm", 200),
    ]
    assert result.ok
    assert result.steps[2].answer == {"code": "3000", "error": "Please check your input information"}
    assert result.steps[3].answer["vendor_booking_number"] == result.sale.vendor_booking_number
    assert Booking.objects.get().status == "confirmed"
    assert stock(room_type, day(1)) == {"held": 0, "taken": 1, "available": 2}


def test_a_step_is_what_the_hub_expects_only_with_its_status_and_required_values():
    assert sales.Step("create again", 400, {"code": "3000"}, expected=400).ok
    assert not sales.Step("create again", 200, {"vendor_booking_number": "VH2"}, expected=400).ok
    found = {"vendor_booking_number": "VH1"}
    assert sales.Step("check", 200, {"vendor_booking_number": "VH1"}, want=found).ok
    assert not sales.Step("check", 200, {"vendor_booking_number": "VH2"}, want=found).ok


def test_a_sale_with_no_mapping_sends_no_rateplan_id(hub_side):
    room_type, standalone, _package = seed()

    result = sales.sell(rateplan_id=standalone.vendor_id, unmapped=True)

    assert result.ok, result.refusal
    booking = Booking.objects.get()
    assert (booking.room_type, booking.rate_plan, booking.status) == (room_type, None, "confirmed")
    policy, create = InboundCall.objects.filter(path__startswith="/refund-policy").get(), result.steps[1]
    assert "rateplan_id" not in policy.path
    assert "rateplan_id" not in json.loads(InboundCall.objects.get(method="POST").request_body)
    assert "rateplan_id" not in create.answer
    assert "rateplan_id" not in sales.booking_lookup(result.sale.vendor_booking_number)


def test_extra_adults_are_charged_in_the_amount(hub_side):
    _room_type, standalone, _package = seed(extra_adult_price=20_000)  # standard capacity 2

    result = sales.sell(rateplan_id=standalone.vendor_id, nights=2, adults=3)

    assert result.ok, result.refusal
    assert result.steps[1].answer["amount"] == 2 * (RATE + 20_000)
    assert [rate["amount"] for rate in result.steps[1].answer["rates"]] == [RATE, RATE]


def test_the_command_sells_with_no_mapping_and_a_repeated_create(hub_side, capsys):
    _room_type, standalone, _package = seed()

    call_command("sandbox_sell", "--rateplan", standalone.vendor_id, "--unmapped", "--repeat", "--adults", "3")

    out = capsys.readouterr().out
    assert "create again (same channel booking number): 400" in out
    assert "check by channel booking number: 200" in out
    assert Booking.objects.get().rate_plan is None
