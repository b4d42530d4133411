"""Rates, business days and availability: edits, their preview, and what the hub is sent."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.dates import korea_today
from integration.ari.dates import DateRange, ari_window, clamp_ranges, merge_ranges, ranges_of
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation, ari_edit_plan, ari_edit_validate
from integration.ari.services.inventory import NoRoomsAvailable, inventory_hold, inventory_release, inventory_take
from integration.ari.services.push import ari_mark_dirty
from integration.hub.payloads import MAX_ARI_ENTRIES, ari_runs, build_ari_bodies
from integration.models import (
    AriDirtyRange,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
    SalesChannel,
    SyncState,
)
from tests.factories import PropertyFactory, hub_content

pytestmark = pytest.mark.django_db

D = datetime.date


def day(n):
    """n days from today in Korea."""
    return korea_today() + datetime.timedelta(days=n)


@pytest.fixture
def content():
    room_type, _standalone_model, _package_model, plans = hub_content(PropertyFactory())
    return room_type, plans[0], plans[1]


def apply(**kwargs):
    return ari_edit_apply(AriEdit(**kwargs))


def test_ranges_merge_clamp_and_cover_dates():
    ranges = [
        DateRange(D(2027, 1, 5), D(2027, 1, 9)),
        DateRange(D(2027, 1, 1), D(2027, 1, 3)),
        DateRange(D(2027, 1, 4), D(2027, 1, 4)),
    ]

    assert merge_ranges(ranges) == [DateRange(D(2027, 1, 1), D(2027, 1, 9))]
    assert merge_ranges([DateRange(D(2027, 1, 1), D(2027, 1, 2)), DateRange(D(2027, 1, 4), D(2027, 1, 4))]) == [
        DateRange(D(2027, 1, 1), D(2027, 1, 2)),
        DateRange(D(2027, 1, 4), D(2027, 1, 4)),
    ]
    assert clamp_ranges([DateRange(D(2026, 12, 1), D(2027, 1, 10))], (D(2027, 1, 5), D(2027, 2, 1))) == [
        DateRange(D(2027, 1, 5), D(2027, 1, 10))
    ]
    assert ranges_of([D(2027, 1, 3), D(2027, 1, 1), D(2027, 1, 2), D(2027, 1, 7)]) == [
        DateRange(D(2027, 1, 1), D(2027, 1, 3)),
        DateRange(D(2027, 1, 7), D(2027, 1, 7)),
    ]


def test_runs_of_equal_days_travel_as_one_entry():
    values = [
        (D(2027, 1, 1), {"rate": 100}),
        (D(2027, 1, 2), {"rate": 100}),
        (D(2027, 1, 3), {"rate": 120}),
        (D(2027, 1, 5), {"rate": 120}),  # a gap breaks the run
    ]

    assert ari_runs(values) == [
        {"from": "2027-01-01", "to": "2027-01-02", "rate": 100},
        {"from": "2027-01-03", "to": "2027-01-03", "rate": 120},
        {"from": "2027-01-05", "to": "2027-01-05", "rate": 120},
    ]


def test_bodies_hold_common_entries_and_a_channels_array_and_split_at_the_limit():
    start = D(2027, 1, 1)
    alternating = [(start + datetime.timedelta(days=n), {"count": n % 2}) for n in range(1500)]
    channels = {3: [(start, {"count": 1})]}

    bodies = build_ari_bodies("avails", alternating, channels)

    assert [len(body["avails"]) for body in bodies] == [MAX_ARI_ENTRIES, 500]
    assert "channels" not in bodies[0]
    assert bodies[1]["channels"] == [
        {"channel_id": 3, "avails": [{"from": "2027-01-01", "to": "2027-01-01", "count": 1}]}
    ]
    assert sum(len(b["avails"]) + sum(len(c["avails"]) for c in b.get("channels", [])) for b in bodies) == 1501


def test_set_rates_on_a_weekday_pattern(content):
    _room, standalone, _package = content
    weekend = frozenset({5, 6})

    plan = apply(
        ranges=(DateRange(day(1), day(14)),),
        operation=Operation.SET,
        value=150000,
        rate_plans=(standalone,),
        weekdays=weekend,
    )

    stored = dict(RatePlanDay.objects.filter(rate_plan=standalone).values_list("date", "rate"))
    assert set(stored) == {d for d in DateRange(day(1), day(14)).days() if d.weekday() in weekend}
    assert set(stored.values()) == {150000}
    assert len(plan.changed) == len(stored)


def test_a_package_price_is_stored_as_the_difference_from_the_standalone_rate(content):
    _room, standalone, package = content
    days = (DateRange(day(1), day(3)),)
    apply(ranges=days, operation=Operation.SET, value=100000, rate_plans=(standalone,))

    apply(ranges=days, operation=Operation.SET, value=130000, rate_plans=(package,))
    apply(ranges=days, operation=Operation.INCREASE_PERCENT, value=10, rate_plans=(package,))

    # 130,000 + 10 % = 143,000 for guests: 43,000 above the standalone rate.
    assert set(RatePlanDay.objects.filter(rate_plan=package).values_list("rate", "rate_modify")) == {(None, 43000)}


def test_a_package_needs_the_standalone_rate(content):
    _room, _standalone, package = content

    plan = ari_edit_plan(
        AriEdit(ranges=(DateRange(day(1), day(1)),), operation=Operation.SET, value=1000, rate_plans=(package,))
    )

    assert plan.errors[0].error == "The standalone plan has no rate on this day."


def test_decrease_below_zero_is_refused_and_nothing_is_saved(content):
    _room, standalone, _package = content
    apply(ranges=(DateRange(day(1), day(2)),), operation=Operation.SET, value=5000, rate_plans=(standalone,))
    apply(
        ranges=(DateRange(day(2), day(2)),),
        operation=Operation.SET,
        value=50000,
        rate_plans=(standalone,),
        confirmed=True,  # a tenfold move needs the guard's confirmation
    )

    with pytest.raises(ValidationError, match="below 0"):
        apply(
            ranges=(DateRange(day(1), day(2)),),
            operation=Operation.DECREASE_AMOUNT,
            value=10000,
            rate_plans=(standalone,),
        )

    assert sorted(RatePlanDay.objects.filter(rate_plan=standalone).values_list("rate", flat=True)) == [5000, 50000]


def test_open_and_close_business_days(content):
    _room, standalone, _package = content

    apply(ranges=(DateRange(day(1), day(3)),), operation=Operation.CLOSE, rate_plans=(standalone,))

    assert set(RatePlanDay.objects.filter(rate_plan=standalone).values_list("business_day", flat=True)) == {False}


def test_availability_follows_the_allotment_and_cannot_go_below_what_is_booked(content):
    room_type, _standalone, _package = content
    apply(ranges=(DateRange(day(1), day(2)),), operation=Operation.SET_AVAILABILITY, value=5, room_types=(room_type,))
    RoomTypeDay.objects.filter(date=day(1)).update(held=1, taken=2, available=2)

    apply(ranges=(DateRange(day(1), day(2)),), operation=Operation.SET_AVAILABILITY, value=4, room_types=(room_type,))
    assert list(RoomTypeDay.objects.order_by("date").values_list("allotment", "held", "taken", "available")) == [
        (4, 1, 2, 1),
        (4, 0, 0, 4),
    ]

    with pytest.raises(ValidationError, match="already booked"):
        apply(
            ranges=(DateRange(day(1), day(1)),), operation=Operation.SET_AVAILABILITY, value=2, room_types=(room_type,)
        )


def test_an_edit_marks_the_days_dirty_in_the_same_transaction(content):
    _room_type, standalone, _package = content

    apply(
        ranges=(DateRange(day(1), day(3)), DateRange(day(10), day(10))),
        operation=Operation.SET,
        value=9000,
        rate_plans=(standalone,),
    )

    state = SyncState.objects.get(kind="ari_rates", object_id=standalone.pk)
    assert state.status == "pending"
    assert sorted(AriDirtyRange.objects.filter(state=state).values_list("date_from", "date_to")) == [
        (day(1), day(3)),
        (day(10), day(10)),
    ]


def test_a_channel_override_is_stored_apart_from_the_common_rate(content):
    _room, standalone, _package = content
    channel = SalesChannel.objects.create(channel_id=3, name="Channel 3")
    apply(ranges=(DateRange(day(1), day(1)),), operation=Operation.SET, value=100, rate_plans=(standalone,))

    apply(
        ranges=(DateRange(day(1), day(1)),),
        operation=Operation.SET,
        value=150,
        rate_plans=(standalone,),
        channel=channel,
    )

    assert RatePlanDay.objects.get(rate_plan=standalone).rate == 100
    assert ChannelRateDay.objects.get(rate_plan=standalone, channel=channel).rate == 150


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"ranges": (), "operation": Operation.SET, "value": 1}, "ranges"),
        ({"ranges": "past", "operation": Operation.SET, "value": 1}, "ranges"),
        ({"ranges": "late", "operation": Operation.SET, "value": 1}, "ranges"),
        ({"ranges": "ok", "operation": Operation.SET, "value": -1}, "value"),
        ({"ranges": "ok", "operation": Operation.SET, "value": None}, "value"),
        ({"ranges": "ok", "operation": "double", "value": 1}, "operation"),
        ({"ranges": "ok", "operation": Operation.SET, "value": 1, "weekdays": frozenset()}, "weekdays"),
    ],
)
def test_edit_errors_name_the_field(content, edit, field):
    _room, standalone, _package = content
    first, last = ari_window()
    ranges = {
        "past": (DateRange(first - datetime.timedelta(days=1), first),),
        "late": (DateRange(last, last + datetime.timedelta(days=1)),),
        "ok": (DateRange(day(1), day(2)),),
    }.get(edit["ranges"], edit["ranges"])

    errors = ari_edit_validate(AriEdit(**{**edit, "ranges": ranges, "rate_plans": (standalone,)}))

    assert field in errors


def test_the_database_keeps_available_what_is_left_and_never_below_zero(content):
    room_type, _standalone, _package = content
    RoomTypeDay.objects.create(room_type=room_type, date=day(1), allotment=2, available=2)

    with pytest.raises(IntegrityError), transaction.atomic():
        RoomTypeDay.objects.filter(room_type=room_type).update(held=3, available=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoomTypeDay.objects.filter(room_type=room_type).update(held=1)  # available no longer what is left


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_takes_never_drive_availability_below_zero():
    """Twenty writers take a room at once with no check in Python: the database's constraint lets
    exactly as many through as there were rooms, and what is left stays what was allotted minus them."""
    import threading

    from django.db import connection
    from django.db.models import F

    room_type, *_ = hub_content(PropertyFactory())
    RoomTypeDay.objects.create(room_type=room_type, date=day(1), allotment=7, available=7)
    barrier = threading.Barrier(20)
    outcomes = []

    def take():
        try:
            barrier.wait()
            with transaction.atomic():
                RoomTypeDay.objects.filter(room_type=room_type, date=day(1)).update(
                    taken=F("taken") + 1, available=F("available") - 1
                )
            outcomes.append("taken")
        except IntegrityError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert outcomes.count("taken") == 7
    row = RoomTypeDay.objects.get(room_type=room_type, date=day(1))
    assert (row.allotment, row.taken, row.available) == (7, 7, 0)


def test_one_edit_of_a_standalone_plan_and_its_package_prices_the_package_against_the_new_rate(content):
    _room, standalone, package = content
    days = (DateRange(day(1), day(1)),)
    apply(ranges=days, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    apply(ranges=days, operation=Operation.SET, value=120000, rate_plans=(package,))

    apply(ranges=days, operation=Operation.INCREASE_PERCENT, value=20, rate_plans=(package, standalone))
    assert RatePlanDay.objects.get(rate_plan=standalone).rate == 120000
    assert RatePlanDay.objects.get(rate_plan=package).rate_modify == 24000  # 144,000 for guests

    apply(ranges=days, operation=Operation.SET, value=150000, rate_plans=(standalone, package))
    assert RatePlanDay.objects.get(rate_plan=package).rate_modify == 0


def test_an_absurd_price_is_refused(content):
    _room, standalone, _package = content
    apply(ranges=(DateRange(day(1), day(1)),), operation=Operation.SET, value=900_000_000, rate_plans=(standalone,))

    with pytest.raises(ValidationError, match="exceed"):
        apply(
            ranges=(DateRange(day(1), day(1)),),
            operation=Operation.INCREASE_PERCENT,
            value=50,
            rate_plans=(standalone,),
        )
    assert "value" in ari_edit_validate(
        AriEdit(
            ranges=(DateRange(day(1), day(1)),), operation=Operation.SET, value=2_000_000_000, rate_plans=(standalone,)
        )
    )


def test_a_hold_takes_every_night_or_none_and_queues_the_availability_push(content):
    room_type, _standalone, _package = content
    apply(ranges=(DateRange(day(1), day(3)),), operation=Operation.SET_AVAILABILITY, value=1, room_types=(room_type,))
    inventory_hold(room_type=room_type, dates=[day(2)])
    AriDirtyRange.objects.all().delete()

    with pytest.raises(NoRoomsAvailable) as refused:
        inventory_hold(room_type=room_type, dates=[day(1), day(2), day(3)])

    assert refused.value.date == day(2)
    assert list(RoomTypeDay.objects.order_by("date").values_list("held", "available")) == [(0, 1), (1, 0), (0, 1)]
    assert not AriDirtyRange.objects.exists()

    inventory_hold(room_type=room_type, dates=[day(1)])
    assert AriDirtyRange.objects.filter(state__kind="ari_avails", date_from=day(1), date_to=day(1)).exists()


def test_the_first_hold_of_a_room_type_with_no_outbox_row_holds_and_queues_its_push(content):
    # Days loaded without an edit (a restore, say): no outbox row to add the range to. On PostgreSQL the
    # nights' update runs inside the outbox's WITH, which then finds no row; elsewhere before it.
    room_type, _standalone, _package = content
    RoomTypeDay.objects.bulk_create(
        RoomTypeDay(room_type=room_type, date=day(n), allotment=2, available=2) for n in (1, 2)
    )
    assert not SyncState.objects.filter(kind="ari_avails").exists()

    inventory_hold(room_type=room_type, dates=[day(1), day(2)])

    assert list(RoomTypeDay.objects.order_by("date").values_list("held", "available")) == [(1, 1), (1, 1)]
    state = SyncState.objects.get(kind="ari_avails", object_id=room_type.pk)
    assert (state.status, state.queued_at is not None) == ("pending", True)
    assert list(AriDirtyRange.objects.values_list("state", "date_from", "date_to")) == [(state.pk, day(1), day(2))]


def test_a_change_marked_dirty_for_no_dates_still_runs(content):
    room_type, _standalone, _package = content
    RoomTypeDay.objects.create(room_type=room_type, date=day(1), allotment=2, available=2)
    change = (
        f"UPDATE {RoomTypeDay._meta.db_table} SET allotment = 3, available = 3 WHERE room_type_id = %s",  # noqa: S608
        [room_type.pk],
    )

    ari_mark_dirty(room_type, kind="ari_avails", dates=[], along=change)

    assert RoomTypeDay.objects.get().allotment == 3
    assert not AriDirtyRange.objects.exists()


def test_take_and_release_keep_the_counts_whole(content):
    room_type, _standalone, _package = content
    apply(ranges=(DateRange(day(1), day(2)),), operation=Operation.SET_AVAILABILITY, value=3, room_types=(room_type,))
    nights = [day(1), day(2)]

    inventory_hold(room_type=room_type, dates=nights)
    inventory_take(room_type=room_type, dates=nights)
    inventory_hold(room_type=room_type, dates=nights)
    inventory_release(room_type=room_type, dates=nights)
    inventory_release(room_type=room_type, dates=nights, taken=True)

    assert set(RoomTypeDay.objects.values_list("allotment", "held", "taken", "available")) == {(3, 0, 0, 3)}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_overlapping_stays_and_cancels_never_oversell():
    """Forty guests try overlapping one- to three-night stays on four rooms at once while others cancel:
    no night goes below zero, and on every night held + taken + available = allotment."""
    import random
    import threading

    from django.db import connection

    room_type, *_ = hub_content(PropertyFactory())
    apply(ranges=(DateRange(day(1), day(6)),), operation=Operation.SET_AVAILABILITY, value=4, room_types=(room_type,))
    rng = random.Random(4)
    stays = [[day(start + n) for n in range(rng.randint(1, 3))] for start in (rng.randint(1, 4) for _ in range(40))]
    barrier = threading.Barrier(len(stays))
    held = []

    def guest(nights, cancel):
        try:
            barrier.wait()
            inventory_hold(room_type=room_type, dates=nights)
            held.append(nights)
            if cancel:
                inventory_release(room_type=room_type, dates=nights)
        except NoRoomsAvailable:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=guest, args=(nights, n % 3 == 0)) for n, nights in enumerate(stays)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert held, "some guests got rooms"
    for row in RoomTypeDay.objects.filter(room_type=room_type):
        assert row.available >= 0
        assert row.held + row.taken + row.available == row.allotment == 4


def test_clearing_a_channel_sells_it_at_the_common_values_again(content):
    room_type, standalone, _package = content
    channel = SalesChannel.objects.create(channel_id=5, name="Channel 5")
    days = (DateRange(day(1), day(2)),)
    apply(ranges=days, operation=Operation.SET, value=100, rate_plans=(standalone,))
    apply(ranges=days, operation=Operation.SET, value=150, rate_plans=(standalone,), channel=channel)
    apply(ranges=days, operation=Operation.SET_AVAILABILITY, value=2, room_types=(room_type,), channel=channel)
    AriDirtyRange.objects.all().delete()

    assert "channel" in ari_edit_validate(
        AriEdit(ranges=days, operation=Operation.CLEAR_CHANNEL, rate_plans=(standalone,))
    )
    apply(
        ranges=days,
        operation=Operation.CLEAR_CHANNEL,
        rate_plans=(standalone,),
        room_types=(room_type,),
        channel=channel,
    )

    assert set(ChannelRateDay.objects.values_list("rate", "rate_modify")) == {(None, None)}
    assert set(ChannelAvailDay.objects.values_list("cap", flat=True)) == {None}
    assert set(AriDirtyRange.objects.values_list("state__kind", flat=True)) == {"ari_rates", "ari_avails"}
