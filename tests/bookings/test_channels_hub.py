"""A booking from a channel the hub has just opened is not lost to our own lag (issue 22, item 6), over the
sandbox hub and real HTTP: a create from a channel we hold as requested, or do not know for the property,
reads the property's statuses from the hub before it is decided; a create from a channel we hold as open,
closed or rejected reads nothing."""

import logging
import time

import pytest
from django.db import connection
from django.urls import reverse

from bookings.models import Booking
from hubsandbox import channels as hub_channels
from hubsandbox import sales
from hubsandbox import state as hub_state
from hubsandbox.faults import inject_faults
from integration.channels import services as channel_services
from integration.channels.choices import ChannelStatus, RequestStatus
from integration.channels.services import channel_open_request, channel_settings_update, sales_channels_refresh
from integration.models import ChannelRateDay, PropertyChannel, SalesChannel
from integration.sync.services.batch import sync_pending
from tests.hub_fixtures import wait_until
from tests.hubsandbox.test_sales import seed
from tests.integration.ari.factories import day

from .factories import create_body

pytestmark = pytest.mark.django_db(transaction=True)

#: The channel the sandbox keeps waiting for its admin's review.
WAITING = 5


@pytest.fixture
def requested(hub, live_server, settings):
    """A property selling at the sandbox (content, rates and rooms) on no channel yet, which has asked to
    open channel 5 (the request is at the hub, pending): (our request, its standalone rate plan)."""
    settings.HUB_SANDBOX_VENDOR_URL = live_server.url
    _room_type, plan, _package = seed(open_on=None)
    sales_channels_refresh()
    request = channel_open_request(property=plan.property, channel=SalesChannel.objects.get(channel_id=WAITING))
    assert not sync_pending(property=plan.property).failures
    request.refresh_from_db()
    assert request.status == RequestStatus.PENDING
    return request, plan


def create(plan, channel_id=WAITING):
    """(HTTP status, answer) of a create the hub signs, sent over HTTP to our vendor API."""
    body = create_body(plan, channel_id=channel_id, channel_name=f"Channel {channel_id}")
    return sales.VendorClient().call("POST", "/bookings", body)


def status_reads(prop):
    """How many times the sandbox was asked for the property's channel statuses (operation 23)."""
    return hub_state.request_log(method="GET", path=f"/gds/vendor/properties/{prop.vendor_id}/channels").count()


def our_status(prop, channel_id=WAITING):
    row = PropertyChannel.objects.filter(property=prop, channel__channel_id=channel_id).first()
    return row.status if row else None


def test_the_hubs_first_sale_on_a_channel_it_has_just_opened_is_accepted(requested, hub):
    request, plan = requested
    prop, room_type = plan.property, plan.room_type
    # A rate of the channel's own, kept while it was not open: opening sends it to the hub.
    ChannelRateDay.objects.create(rate_plan=plan, channel=request.channel, date=day(2), rate=90_000)
    hub.review_open_request(request.hub_id, "approved")
    hub_channels.settings_patch(property_id=prop.vendor_id, channel_id=WAITING, body={"on_sale": True})
    assert our_status(prop) == ChannelStatus.REQUESTED  # no read-back since the approval

    approved, refused = time.monotonic(), 0
    for _attempt in range(3):
        result = sales.sell(rateplan_id=plan.vendor_id)  # the hub sells, on the only channel selling it: 5
        if result.ok:
            break
        refused += 1
    print(
        f"\nhub approval -> our side selling on channel {WAITING}: {refused} creates refused before the first"
        f" accepted one ({(time.monotonic() - approved) * 1000:.0f} ms, with the sale's confirm)"
    )

    assert refused == 0, result.refusal
    assert result.steps[1].answer["channel_id"] == WAITING
    assert Booking.objects.get().status == Booking.Status.CONFIRMED
    link = PropertyChannel.objects.get(property=prop, channel=request.channel)
    assert (link.status, link.on_sale) == (ChannelStatus.OPEN, True)  # opened with the hub's settings
    request.refresh_from_db()
    assert request.status == RequestStatus.APPROVED
    # Opened the usual way: the channel's own rate goes to the hub.
    assert not sync_pending(property=prop).failures
    own_rates = hub.rates_of(prop.vendor_id, room_type.vendor_id, plan.vendor_id, WAITING)
    assert {date: values["rate"] for date, values in own_rates.items()} == {day(2): 90_000}


def test_what_the_manager_prepared_while_requested_sells_from_the_first_booking(
    requested, hub, admin_client, monkeypatch
):
    request, plan = requested
    prop = plan.property
    in_transaction, refresh = [], channel_services.property_channels_refresh

    def watched(**kwargs):  # runs in the live server's thread, on its own connection
        in_transaction.append(connection.in_atomic_block)
        return refresh(**kwargs)

    monkeypatch.setattr(channel_services, "property_channels_refresh", watched)
    link = PropertyChannel.objects.get(property=prop, channel=request.channel)
    channel_settings_update(property_channel=link, on_sale=True)
    assert not sync_pending(property=prop).failures  # held until the channel opens
    changelist = reverse("admin:hubsandbox_sandboxopenrequest_changelist")
    approve = {"action": "approve_selected", "_selected_action": [request.hub_id]}
    assert admin_client.post(changelist, approve).status_code == 302

    status, answer = create(plan)

    assert (status, answer.get("status")) == (200, "pending"), answer
    assert in_transaction == [False]  # the hub was read before the booking's transaction, never inside it
    link.refresh_from_db()
    assert (link.status, link.on_sale) == (ChannelStatus.OPEN, True)
    # What was prepared goes to the hub now that the channel is open.
    assert not sync_pending(property=prop).failures
    assert hub.channel_settings_of(prop.vendor_id, WAITING)["settings"]["on_sale"] is True


@pytest.mark.parametrize(
    "case",
    ["rejected-by-the-hub", "closed-at-the-hub", "not-in-our-list", "open-but-not-in-the-models-channels"],
)
def test_a_channel_the_hub_reports_not_open_or_our_settings_exclude_is_refused(requested, hub, case):
    request, plan = requested
    prop, channel_id = plan.property, WAITING
    if case == "rejected-by-the-hub":
        hub.review_open_request(request.hub_id, "rejected", "No contract in this region")
    elif case == "closed-at-the-hub":
        channel_id = 2  # listed, never requested: no row of ours for the property
        assert our_status(prop, channel_id) is None
    elif case == "not-in-our-list":
        channel_id = 99
    else:
        hub.review_open_request(request.hub_id, "approved")
        hub_channels.settings_patch(property_id=prop.vendor_id, channel_id=WAITING, body={"on_sale": True})
        plan.model.channels = [1]
        plan.model.save(update_fields=["channels"])
    reads = status_reads(prop)

    status, answer = create(plan, channel_id)

    assert (status, answer) == (409, {"code": "4000", "error": "No rooms available for booking"})
    assert not Booking.objects.exists()
    assert status_reads(prop) == reads + 1  # decided on what the hub answered
    expected = {
        "rejected-by-the-hub": ChannelStatus.REJECTED,
        "closed-at-the-hub": ChannelStatus.CLOSED,
        "not-in-our-list": None,
        "open-but-not-in-the-models-channels": ChannelStatus.OPEN,
    }
    assert our_status(prop, channel_id) == expected[case]


@pytest.mark.parametrize("fault", ["timeout", "server-error"])
def test_a_hub_that_cannot_be_read_leaves_the_answer_4000(requested, hub, settings, caplog, fault):
    request, plan = requested
    hub.review_open_request(request.hub_id, "approved")
    hub_channels.settings_patch(property_id=plan.property.vendor_id, channel_id=WAITING, body={"on_sale": True})
    settings.HUB_CONNECT_TIMEOUT, settings.HUB_READ_TIMEOUT = 1, 0.3
    faults = {"latency_ms": 1500} if fault == "timeout" else {"error_rate": 1.0, "error_status": 503}

    started = time.monotonic()
    with inject_faults(**faults), caplog.at_level(logging.INFO):
        status, answer = create(plan)
    print(f"\ncreate with the hub's read failing ({fault}): answered in {(time.monotonic() - started) * 1000:.0f} ms")

    assert (status, answer["code"]) == (409, "4000")
    assert our_status(plan.property) == ChannelStatus.REQUESTED
    assert not Booking.objects.exists()
    logged = [record.getMessage() for record in caplog.records]
    assert any("could not read the channel statuses" in message for message in logged), logged
    if fault == "timeout":
        # The read ended at the client's timeout, not when the hub answered.
        assert any("timed out after" in message for message in logged), logged
        wait_until(lambda: status_reads(plan.property), timeout=10, message="the slow answer")


@pytest.mark.parametrize(
    ("ours", "expected"),
    [(ChannelStatus.OPEN, 200), (ChannelStatus.CLOSED, 409), (ChannelStatus.REJECTED, 409)],
)
def test_a_channel_we_hold_as_open_closed_or_rejected_makes_no_hub_read(requested, hub, ours, expected):
    request, plan = requested
    PropertyChannel.objects.filter(property=plan.property, channel=request.channel).update(status=ours, on_sale=True)
    requests = hub.request_log().count()

    status, _answer = create(plan)

    assert status == expected
    assert hub.request_log().count() == requests
