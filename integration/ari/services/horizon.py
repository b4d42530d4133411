"""A full year at the hub, always: each night the day that comes within the horizon (ARI_HORIZON_DAYS from
today, Korea time) opens from the rate plans' and room types' defaults and is pushed, and a check per
property compares the days the hub should hold with those it acknowledged, and queues what is missing."""

import datetime
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from core.dates import korea_today
from core.db.plain_sql import column_name

from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan, RoomType
from ...sync.models import ResourceKind, SyncState
from ..dates import DateRange, ranges_of
from ..models import RatePlanDay, RoomTypeDay
from ..models_avail import AriHorizonCheck, AriHubDays, RatePlanDefault, RoomTypeDefault
from .push import ari_mark_dirty

WEEK = datetime.timedelta(days=7)


def horizon_last(today: datetime.date | None = None) -> datetime.date:
    """The last day the hub must hold: ARI_HORIZON_DAYS days from today on, today included."""
    return (today or korea_today()) + datetime.timedelta(days=settings.ARI_HORIZON_DAYS - 1)


@transaction.atomic
def hub_days_record(state: SyncState, days: Sequence[datetime.date], *, replace: bool) -> None:
    """Note that the hub acknowledged days of state's rates or availability (replace: a first push, what
    it held before is another story); the ranges stay merged and begin no earlier than today. In one
    transaction: the old ranges never go without the new ones."""
    held = [] if replace else [DateRange(r.date_from, r.date_to) for r in AriHubDays.objects.filter(state=state)]
    today = korea_today()
    merged = [r for r in ranges_of([*days, *(d for r in held for d in r.days())]) if r.end >= today]
    _hub_days_replace(state.pk, [(max(r.start, today), r.end) for r in merged])


def _hub_days_replace(state_id: int, ranges: Sequence[tuple[datetime.date, datetime.date]]) -> None:
    """The row's acknowledged ranges replaced by ranges, in two plain statements (every rates and
    availability send runs them; the ORM's delete and bulk_create cost more CPU than the database spends)."""
    quote = connection.ops.quote_name
    table = quote(AriHubDays._meta.db_table)
    column = {field.name: quote(column_name(field)) for field in AriHubDays._meta.concrete_fields}
    adapt = connection.ops.adapt_datefield_value
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE {column['state']} = %s", [state_id])  # noqa: S608
        if ranges:
            cursor.execute(
                f"INSERT INTO {table} ({column['state']}, {column['date_from']}, {column['date_to']}) VALUES"
                + ", ".join(["(%s, %s, %s)"] * len(ranges)),
                [value for first, last in ranges for value in (state_id, *map(adapt, (first, last)))],
            )


# --- Opening the new day ---------------------------------------------------------------------


def _rate_field(plan: RatePlan) -> str:
    return "rate_modify" if plan.model.type == RatePlanType.PACKAGE else "rate"


def _rate_plan_day(plan: RatePlan, day: datetime.date, *, default: RatePlanDefault | None) -> RatePlanDay | None:
    """A rate plan's new day from its default (as the same weekday last week when it has none); None when
    the default gives no value."""
    field_name = _rate_field(plan)
    if default is not None and default.mode == RatePlanDefault.Mode.WEEKDAY:
        value = default.weekday_value(day.weekday())
        return None if value is None else RatePlanDay(rate_plan=plan, date=day, **{field_name: value})
    last_week = RatePlanDay.objects.filter(rate_plan=plan, date=day - WEEK).first()
    if last_week is None:
        return None
    return RatePlanDay(
        rate_plan=plan,
        date=day,
        business_day=last_week.business_day,
        **{field_name: getattr(last_week, field_name)},
    )


def _room_type_day(room_type: RoomType, day: datetime.date, *, default: RoomTypeDefault | None) -> RoomTypeDay | None:
    """A room type's new day: its default stock (the same weekday last week's when it has none)."""
    if default is not None:
        stock = default.stock
    else:
        last_week = RoomTypeDay.objects.filter(room_type=room_type, date=day - WEEK).first()
        if last_week is None:
            return None
        stock = last_week.allotment
    return RoomTypeDay(room_type=room_type, date=day, allotment=stock, available=stock)


def _open_days(
    days: Iterable[datetime.date],
    existing: set[datetime.date],
    make: Callable[[datetime.date], RatePlanDay | RoomTypeDay | None],
) -> list[datetime.date]:
    """Create the days not in existing, in date order (a new day may copy one made a week before)."""
    made = []
    for day in sorted(days):
        if day in existing:
            continue
        row = make(day)
        if row is not None:
            row.save()
            made.append(day)
    return made


def _open_rate_plan(plan: RatePlan, days: list[datetime.date]) -> bool:
    """Open a rate plan's days and mark the last and those made dirty; False when it has nothing to push."""
    default = getattr(plan, "horizon_default", None)
    has = RatePlanDay.objects.filter(rate_plan=plan, date__range=(days[0], days[-1]))
    has = has.filter(**{f"{_rate_field(plan)}__isnull": False})
    made = _open_days(days, set(has.values_list("date", flat=True)), partial(_rate_plan_day, plan, default=default))
    if not made and not has.filter(date=days[-1]).exists():
        return False
    ari_mark_dirty(plan, kind=ResourceKind.ARI_RATES, dates={days[-1], *made})
    return True


def _open_room_type(room_type: RoomType, days: list[datetime.date]) -> bool:
    """The same for a room type's stock."""
    default = getattr(room_type, "horizon_default", None)
    has = RoomTypeDay.objects.filter(room_type=room_type, date__range=(days[0], days[-1]))
    made = _open_days(
        days, set(has.values_list("date", flat=True)), partial(_room_type_day, room_type, default=default)
    )
    if not made and not has.filter(date=days[-1]).exists():
        return False
    ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates={days[-1], *made})
    return True


@transaction.atomic
def horizon_open_property(property_id: int, *, today: datetime.date | None = None) -> int:
    """Open a property's horizon up to its last day: the days without values get them from the defaults,
    and the last day (the one that came within the horizon tonight) and every day made go to the hub.
    Returns how many rate plans and room types got days to push."""
    today = today or korea_today()
    days = list(DateRange(today, horizon_last(today)).days())
    plans = RatePlan.objects.filter(property_id=property_id).select_related("model", "property", "horizon_default")
    room_types = RoomType.objects.filter(property_id=property_id).select_related("property", "horizon_default")
    return sum(_open_rate_plan(plan, days) for plan in plans) + sum(
        _open_room_type(room_type, days) for room_type in room_types
    )


# --- The check -------------------------------------------------------------------------------


def _expected_days(prop: Property, first: datetime.date, last: datetime.date) -> dict[tuple[str, int], set]:
    """The days the hub should hold, per (kind, object id): those with a value."""
    expected: dict[tuple[str, int], set] = {}
    has_value = Q(rate_plan__model__type=RatePlanType.STANDALONE, rate__isnull=False) | Q(
        rate_plan__model__type=RatePlanType.PACKAGE, rate_modify__isnull=False
    )
    rates = RatePlanDay.objects.filter(has_value, rate_plan__property=prop, date__range=(first, last))
    for plan_id, day in rates.values_list("rate_plan_id", "date"):
        expected.setdefault((ResourceKind.ARI_RATES, plan_id), set()).add(day)
    avails = RoomTypeDay.objects.filter(room_type__property=prop, date__range=(first, last))
    for room_type_id, day in avails.values_list("room_type_id", "date"):
        expected.setdefault((ResourceKind.ARI_AVAILS, room_type_id), set()).add(day)
    return expected


def _held_days(prop: Property) -> dict[tuple[str, int], set]:
    """The days the hub acknowledged, per (kind, object id), of the resources it knows."""
    held: dict[tuple[str, int], set] = {}
    rows = AriHubDays.objects.filter(state__property=prop, state__known_to_hub=True).values_list(
        "state__kind", "state__object_id", "date_from", "date_to"
    )
    for kind, object_id, start, end in rows:
        held.setdefault((kind, object_id), set()).update(DateRange(start, end).days())
    return held


def hub_held_until(prop: Property, *, today: datetime.date | None = None) -> datetime.date | None:
    """The last day up to which the hub holds every rate plan's rates and room type's availability of prop
    without a gap from today (None: not even today; a property with nothing to sell holds nothing)."""
    today = today or korea_today()
    expected = _expected_days(prop, today, horizon_last(today))
    held = _held_days(prop)
    if not expected:
        return None
    until = None
    for key in expected:
        days = held.get(key, set())
        day = today
        while day in days:
            day += datetime.timedelta(days=1)
        end = day - datetime.timedelta(days=1)
        until = end if until is None else min(until, end)
    return until if until is not None and until >= today else None


def hub_days_ahead(prop: Property, *, today: datetime.date | None = None) -> int:
    """How many days from today on the hub holds everything of prop."""
    today = today or korea_today()
    until = hub_held_until(prop, today=today)
    return 0 if until is None else (until - today).days + 1


@transaction.atomic
def horizon_check_property(property_id: int, *, today: datetime.date | None = None) -> int:
    """Compare the days the hub should hold (every day with a value, today to the horizon) with those it
    acknowledged; queue the missing ones again and record the result. Returns the days missing."""
    prop = Property.objects.get(pk=property_id)
    today = today or korea_today()
    expected = _expected_days(prop, today, horizon_last(today))
    held = _held_days(prop)
    missing = 0
    for (kind, object_id), days in sorted(expected.items()):
        gap = days - held.get((kind, object_id), set())
        if gap:
            missing += len(gap)
            model = RatePlan if kind == ResourceKind.ARI_RATES else RoomType
            target = model.objects.select_related("property").get(pk=object_id)
            ari_mark_dirty(target, kind=kind, dates=gap)
    AriHorizonCheck.objects.update_or_create(
        property=prop,
        defaults={
            "checked_at": timezone.now(),
            "held_until": hub_held_until(prop, today=today),
            "missing_days": missing,
        },
    )
    return missing
