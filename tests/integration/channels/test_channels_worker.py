"""Operations 21-30 through the outbox and a real worker, checked by the sandbox hub's validation over
real HTTP: open requests and their review, sales settings (merge-patch) and a cms channel's mapping (PUT
replaces), and the attempt log. Apart from test_channels_hub, whose tests send in their own process: the
worker is started once per module and consumes the queue until the module ends, so it would take those
sends from under them."""

import re

import pytest
from django.core.exceptions import ValidationError

from hubsandbox import state
from hubsandbox.models import SandboxOpenRequest
from integration.channels.choices import ChannelStatus, RequestStatus
from integration.channels.services import (
    channel_mapping_update,
    channel_open_request,
    channel_settings_update,
    property_channels_refresh,
)
from integration.hub import endpoints
from integration.hub.client import get_hub_client
from integration.models import PropertyChannel, ResourceKind, SalesChannel, SyncState
from integration.sync.choices import SyncStatus
from tests.hub_fixtures import wait_until

from .conftest import channel

pytestmark = pytest.mark.django_db(transaction=True)

#: The ten operations, as the sandbox's request log shows them (method, path pattern).
OPERATIONS = {
    21: ("GET", r"/gds/vendor/channels"),
    22: ("GET", r"/gds/vendor/channels/\d+"),
    23: ("GET", r"/gds/vendor/properties/[^/]+/channels"),
    24: ("POST", r"/gds/vendor/properties/[^/]+/channels/\d+/open-requests"),
    25: ("GET", r"/gds/vendor/properties/[^/]+/open-requests"),
    26: ("GET", r"/gds/vendor/properties/[^/]+/open-requests/\d+"),
    27: ("GET", r"/gds/vendor/properties/[^/]+/channels/\d+/settings"),
    28: ("PATCH", r"/gds/vendor/properties/[^/]+/channels/\d+/settings"),
    29: ("GET", r"/gds/vendor/properties/[^/]+/channels/\d+/mappings"),
    30: ("PUT", r"/gds/vendor/properties/[^/]+/channels/\d+/mappings"),
}


def answered_ok():
    """The operations the sandbox answered 200, by number."""
    done = set()
    for method, path, status in state.request_log().values_list("method", "path", "response_status"):
        for number, (op_method, pattern) in OPERATIONS.items():
            if method == op_method and re.fullmatch(pattern, path) and status == 200:
                done.add(number)
    return done


def synced(kind, obj):
    return SyncState.objects.filter(kind=kind, object_id=obj.pk, status=SyncStatus.SYNCED).exists()


def test_open_review_sell_and_map_end_to_end(worker, hub_property):
    prop, room_type, plans = hub_property
    SalesChannel.objects.filter(channel_id=7).delete()  # a channel the hub names that we do not have yet
    hub_channel, cms_channel = channel(1), channel(3)

    # A hub channel: no account; it is requested at once and reaches the hub through the worker.
    request = channel_open_request(property=prop, channel=hub_channel, comment="Please open")
    assert PropertyChannel.objects.get(property=prop, channel=hub_channel).status == ChannelStatus.REQUESTED
    wait_until(lambda: synced(ResourceKind.CHANNEL_REQUEST, request), message="the open request at the hub")
    request.refresh_from_db()
    assert request.status == RequestStatus.PENDING
    held = SandboxOpenRequest.objects.get(pk=request.hub_id)
    assert (held.channel.channel_id, held.comment, held.cms_account) == (1, "Please open", None)

    # A cms channel needs its account; with it the hub gets it.
    with pytest.raises(ValidationError) as refused:
        channel_open_request(property=prop, channel=cms_channel)
    assert set(refused.value.message_dict) == {"cms_account_id", "cms_property_code"}
    cms_request = channel_open_request(
        property=prop, channel=cms_channel, cms_account_id="acct-77", cms_property_code="SEOUL-01"
    )
    wait_until(lambda: synced(ResourceKind.CHANNEL_REQUEST, cms_request), message="the cms request at the hub")
    cms_request.refresh_from_db()
    held = SandboxOpenRequest.objects.get(pk=cms_request.hub_id)
    assert held.cms_account == {"account_id": "acct-77", "property_code": "SEOUL-01"}

    # The sandbox's reviewer approves both; the refresh reads statuses, requests and what the hub holds.
    state.review_open_request(request.hub_id, "approved")
    state.review_open_request(cms_request.hub_id, "approved")
    assert property_channels_refresh(property=prop) == 2
    request.refresh_from_db()
    assert request.status == RequestStatus.APPROVED
    link = PropertyChannel.objects.get(property=prop, channel=hub_channel)
    cms_link = PropertyChannel.objects.get(property=prop, channel=cms_channel)
    assert (link.status, link.on_sale, cms_link.status) == (ChannelStatus.OPEN, False, ChannelStatus.OPEN)
    assert SalesChannel.objects.get(channel_id=7).name == "Channel Seven"  # read with operation 22

    # Sales settings: the first change sends the whole body, the next only what changed (merge-patch).
    channel_settings_update(property_channel=link, on_sale=True, rate_plans_off=[plans[1]])
    wait_until(lambda: synced(ResourceKind.CHANNEL_SETTINGS, link), message="the settings at the hub")
    assert state.channel_settings_of(prop.vendor_id, 1)["settings"] == {
        "on_sale": True,
        "roomtypes": {},
        "rateplans": {plans[1].vendor_id: False},
    }
    channel_settings_update(property_channel=link, on_sale=False, rate_plans_off=[plans[1]])
    # Synced once the worker has the hub's answer: the sandbox logs a request before it answers, and
    # applies it before it logs it, so waiting for the hub's state would read the log too early.
    wait_until(lambda: synced(ResourceKind.CHANNEL_SETTINGS, link), message="the second settings at the hub")
    assert state.channel_settings_of(prop.vendor_id, 1)["settings"]["on_sale"] is False
    last_patch = state.request_log(method="PATCH", path_prefix=f"/gds/vendor/properties/{prop.vendor_id}/channels")
    assert last_patch.last().request_body == '{"on_sale":false}'

    # The cms channel's mapping: PUT whole, and a later PUT replaces it.
    channel_mapping_update(
        property_channel=cms_link, room_type_codes={room_type: "DLX"}, rate_plan_codes={plans[0]: "DLX-RO"}
    )
    wait_until(lambda: synced(ResourceKind.CHANNEL_MAPPING, cms_link), message="the mapping at the hub")
    channel_mapping_update(property_channel=cms_link, room_type_codes={room_type: "DLX2"}, rate_plan_codes={})
    # Synced, not the hub's state: the worker records its attempt after the hub has applied the PUT.
    wait_until(lambda: synced(ResourceKind.CHANNEL_MAPPING, cms_link), message="the replaced mapping at the hub")
    assert state.channel_settings_of(prop.vendor_id, 3)["mappings"] == {
        "roomtypes": [{"vendor_roomtype_id": room_type.vendor_id, "channel_code": "DLX2"}],
        "rateplans": [],
    }

    # Operations 26, 27 and 29 are reads our client makes too; every one of the ten was answered 200.
    client = get_hub_client()
    pid = {"pid": prop.vendor_id}
    client.call(endpoints.OPEN_REQUEST_READ, path_params={**pid, "request_id": request.hub_id})
    assert answered_ok() == set(OPERATIONS)
    # Every exchange is in the attempt log, as content's are.
    assert (
        SyncState.objects.filter(kind=ResourceKind.CHANNEL_MAPPING, object_id=cms_link.pk).get().attempts.count() == 2
    )


def test_a_settings_change_the_hub_refuses_fails_with_its_message(worker, hub_property):
    prop, _room_type, _plans = hub_property
    link = PropertyChannel.objects.create(property=prop, channel=channel(2), status=ChannelStatus.OPEN)
    # We believe the channel open; the hub does not: 409, not retried, the hub's message shown.
    channel_settings_update(property_channel=link, on_sale=True)
    wait_until(
        lambda: SyncState.objects.filter(kind=ResourceKind.CHANNEL_SETTINGS, status=SyncStatus.FAILED).exists(),
        message="the refused settings",
    )
    failed = SyncState.objects.get(kind=ResourceKind.CHANNEL_SETTINGS)
    assert failed.last_status_code == 409
    assert "is not open on channel 2" in failed.last_error
