"""Operations 21-30 sent by our client and checked by the sandbox hub's validation, over real HTTP, in
the test's own process (no worker: test_channels_worker has those that go through one): the channel
list, a property's statuses, open requests and their review, sales settings (merge-patch) and a cms
channel's mapping, and what a channel's opening and a switch of hub send."""

import pytest
from django.db import transaction
from django.urls import reverse

from core.models import Job
from hubsandbox import channels as hub_channels
from hubsandbox import state
from hubsandbox.models import SandboxOpenRequest
from integration.ari.services.push import ari_mark_dirty
from integration.channels.choices import ChannelStatus, RequestStatus
from integration.channels.services import (
    REFRESH_PROPERTY_TASK,
    channel_open_request,
    channel_settings_update,
    property_channels_refresh,
    property_channels_refresh_for_booking,
    property_channels_refresh_requested,
    sales_channels_refresh,
)
from integration.hub import endpoints
from integration.hub.client import HubHTTPError, get_hub_client
from integration.hub.environments import HubEnvironment
from integration.models import (
    ChannelAvailDay,
    ChannelOpenRequest,
    ChannelRateDay,
    PropertyChannel,
    RatePlanDay,
    ResourceKind,
    RoomTypeDay,
    SalesChannel,
    SyncState,
)
from integration.sync.choices import SyncStatus
from integration.sync.services.batch import sync_pending
from integration.sync.services.switch import hub_environment_switch
from tests.factories import PropertyFactory
from tests.integration.ari.factories import day

from .conftest import channel

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_channel_list_replaces_hand_made_rows(hub):
    renamed = SalesChannel.objects.create(channel_id=3, name="Old name", channel_type="hub")
    gone = SalesChannel.objects.create(channel_id=42, name="Made by hand")

    assert sales_channels_refresh() == (5, 1, 1)

    hub_list = get_hub_client().call(endpoints.CHANNEL_LIST).data
    ours = {c.channel_id: (c.name, c.channel_type) for c in SalesChannel.objects.filter(listed=True)}
    assert ours == {entry["id"]: (entry["name"], entry["channel_type"]) for entry in hub_list}
    renamed.refresh_from_db()
    gone.refresh_from_db()
    assert (renamed.name, renamed.channel_type, renamed.refreshed_at is not None) == (
        "Direct channel (CMS)",
        "cms",
        True,
    )
    assert gone.listed is False
    # Again: nothing changes.
    assert sales_channels_refresh() == (0, 0, 0)


def test_the_sandbox_refuses_what_the_contract_refuses(hub_property):
    prop, room_type, plans = hub_property
    client = get_hub_client()
    pid = prop.vendor_id

    def refused(endpoint, status, message, *, body=None, **params):
        with pytest.raises(HubHTTPError) as error:
            client.call(endpoint, path_params={"pid": pid, **params}, body=body)
        assert error.value.status == status
        assert message in error.value.message

    refused(endpoints.CHANNEL_READ, 404, "channel '99' not found", channel_id=99)
    refused(endpoints.OPEN_REQUEST_CREATE, 404, "channel '99' not found", channel_id=99, body={})
    refused(endpoints.OPEN_REQUEST_CREATE, 404, "property 'nowhere' not found", channel_id=1, body={}, pid="nowhere")
    refused(endpoints.OPEN_REQUEST_CREATE, 400, "cms_account: is required for a cms channel", channel_id=3, body={})
    account = {"account_id": "a", "property_code": "p"}
    refused(
        endpoints.OPEN_REQUEST_CREATE, 400, "cms_account: is only for cms", channel_id=1, body={"cms_account": account}
    )
    refused(
        endpoints.OPEN_REQUEST_CREATE,
        400,
        "cms_account.property_code: must not be empty",
        channel_id=3,
        body={"cms_account": {"account_id": "a", "property_code": ""}},
    )
    refused(endpoints.OPEN_REQUEST_CREATE, 400, "color: unknown field", channel_id=1, body={"color": "red"})
    refused(endpoints.OPEN_REQUEST_READ, 404, "open request 12345 not found", request_id=12345)
    refused(endpoints.CHANNEL_SETTINGS_UPDATE, 409, "is not open on channel 1 (it is closed)", channel_id=1, body={})

    first = client.call(endpoints.OPEN_REQUEST_CREATE, path_params={"pid": pid, "channel_id": 1}, body={}).data
    assert (first["channel_id"], first["status"], first["reason"]) == (1, "pending", None)
    refused(endpoints.OPEN_REQUEST_CREATE, 409, "already requested on channel 1", channel_id=1, body={})
    state.review_open_request(first["id"], "approved")
    refused(endpoints.OPEN_REQUEST_CREATE, 409, "already open on channel 1", channel_id=1, body={})

    refused(
        endpoints.CHANNEL_SETTINGS_UPDATE,
        400,
        "roomtypes.ghost: no room type",
        channel_id=1,
        body={"roomtypes": {"ghost": True}},
    )
    refused(endpoints.CHANNEL_SETTINGS_UPDATE, 400, "on_sale: must be a boolean", channel_id=1, body={"on_sale": "yes"})
    refused(endpoints.CHANNEL_SETTINGS_UPDATE, 400, "on_sale: may not be null", channel_id=1, body={"on_sale": None})
    refused(endpoints.CHANNEL_MAPPINGS_REPLACE, 400, "only cms channels have a mapping", channel_id=1, body={})
    refused(endpoints.CHANNEL_MAPPINGS_READ, 409, "is not open on channel 3", channel_id=3)

    cms = client.call(
        endpoints.OPEN_REQUEST_CREATE, path_params={"pid": pid, "channel_id": 3}, body={"cms_account": account}
    ).data
    state.review_open_request(cms["id"], "approved")
    rt = room_type.vendor_id
    refused(endpoints.CHANNEL_MAPPINGS_REPLACE, 400, "rateplans: is required", channel_id=3, body={"roomtypes": []})
    long_code = {"roomtypes": [{"vendor_roomtype_id": rt, "channel_code": "x" * 41}], "rateplans": []}
    refused(endpoints.CHANNEL_MAPPINGS_REPLACE, 400, "channel_code: must be at most 40", channel_id=3, body=long_code)
    ghost = {"roomtypes": [], "rateplans": [{"vendor_rateplan_id": "ghost", "channel_code": "G"}]}
    refused(
        endpoints.CHANNEL_MAPPINGS_REPLACE,
        400,
        "rateplans[0].vendor_rateplan_id: no rate plan",
        channel_id=3,
        body=ghost,
    )
    twice = {"roomtypes": [{"vendor_roomtype_id": rt, "channel_code": "A"}] * 2, "rateplans": []}
    refused(endpoints.CHANNEL_MAPPINGS_REPLACE, 400, "appears more than once", channel_id=3, body=twice)

    # Null empties a map; a PATCH keeps what it does not name.
    params = {"pid": pid, "channel_id": 1}
    client.call(
        endpoints.CHANNEL_SETTINGS_UPDATE,
        path_params=params,
        body={"on_sale": True, "rateplans": {plans[0].vendor_id: False}},
    )
    assert client.call(endpoints.CHANNEL_SETTINGS_UPDATE, path_params=params, body={"rateplans": None}).data == {
        "on_sale": True,
        "roomtypes": {},
        "rateplans": {},
    }


def test_the_sandbox_reviews_by_itself_after_the_delay(hub_property, settings):
    prop, _room_type, _plans = hub_property
    client = get_hub_client()
    for channel_id, body in ((1, {}), (5, {}), (9, {"cms_account": {"account_id": "a", "property_code": "b"}})):
        client.call(
            endpoints.OPEN_REQUEST_CREATE, path_params={"pid": prop.vendor_id, "channel_id": channel_id}, body=body
        )
    for channel_id in (1, 5, 9):
        ChannelOpenRequest.objects.create(
            property=prop,
            channel=channel(channel_id),
            hub_id=SandboxOpenRequest.objects.get(channel__channel_id=channel_id).pk,
            status=RequestStatus.PENDING,
        )
    settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = 0

    assert property_channels_refresh_requested() == 3  # 1 open, 5 requested, 9 rejected
    statuses = dict(PropertyChannel.objects.filter(property=prop).values_list("channel__channel_id", "status"))
    assert statuses == {1: "open", 5: "requested", 9: "rejected", 2: "closed", 3: "closed", 7: "closed"}
    rejected = ChannelOpenRequest.objects.get(channel__channel_id=9)
    assert (rejected.status, rejected.reason) == ("rejected", "The channel takes no new properties in this region.")
    # A property the hub does not know keeps what we have.
    assert property_channels_refresh(property=PropertyFactory(vendor_id="unknown-here")) == 0


def test_two_reads_of_a_propertys_channels_at_once_review_a_due_request_once(hub_property, settings, monkeypatch):
    """Two reads find the same request due; the one that locks it second skips it instead of answering 500."""
    prop, _room_type, _plans = hub_property
    client = get_hub_client()
    client.call(endpoints.OPEN_REQUEST_CREATE, path_params={"pid": prop.vendor_id, "channel_id": 1}, body={})
    settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = 0
    review = hub_channels.open_request_review

    def reviewed_first_by_another_read(**kwargs):
        review(**kwargs)  # the other read of the channels, between this one's look-up and its lock
        return review(**kwargs)

    monkeypatch.setattr(hub_channels, "open_request_review", reviewed_first_by_another_read)
    client.call(endpoints.PROPERTY_CHANNELS, path_params={"pid": prop.vendor_id})  # raises on a 500

    assert SandboxOpenRequest.objects.get().status == SandboxOpenRequest.Status.APPROVED


def test_the_sandbox_admin_approves_or_rejects_with_a_reason(hub_property, admin_client):
    prop, _room_type, _plans = hub_property
    client = get_hub_client()
    first = client.call(endpoints.OPEN_REQUEST_CREATE, path_params={"pid": prop.vendor_id, "channel_id": 5}, body={})
    second = client.call(endpoints.OPEN_REQUEST_CREATE, path_params={"pid": prop.vendor_id, "channel_id": 2}, body={})
    changelist = reverse("admin:hubsandbox_sandboxopenrequest_changelist")
    action = {"action": "approve_selected", "_selected_action": [first.data["id"]]}
    assert admin_client.post(changelist, action).status_code == 302
    # A rejection asks for the reason first, then applies it.
    ask = admin_client.post(changelist, {"action": "reject_selected", "_selected_action": [second.data["id"]]})
    assert ask.status_code == 200
    admin_client.post(
        changelist,
        {"action": "reject_selected", "_selected_action": [second.data["id"]], "apply": "1", "reason": "No contract"},
    )
    answers = {item["channel_id"]: item for item in state.open_requests_of(prop.vendor_id)}
    assert (answers[5]["status"], answers[2]["status"], answers[2]["reason"]) == ("approved", "rejected", "No contract")
    assert state.channel_settings_of(prop.vendor_id, 5) == {
        "settings": {"on_sale": False, "roomtypes": {}, "rateplans": {}},
        "mappings": {"roomtypes": [], "rateplans": []},
    }


def test_a_channels_own_values_kept_while_it_was_not_open_reach_the_hub_when_it_opens(hub_property):
    prop, room_type, (plan, _package) = hub_property
    hub_channel, days = channel(1), [day(n) for n in (1, 2, 3)]
    RatePlanDay.objects.bulk_create(RatePlanDay(rate_plan=plan, date=d, rate=100_000) for d in days)
    RoomTypeDay.objects.bulk_create(RoomTypeDay(room_type=room_type, date=d, allotment=5, available=5) for d in days)
    request = channel_open_request(property=prop, channel=hub_channel)
    # The channel's own rate and cap, kept while it is not open (set when it was open before, say).
    ChannelRateDay.objects.create(rate_plan=plan, channel=hub_channel, date=day(2), rate=90_000)
    ChannelAvailDay.objects.create(room_type=room_type, channel=hub_channel, date=day(3), cap=2)
    with transaction.atomic():
        ari_mark_dirty(plan, kind=ResourceKind.ARI_RATES, dates=days)
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=days)
    assert not sync_pending(property=prop).failures
    ids = (prop.vendor_id, room_type.vendor_id)
    assert state.rates_of(*ids, plan.vendor_id)[day(2)]["rate"] == 100_000
    assert state.rates_of(*ids, plan.vendor_id, 1) == {}  # not open: only the common values went
    assert state.avails_of(*ids, 1) == {}

    request.refresh_from_db()
    state.review_open_request(request.hub_id, "approved")
    assert property_channels_refresh(property=prop) == 1
    assert not sync_pending(property=prop).failures

    # Sent when it opens: the days it has values of its own on.
    assert {d: v["rate"] for d, v in state.rates_of(*ids, plan.vendor_id, 1).items()} == {day(2): 90_000}
    assert state.avails_of(*ids, 1) == {day(3): 2}


def test_a_switch_to_another_hub_closes_the_old_hubs_channels_and_keeps_what_was_prepared(
    hub_property, production_hub, superuser
):
    """The statuses we hold were the old hub's: after a switch every channel is closed until the new hub
    opens it, its sales settings are kept for then (nothing is sent for a channel the new hub has not
    opened, so nothing fails there), and each property's statuses are read from the new hub."""
    prop, _room_type, plans = hub_property
    request = channel_open_request(property=prop, channel=channel(1))
    sync_pending(property=prop)
    request.refresh_from_db()
    state.review_open_request(request.hub_id, "approved")
    property_channels_refresh(property=prop)
    link = PropertyChannel.objects.get(property=prop, channel=channel(1))
    channel_settings_update(property_channel=link, on_sale=True, rate_plans_off=[plans[1]])
    sync_pending(property=prop)
    assert link.__class__.objects.get(pk=link.pk).status == ChannelStatus.OPEN

    hub_environment_switch(to=HubEnvironment.PRODUCTION, user=superuser)

    link.refresh_from_db()
    assert link.status == ChannelStatus.CLOSED
    assert (link.on_sale, link.rate_plans) == (True, {plans[1].vendor_id: False})
    # Read from the new hub once it has created the property, not before (it would answer 404).
    assert not Job.objects.filter(task=REFRESH_PROPERTY_TASK, args=[prop.pk]).exists()
    assert property_channels_refresh(property=prop) == 0
    summary = sync_pending(property=prop)
    assert not summary.failures, summary.failures
    assert Job.objects.filter(task=REFRESH_PROPERTY_TASK, args=[prop.pk]).exists()
    settings_state = SyncState.objects.get(kind=ResourceKind.CHANNEL_SETTINGS, object_id=link.pk)
    assert settings_state.status == SyncStatus.SYNCED
    assert not state.request_log(
        method="PATCH", path_prefix=f"/gds/vendor/properties/{prop.vendor_id}/channels", hub="production"
    ).exists()


def test_after_a_switch_no_channel_status_is_read_before_the_new_hub_holds_the_property(
    hub_property, production_hub, superuser
):
    """Issue 41: a resync after a switch read properties' channel statuses from the new hub before it had
    created them (404s). The read waits for the property's create there, then follows it."""
    prop, _room_type, _plans = hub_property
    channel_open_request(property=prop, channel=channel(1))
    sync_pending(property=prop)
    hub_environment_switch(to=HubEnvironment.PRODUCTION, user=superuser)

    property_channels_refresh(property=prop)  # what the queued read-back, or a booking, would run now
    property_channels_refresh_for_booking(property=prop, status=ChannelStatus.CLOSED)
    sync_pending(property=prop)
    property_channels_refresh(property=prop)  # the job the create queued

    at_new_hub = list(
        state.request_log(path_prefix="/gds/vendor/properties", hub="production").values_list(
            "method", "path", "response_status"
        )
    )
    statuses_path = f"/gds/vendor/properties/{prop.vendor_id}/channels"
    assert at_new_hub[0][:2] == ("POST", "/gds/vendor/properties")
    assert [row for row in at_new_hub if row[:2] == ("GET", statuses_path)] == [("GET", statuses_path, 200)]
    assert not [row for row in at_new_hub if row[2] == 404]
