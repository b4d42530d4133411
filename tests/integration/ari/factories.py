"""Factories and helpers for the rates and availability screens' tests."""

import datetime

import factory

from core.dates import korea_today
from integration.channels.choices import ChannelStatus
from integration.content.choices import RatePlanType
from integration.models import PropertyChannel, RatePlanDay, RoomTypeDay, SalesChannel
from tests.factories import RatePlanFactory, RatePlanModelFactory, RoomTypeFactory


class SalesChannelFactory(factory.django.DjangoModelFactory):
    """A sales channel with a unique hub channel id."""

    class Meta:
        model = SalesChannel
        skip_postgeneration_save = True  # open_for writes its own rows; the channel itself is unchanged

    channel_id = factory.Sequence(lambda n: 100 + n)
    name = factory.Sequence(lambda n: f"Channel {n}")

    @factory.post_generation
    def open_for(self, create, props, **kwargs):
        """SalesChannelFactory(open_for=prop or [props]): open for them (only open channels get values)."""
        if create and props is not None:
            for prop in props if isinstance(props, list) else [props]:
                PropertyChannel.objects.create(property=prop, channel=self, status=ChannelStatus.OPEN, on_sale=True)


def day(n):
    """n days from today in Korea."""
    return korea_today() + datetime.timedelta(days=n)


def next_weekday(weekday, *, after=1):
    """The first date at least `after` days from today that falls on weekday (0 = Monday)."""
    start = day(after)
    return start + datetime.timedelta(days=(weekday - start.weekday()) % 7)


def ari_property(prop, *, room_types=1, packages=1):
    """Room types of prop, each with a standalone plan and `packages` package plans; models are shared.
    Returns [(room_type, standalone_plan, [package_plans])]."""
    standalone = RatePlanModelFactory(property=prop, type=RatePlanType.STANDALONE, name="Room only")
    models = [RatePlanModelFactory(property=prop, name=f"Package {n}") for n in range(packages)]
    rows = []
    for n in range(room_types):
        room_type = RoomTypeFactory(property=prop, name=f"Room {n:02d}", vendor_id=f"{prop.vendor_id}-room-{n}")
        plan = RatePlanFactory(room_type=room_type, model=standalone, vendor_id=f"{room_type.vendor_id}-only")
        package_plans = [
            RatePlanFactory(room_type=room_type, model=model, vendor_id=f"{room_type.vendor_id}-pkg-{i}")
            for i, model in enumerate(models)
        ]
        rows.append((room_type, plan, package_plans))
    return rows


def fill_days(rows, dates, *, rate=100_000, modify=20_000, allotment=5, held=0, taken=0):
    """Rates, differences and stock on each of dates, written directly (test set-up, not the product's path)."""
    rate_days, stock = [], []
    for room_type, standalone, packages in rows:
        for date in dates:
            rate_days.append(RatePlanDay(rate_plan=standalone, date=date, rate=rate))
            rate_days.extend(RatePlanDay(rate_plan=plan, date=date, rate_modify=modify) for plan in packages)
            stock.append(
                RoomTypeDay(
                    room_type=room_type,
                    date=date,
                    allotment=allotment,
                    held=held,
                    taken=taken,
                    available=allotment - held - taken,
                )
            )
    RatePlanDay.objects.bulk_create(rate_days)
    RoomTypeDay.objects.bulk_create(stock)


def month_dates(first):
    """Every date of the month that starts on first."""
    dates, current = [], first
    while current.month == first.month:
        dates.append(current)
        current += datetime.timedelta(days=1)
    return dates
