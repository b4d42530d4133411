"""A full year at the hub: the nightly job opens exactly the day that came within ARI_HORIZON_DAYS from the
defaults and pushes it; the nightly check finds the days the hub should hold and did not acknowledge."""

import datetime

import pytest

from core.dates import korea_today
from integration.ari.dates import DateRange, merge_ranges
from integration.ari.services.horizon import (
    horizon_check_property,
    horizon_open_property,
    hub_days_ahead,
    hub_days_record,
)
from integration.models import (
    AriDirtyRange,
    AriHorizonCheck,
    RatePlanDay,
    RatePlanDefault,
    RoomTypeDay,
    RoomTypeDefault,
    SyncState,
)
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = pytest.mark.django_db

HORIZON = 10


@pytest.fixture
def year(settings):
    """A property with a room type, a standalone and a package plan, filled up to the day before the new
    one (the horizon shortened to 10 days)."""
    settings.ARI_HORIZON_DAYS = HORIZON
    prop = PropertyFactory()
    rows = ari_property(prop, room_types=1, packages=1)
    fill_days(rows, [day(n) for n in range(-7, HORIZON - 1)], rate=100_000, modify=20_000, allotment=5)
    room_type, standalone, (package,) = rows[0]
    return prop, room_type, standalone, package


def marked(kind, object_id):
    rows = AriDirtyRange.objects.filter(state__kind=kind, state__object_id=object_id)
    return [(r.start, r.end) for r in merge_ranges(DateRange(r.date_from, r.date_to) for r in rows)]


def test_the_nightly_job_opens_exactly_the_new_day_from_the_defaults(year):
    prop, room_type, standalone, package = year
    new_day = day(HORIZON - 1)
    RatePlanDefault.objects.create(
        rate_plan=standalone,
        mode="weekday",
        **{name: 90_000 + n for n, name in enumerate(RatePlanDefault.WEEKDAY_FIELDS)},
    )
    RoomTypeDefault.objects.create(room_type=room_type, stock=7)
    # The package has no default: as the same weekday last week.
    RatePlanDay.objects.filter(rate_plan=package, date=new_day - datetime.timedelta(days=7)).update(
        rate_modify=33_000, business_day=False
    )
    SyncState.objects.all().delete()

    assert horizon_open_property(prop.pk) == 3

    opened = RatePlanDay.objects.get(rate_plan=standalone, date=new_day)
    assert opened.rate == 90_000 + new_day.weekday()
    copied = RatePlanDay.objects.get(rate_plan=package, date=new_day)
    assert (copied.rate_modify, copied.business_day) == (33_000, False)
    stock = RoomTypeDay.objects.get(room_type=room_type, date=new_day)
    assert (stock.allotment, stock.available) == (7, 7)
    # Nothing beyond the horizon, and only the new day goes to the hub.
    assert not RoomTypeDay.objects.filter(date__gt=new_day).exists()
    for kind, target in (("ari_rates", standalone), ("ari_rates", package), ("ari_avails", room_type)):
        assert marked(kind, target.pk) == [(new_day, new_day)], kind


def test_a_day_already_set_is_kept_and_pushed(year):
    prop, room_type, _standalone, _package = year
    new_day = day(HORIZON - 1)
    RoomTypeDay.objects.create(room_type=room_type, date=new_day, allotment=2, available=2)
    RoomTypeDefault.objects.create(room_type=room_type, stock=7)
    SyncState.objects.all().delete()

    horizon_open_property(prop.pk)

    assert RoomTypeDay.objects.get(room_type=room_type, date=new_day).allotment == 2
    assert marked("ari_avails", room_type.pk) == [(new_day, new_day)]


def acknowledge(target, kind, first, last):
    hub_days_record(sync_state_ensure(target, kind=kind), list(DateRange(day(first), day(last)).days()), replace=False)
    SyncState.objects.filter(kind=kind, object_id=target.pk).update(known_to_hub=True)


def test_the_check_finds_the_days_the_hub_should_hold_and_does_not(year):
    prop, room_type, standalone, package = year
    horizon_open_property(prop.pk)
    AriDirtyRange.objects.all().delete()
    acknowledge(room_type, "ari_avails", 0, HORIZON - 1)
    acknowledge(package, "ari_rates", 0, HORIZON - 1)
    acknowledge(standalone, "ari_rates", 0, 3)  # the hub missed days 4 and 5
    acknowledge(standalone, "ari_rates", 6, HORIZON - 1)

    assert hub_days_ahead(prop) == 4
    assert horizon_check_property(prop.pk) == 2

    assert marked("ari_rates", standalone.pk) == [(day(4), day(5))]
    assert marked("ari_rates", package.pk) == marked("ari_avails", room_type.pk) == []
    check = AriHorizonCheck.objects.get(property=prop)
    assert (check.held_until, check.missing_days) == (day(3), 2)


def test_the_check_of_a_hub_holding_everything_finds_nothing(year):
    prop, room_type, standalone, package = year
    horizon_open_property(prop.pk)
    AriDirtyRange.objects.all().delete()
    for target, kind in ((room_type, "ari_avails"), (standalone, "ari_rates"), (package, "ari_rates")):
        acknowledge(target, kind, 0, HORIZON - 1)

    assert horizon_check_property(prop.pk) == 0
    assert hub_days_ahead(prop) == HORIZON
    assert not AriDirtyRange.objects.exists()


def test_what_the_hub_held_before_today_is_forgotten(year):
    _prop, room_type, _standalone, _package = year
    state = sync_state_ensure(room_type, kind="ari_avails")
    hub_days_record(state, [day(-3), day(-2), day(0), day(1)], replace=False)
    hub_days_record(state, [day(2)], replace=False)

    assert [(r.date_from, r.date_to) for r in state.hub_days.all()] == [(korea_today(), day(2))]
    hub_days_record(state, [day(5)], replace=True)  # a first push: the hub held nothing else
    assert [(r.date_from, r.date_to) for r in state.hub_days.all()] == [(day(5), day(5))]
