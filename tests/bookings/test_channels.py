"""What a channel's type and status change for bookings: a channel not open for the property, or not
selling the rate plan, is refused with 4000 and holds nothing; a cms channel's booking is confirmed at
once (the channel, which the property runs, has confirmed it) and a later confirm from the hub is harmless."""

import datetime

import pytest
from django.db import IntegrityError
from django.utils import timezone

from bookings import services
from bookings.models import Booking
from integration.channels import services as channel_services
from integration.channels.choices import ChannelStatus
from integration.models import PropertyChannel
from tests.integration.ari.factories import day

from .api.test_api import assert_error, create
from .factories import CHANNEL_ID, create_body, open_channel, sellable, stock

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_hub(settings):
    """No hub answers here: a create that reads the property's statuses first (a channel we hold as
    requested, or do not know) is decided on what we hold. Over the sandbox: test_channels_hub."""
    settings.HUB_BASE_URL = "http://127.0.0.1:9"


@pytest.fixture
def content():
    return sellable(allotment=3)


def link(plan, channel_id=CHANNEL_ID):
    return PropertyChannel.objects.get(property=plan.property, channel__channel_id=channel_id)


@pytest.mark.parametrize(
    "change",
    [
        {"status": ChannelStatus.CLOSED},
        {"status": ChannelStatus.REQUESTED},
        {"status": ChannelStatus.REJECTED},
        {"on_sale": False},
        {"room_types": "room off"},
        {"rate_plans": "plan off"},
    ],
    ids=["closed", "requested", "rejected", "not-on-sale", "room-type-off", "rate-plan-off"],
)
def test_a_channel_that_does_not_sell_the_rate_plan_is_refused_with_4000(hub_client, content, change):
    room_type, standalone, _package = content
    row = link(standalone)
    if change.get("room_types"):
        change = {"room_types": {room_type.vendor_id: False}}
    if change.get("rate_plans"):
        change = {"rate_plans": {standalone.vendor_id: False}}
    PropertyChannel.objects.filter(pk=row.pk).update(**change)

    assert_error(create(hub_client, create_body(standalone)), "4000")
    assert not Booking.objects.exists()
    assert stock(room_type)[0] == (day(1), 3, 0, 0, 3)


def test_a_channel_the_property_never_opened_or_outside_the_models_channels_is_refused(hub_client, content):
    _room_type, standalone, package = content
    assert_error(create(hub_client, create_body(standalone, channel_id=99)), "4000")
    # The package's model is sold on channel 1 only.
    package.model.channels = [1]
    package.model.save(update_fields=["channels"])
    assert_error(create(hub_client, create_body(package)), "4000")
    open_channel(package.property, 1)
    assert create(hub_client, create_body(package, channel_id=1)).status_code == 200


def test_a_read_of_the_hubs_statuses_that_fails_otherwise_leaves_the_answer_4000(hub_client, content, monkeypatch):
    _room_type, standalone, _package = content
    PropertyChannel.objects.filter(pk=link(standalone).pk).update(status=ChannelStatus.REQUESTED)

    def stored_at_the_same_moment(**kwargs):
        raise IntegrityError("duplicate key value violates unique constraint property_channel_unique")

    # Another read-back of the property stored the same rows first: neither 3000 (a duplicate) nor 1000.
    monkeypatch.setattr(channel_services, "property_channels_refresh", stored_at_the_same_moment)
    assert_error(create(hub_client, create_body(standalone)), "4000")
    assert not Booking.objects.exists()


def test_a_hub_channels_booking_waits_for_the_hubs_confirm(hub_client, content):
    room_type, standalone, _package = content
    answer = create(hub_client, create_body(standalone)).json()
    assert (answer["status"], answer["confirmed_at"]) == ("pending", None)
    assert stock(room_type)[0] == (day(1), 3, 1, 0, 2)


def test_a_cms_channel_sells_only_what_is_mapped_and_its_booking_is_confirmed_at_once(hub_client, content):
    room_type, standalone, _package = content
    prop = standalone.property
    cms = open_channel(prop, 3, channel_type="cms")
    body = create_body(standalone, channel_id=3, channel_name="Direct channel (CMS)")
    assert_error(create(hub_client, body), "4000")  # not mapped yet
    cms.room_type_codes = {room_type.vendor_id: "DLX"}
    cms.rate_plan_codes = {standalone.vendor_id: "DLX-RO"}
    cms.save()

    answer = create(hub_client, body).json()
    assert answer["status"] == "confirmed"
    assert answer["confirmed_at"] is not None
    assert stock(room_type)[0] == (day(1), 3, 0, 1, 2)  # taken, not held
    # The hub's confirm, if it sends one, changes nothing; the hold expiry never releases it.
    again = hub_client.put(f"/bookings/{answer['vendor_booking_number']}/confirm").json()
    assert again["confirmed_at"] == answer["confirmed_at"]
    Booking.objects.update(created_at=timezone.now() - datetime.timedelta(days=1))
    services.bookings_release_expired()
    assert Booking.objects.get().status == Booking.Status.CONFIRMED
    assert stock(room_type)[0] == (day(1), 3, 0, 1, 2)
