"""Channel rules and the horizon at the sandbox hub: a rule costs one availability request per room type,
and the hub holds each channel's counts as the rules give them."""

import datetime
from typing import cast

import pytest
from django.db import transaction

from integration.ari.dates import DateRange
from integration.ari.services.avail_rules import (
    avail_rule_save,
    cutoff_settings_changed,
    lead_days_delete,
    lead_days_save,
)
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.ari.services.horizon import horizon_check_property, hub_days_ahead
from integration.models import ChannelAvailRule, ChannelLeadDays, PropertyCutoff, SalesChannel, SyncAttempt
from integration.sync.services.batch import sync_pending
from integration.sync.services.sender import Outcome
from tests.factories import PropertyFactory, RoomTypeFactory, hub_content, korean
from tests.integration.ari.factories import SalesChannelFactory, day

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def content(settings):
    settings.ARI_HORIZON_DAYS = 30
    prop = PropertyFactory(vendor_id="hanok")
    room_type, _standalone, _package, plans = hub_content(prop)
    second = RoomTypeFactory(property=prop)
    korean(second)
    sync_pending(full=True)
    with transaction.atomic():
        for target in (room_type, second):
            ari_edit_apply(
                AriEdit(
                    ranges=(DateRange(day(0), day(29)),),
                    operation=Operation.SET_AVAILABILITY,
                    value=6,
                    room_types=(target,),
                )
            )
        ari_edit_apply(
            AriEdit(
                ranges=(DateRange(day(0), day(29)),), operation=Operation.SET, value=100_000, rate_plans=(plans[0],)
            )
        )
        ari_edit_apply(
            AriEdit(ranges=(DateRange(day(0), day(29)),), operation=Operation.SET, value=10_000, rate_plans=(plans[1],))
        )
    sync_pending()
    return prop, room_type, second


def avail_requests():
    return list(SyncAttempt.objects.filter(path__endswith="/ari/avails").values_list("path", flat=True))


def test_a_rule_reaches_the_hub_in_one_availability_request_per_room_type(hub, content):
    prop, room_type, second = content
    channel = SalesChannelFactory(open_for=prop)
    capped = SalesChannelFactory(open_for=prop)
    before = len(avail_requests())
    with transaction.atomic():
        for target, kind, value in ((channel, "close", None), (capped, "hold_back", 4)):
            avail_rule_save(
                rule=ChannelAvailRule(
                    property=prop, channel=target, date_from=day(3), date_to=day(9), kind=kind, value=value
                )
            )

    summary = sync_pending()

    assert summary.counts["failed"] == 0
    requests = avail_requests()[before:]
    assert sorted(requests) == sorted(set(requests))
    assert len(requests) == 2
    for target in (room_type, second):
        closed = hub.avails_of("hanok", target.vendor_id, channel.channel_id)
        held_back = hub.avails_of("hanok", target.vendor_id, capped.channel_id)
        # The rule's days only: on the others the channels sell from the common stock.
        assert closed == {day(n): 0 for n in range(3, 10)}
        assert held_back == {day(n): 2 for n in range(3, 10)}
        assert hub.avails_of("hanok", target.vendor_id)[day(5)] == 6  # the common stock as it is


def test_the_horizon_check_sees_what_the_hub_acknowledged(hub, content):
    prop, _room_type, _second = content

    assert hub_days_ahead(prop) == 30
    assert horizon_check_property(prop.pk) == 0


def open_channel(prop) -> SalesChannel:
    """A channel open for prop, typed as the model the services take."""
    return cast(SalesChannel, SalesChannelFactory(open_for=prop))


def test_removing_a_channel_cap_reaches_the_hub(hub, content):
    prop, room_type, _second = content
    channel = open_channel(prop)
    days = (DateRange(day(1), day(2)),)
    with transaction.atomic():
        ari_edit_apply(AriEdit(days, Operation.SET_AVAILABILITY, 2, room_types=(room_type,), channel=channel))
    sync_pending()
    assert hub.avails_of("hanok", room_type.vendor_id, channel.channel_id) == {day(1): 2, day(2): 2}

    with transaction.atomic():
        ari_edit_apply(AriEdit(days, Operation.CLEAR_CHANNEL, room_types=(room_type,), channel=channel))
    assert sync_pending().counts[Outcome.FAILED] == 0

    # The channel sells from the common stock again: the hub no longer holds the old cap of 2.
    assert hub.avails_of("hanok", room_type.vendor_id, channel.channel_id) == {day(1): 6, day(2): 6}


def test_removing_a_channel_lead_days_opens_its_days_at_the_hub(hub, content):
    prop, room_type, second = content
    channel = open_channel(prop)
    with transaction.atomic():
        lead_days_save(lead=ChannelLeadDays(property=prop, channel=channel, days=3))
    sync_pending()
    assert hub.avails_of("hanok", room_type.vendor_id, channel.channel_id) == {day(n): 0 for n in range(3)}

    with transaction.atomic():
        lead_days_delete(lead=ChannelLeadDays.objects.get())
    assert sync_pending().counts[Outcome.FAILED] == 0

    for target in (room_type, second):
        assert hub.avails_of("hanok", target.vendor_id, channel.channel_id) == {day(n): 6 for n in range(3)}


def test_a_channel_out_of_the_cut_off_opens_today_at_the_hub(hub, content):
    prop, room_type, _second = content
    channel = open_channel(prop)
    cutoff = PropertyCutoff.objects.create(property=prop, cutoff_time=datetime.time(0, 0))
    cutoff.channels.set([channel])
    cutoff_settings_changed(prop)
    sync_pending()
    assert hub.avails_of("hanok", room_type.vendor_id, channel.channel_id) == {day(0): 0}

    cutoff.delete()
    cutoff_settings_changed(prop)
    assert sync_pending().counts[Outcome.FAILED] == 0

    assert hub.avails_of("hanok", room_type.vendor_id, channel.channel_id) == {day(0): 6}
