"""Rates and availability reach the hub: one request per rate plan or room type, runs collapsed."""

import datetime

import pytest
from django.db import transaction

from core.dates import korea_today
from hubsandbox import state as hub_state
from integration.ari.dates import DateRange, ari_window
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.models import AriDirtyRange, SyncAttempt, SyncState
from integration.sync.services.batch import sync_pending
from tests.factories import PropertyFactory, hub_content
from tests.hub_fixtures import all_synced, wait_until
from tests.integration.ari.factories import SalesChannelFactory

pytestmark = pytest.mark.django_db(transaction=True)


def day(n):
    return korea_today() + datetime.timedelta(days=n)


@pytest.fixture
def content():
    prop = PropertyFactory(vendor_id="hanok")
    room_type, _standalone_model, _package_model, plans = hub_content(prop)
    sync_pending(full=True)  # the hub knows the content before its rates
    return room_type, plans[0], plans[1]


def edit(**kwargs):
    with transaction.atomic():
        return ari_edit_apply(AriEdit(**kwargs))


def ari_attempts():
    """The requests that carried rates or availability."""
    return SyncAttempt.objects.filter(path__regex=r"/ari(/avails)?$").order_by("id")


def test_rates_and_availability_arrive_day_by_day(hub, content):
    room_type, standalone, package = content
    weekend = frozenset({5, 6})
    days = (DateRange(day(0), day(29)),)
    edit(ranges=days, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    edit(ranges=days, operation=Operation.SET, value=130000, rate_plans=(standalone,), weekdays=weekend)
    edit(ranges=days, operation=Operation.SET, value=120000, rate_plans=(package,))
    edit(ranges=(DateRange(day(3), day(4)),), operation=Operation.CLOSE, rate_plans=(standalone,))
    edit(ranges=days, operation=Operation.SET_AVAILABILITY, value=5, room_types=(room_type,))

    summary = sync_pending()

    assert summary.counts["failed"] == 0
    held = hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id)
    for n in range(30):
        date = day(n)
        expected = 130000 if date.weekday() in weekend else 100000
        assert held[date]["rate"] == expected
        assert held[date]["business_day"] is (n not in (3, 4))
    # The package carries its difference from the standalone rate, never a plain rate.
    package_days = hub.rates_of("hanok", room_type.vendor_id, package.vendor_id)
    assert package_days[day(0)]["rate_modify"] == 120000 - held[day(0)]["rate"]
    assert "rate" not in package_days[day(0)]
    assert hub.avails_of("hanok", room_type.vendor_id) == {day(n): 5 for n in range(30)}
    assert not AriDirtyRange.objects.exists()
    assert all_synced()


def test_many_edits_make_one_request_per_rate_plan_with_runs_collapsed(hub, content):
    _room_type, standalone, _package = content
    for week in range(4):  # four edits of adjacent weeks: dirty ranges merge
        edit(
            ranges=(DateRange(day(7 * week), day(7 * week + 6)),),
            operation=Operation.SET,
            value=90000,
            rate_plans=(standalone,),
        )

    sync_pending()

    attempts = list(ari_attempts())
    assert len(attempts) == 1
    assert attempts[0].request_body == {
        "rates": [{"from": day(0).isoformat(), "to": day(27).isoformat(), "rate": 90000, "business_day": True}]
    }


def test_a_bulk_edit_of_many_plans_makes_one_request_each_and_one_per_room_type(hub, content):
    room_type, standalone, package = content
    channel = SalesChannelFactory(channel_id=3, open_for=standalone.property)
    closed = SalesChannelFactory(channel_id=4)  # values kept, never sent while the channel is not open
    year = (DateRange(day(0), day(364)),)
    edit(ranges=year, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    edit(ranges=year, operation=Operation.SET, value=110000, rate_plans=(package,))
    edit(ranges=year, operation=Operation.SET, value=105000, rate_plans=(standalone,), channel=channel)
    edit(ranges=year, operation=Operation.SET, value=99000, rate_plans=(standalone,), channel=closed)
    edit(ranges=year, operation=Operation.SET_AVAILABILITY, value=3, room_types=(room_type,))
    edit(ranges=year, operation=Operation.SET_AVAILABILITY, value=1, room_types=(room_type,), channel=closed)

    sync_pending()

    paths = [attempt.path for attempt in ari_attempts()]
    assert sorted(paths) == sorted(
        [
            f"/gds/vendor/properties/hanok/roomtypes/{room_type.vendor_id}/rateplans/{standalone.vendor_id}/ari",
            f"/gds/vendor/properties/hanok/roomtypes/{room_type.vendor_id}/rateplans/{package.vendor_id}/ari",
            f"/gds/vendor/properties/hanok/roomtypes/{room_type.vendor_id}/ari/avails",
        ]
    )
    standalone_body = next(a.request_body for a in ari_attempts() if a.path.endswith(f"{standalone.vendor_id}/ari"))
    assert standalone_body["channels"] == [
        {"channel_id": 3, "rates": [{"from": day(0).isoformat(), "to": day(364).isoformat(), "rate": 105000}]}
    ]
    assert hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id, channel_id=3)[day(100)]["rate"] == 105000
    assert hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id, channel_id=4) == {}
    assert hub.avails_of("hanok", room_type.vendor_id, channel_id=4) == {}


def test_more_than_a_thousand_entries_are_split(hub, content):
    room_type, standalone, _package = content
    channel = SalesChannelFactory(channel_id=3, open_for=standalone.property)
    first, last = ari_window()
    # The rate alternates every day, for everyone and on channel 3: 731 + 731 entries, no run to collapse.
    with transaction.atomic():
        for parity, value in ((0, 1000), (1, 2000)):
            alternate_days = tuple(
                DateRange(d, d) for d in DateRange(first, last).days() if d.toordinal() % 2 == parity
            )
            for on_channel in (None, channel):
                ari_edit_apply(
                    AriEdit(
                        ranges=alternate_days,
                        operation=Operation.SET,
                        value=value + (1 if on_channel else 0),
                        rate_plans=(standalone,),
                        channel=on_channel,
                    )
                )

    sync_pending()

    bodies = [attempt.request_body for attempt in ari_attempts()]
    sizes = [len(body["rates"]) + sum(len(c["rates"]) for c in body.get("channels", [])) for body in bodies]
    assert sizes == [1000, 462]
    assert len(hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id)) == 731
    assert len(hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id, channel_id=3)) == 731


def test_days_that_fell_into_the_past_are_not_sent(hub, content):
    _room_type, standalone, _package = content
    edit(ranges=(DateRange(day(0), day(2)),), operation=Operation.SET, value=5000, rate_plans=(standalone,))
    # As if the push had waited until after midnight in Korea: the first day is now yesterday.
    AriDirtyRange.objects.update(date_from=day(-1))

    sync_pending()

    body = ari_attempts().get().request_body
    assert body["rates"][0]["from"] == day(0).isoformat()


def test_an_edit_through_the_queue_reaches_the_hub(worker, content):
    room_type, standalone, _package = content

    edit(ranges=(DateRange(day(1), day(5)),), operation=Operation.SET, value=77000, rate_plans=(standalone,))

    wait_until(all_synced, message="the rates pushed")
    held = hub_state.rates_of("hanok", room_type.vendor_id, standalone.vendor_id)
    assert {d: v["rate"] for d, v in held.items()} == {day(n): 77000 for n in range(1, 6)}
    assert SyncState.objects.get(kind="ari_rates", object_id=standalone.pk).status == "synced"
