"""Edits of rates, business days and availability: one cell or many (bulk), their preview, the check
that nobody changed the cells since that preview, the history of every cell they change (one change set
per screen action), and the dirty ranges that the sync to the hub picks up."""

import datetime
import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.transactions import retried_on_conflict

from ..content.choices import RatePlanType
from ..content.models import RatePlan, RoomType
from ..sync.models import ResourceKind
from ..sync.services.outbox import sync_state_bump_statement, sync_state_bumped, sync_state_changed, sync_state_ensure
from .dates import ari_window, merge_ranges, ranges_of
from .models import (
    AriCellChange,
    AriChangeSet,
    AriChangeSource,
    AriDirtyRange,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
)
from .selectors import standalone_rates

#: The highest rate, price or room count an edit may set (KRW or rooms); far above any real one.
MAX_RATE = 1_000_000_000


def availability_far_above(room_type, rooms):
    """Whether rooms to sell is so far above what room_type has that staff must confirm it: more than its
    number of rooms (when that is known). The one place that says what "far above" means."""
    return rooms is not None and room_type.room_count is not None and rooms > room_type.room_count


# --- Edits ------------------------------------------------------------------------------------


class Operation:
    """What a bulk edit does to each cell it selects."""

    SET = "set"
    INCREASE_AMOUNT = "increase_amount"
    DECREASE_AMOUNT = "decrease_amount"
    INCREASE_PERCENT = "increase_percent"
    DECREASE_PERCENT = "decrease_percent"
    OPEN = "open"
    CLOSE = "close"
    SET_AVAILABILITY = "set_availability"
    #: A channel's own rates and caps removed: it sells at the common values again.
    CLEAR_CHANNEL = "clear_channel"

    RATE_OPERATIONS = (SET, INCREASE_AMOUNT, DECREASE_AMOUNT, INCREASE_PERCENT, DECREASE_PERCENT)
    ALL = (*RATE_OPERATIONS, OPEN, CLOSE, SET_AVAILABILITY, CLEAR_CHANNEL)


@dataclass(frozen=True)
class AriEdit:
    """One change to many cells: days (ranges, narrowed to weekdays, 0 = Monday), targets (rate plans
    for rate, open and close; room types for availability), an operation and its value. With a channel
    it changes that channel's rate override or availability cap instead of the common values. confirmed:
    staff confirmed rooms to sell far above a room type's number of rooms (availability_far_above)."""

    ranges: tuple
    operation: str
    value: int | None = None
    rate_plans: tuple = ()
    room_types: tuple = ()
    weekdays: frozenset | None = None
    channel: object = None
    confirmed: bool = False

    def dates(self):
        """Every selected day, in order."""
        return [
            day
            for date_range in merge_ranges(self.ranges)
            for day in date_range.days()
            if self.weekdays is None or day.weekday() in self.weekdays
        ]


@dataclass
class CellChange:
    """One cell before and after an edit; error says why the edit cannot apply to it."""

    target: object
    date: datetime.date
    field: str
    old: object
    new: object
    error: str = ""


@dataclass
class AriPlan:
    """What an edit would change, and the hub requests it would cause (one per rate plan or room type)."""

    changes: list = field(default_factory=list)

    @property
    def errors(self):
        return [change for change in self.changes if change.error]

    @property
    def changed(self):
        return [change for change in self.changes if not change.error and change.old != change.new]

    @property
    def hub_requests(self):
        """(target, number of days) for each rate plan or room type whose values change."""
        return list(Counter(change.target for change in self.changed).items())

    def fingerprint(self):
        """A digest of every cell's current and new value: what a preview showed. The apply compares it
        with the preview's, so that it never writes over what someone changed after that preview."""
        cells = sorted(
            (type(c.target).__name__, c.target.pk, c.date.isoformat(), c.field, c.old, c.new, bool(c.error))
            for c in self.changes
        )
        return hashlib.sha256(json.dumps(cells).encode()).hexdigest()


@dataclass(frozen=True)
class DerivedPrice:
    """A package plan's price on one day that follows its standalone rate: what guests pay now and after
    the edit (None: the standalone plan has no rate that day yet)."""

    rate_plan_id: int
    date: datetime.date
    difference: int
    before: int | None
    after: int | None


def ari_derived_prices(plan, *, channel=None):
    """The package prices that move with the standalone rates plan changes, in one query: the packages of
    the same room types and days that keep their difference (those the edit itself prices are its cells).
    A channel's own standalone rates move no package price (they stand on the common rate)."""
    if channel is not None:
        return []
    moves = {(c.target.room_type_id, c.date): (c.old, c.new) for c in plan.changed if c.field == "rate"}
    if not moves:
        return []
    priced = {c.target.pk for c in plan.changes if c.field == "rate_modify"}
    dates = [day for _room_type, day in moves]
    rows = (
        RatePlanDay.objects.filter(
            rate_plan__room_type__in={room_type for room_type, _day in moves},
            rate_plan__model__type=RatePlanType.PACKAGE,
            date__gte=min(dates),
            date__lte=max(dates),
            rate_modify__isnull=False,
        )
        .exclude(rate_plan__in=priced)
        .order_by("date", "rate_plan_id")
        .values_list("rate_plan_id", "rate_plan__room_type_id", "date", "rate_modify")
    )
    derived = []
    for plan_id, room_type_id, day, difference in rows:
        move = moves.get((room_type_id, day))
        if move is None:
            continue
        assert difference is not None  # the query keeps only packages with a difference
        before, after = (None if base is None else base + difference for base in move)
        derived.append(DerivedPrice(plan_id, day, difference, before, after))
    return derived


class AriStale(Exception):
    """The cells no longer hold the values the preview showed: plan is what the edit would do now."""

    def __init__(self, plan):
        super().__init__("The cells changed since the preview.")
        self.plan = plan


def ari_edit_validate(edit):
    """Field errors of the edit itself (not of its cells), as a dict for a form."""
    errors = {}
    if edit.operation not in Operation.ALL:
        errors["operation"] = _("Choose an operation.")
    if not edit.ranges:
        errors["ranges"] = _("Choose at least one range of days.")
    for date_range in edit.ranges:
        if date_range.start > date_range.end:
            errors["ranges"] = _("A range must not end before it starts.")
    first, last = ari_window()
    if any(r.start < first or r.end > last for r in edit.ranges):
        errors["ranges"] = _("The hub takes dates from today (Korea time) to %(last)s.") % {"last": last}
    needs_value = edit.operation in (*Operation.RATE_OPERATIONS, Operation.SET_AVAILABILITY)
    if needs_value and (edit.value is None or edit.value < 0):
        errors["value"] = _("Give an amount of 0 or more.")
    elif needs_value and edit.value > MAX_RATE:
        errors["value"] = _("Give an amount of at most %(max)s.") % {"max": f"{MAX_RATE:,}"}
    if edit.operation == Operation.CLEAR_CHANNEL:
        if edit.channel is None:
            errors["channel"] = _("Choose the channel whose own values to clear.")
        if not edit.rate_plans and not edit.room_types:
            errors["rate_plans"] = _("Choose the rows whose channel values to clear.")
    elif edit.operation == Operation.SET_AVAILABILITY and not edit.room_types:
        errors["room_types"] = _("Choose the room types whose availability to set.")
    elif edit.operation != Operation.SET_AVAILABILITY and not edit.rate_plans:
        errors["rate_plans"] = _("Choose the rate plans to change.")
    if edit.channel is not None and edit.operation in (Operation.OPEN, Operation.CLOSE):
        errors["operation"] = _("Days open and close for every channel at once; choose no channel.")
    if edit.weekdays is not None and not edit.weekdays:
        errors["weekdays"] = _("Choose at least one weekday.")
    if edit.operation == Operation.SET_AVAILABILITY and edit.channel is None and not edit.confirmed:
        high = [room_type for room_type in edit.room_types if availability_far_above(room_type, edit.value)]
        if high:
            errors["confirm"] = _(
                "%(value)s rooms to sell is more than %(room_type)s has (%(count)s rooms): confirm to sell that many."
            ) % {"value": edit.value, "room_type": high[0].name, "count": high[0].room_count}
    if errors:
        return errors
    if not edit.dates():
        errors["weekdays"] = _("No day of the ranges falls on the chosen weekdays.")
    return errors


def ari_edit_plan(edit):
    """The cells the edit changes, old and new value, with an error on each cell it cannot change."""
    dates = edit.dates()
    if edit.operation == Operation.CLEAR_CHANNEL:
        return AriPlan(_clear_changes(edit, dates))
    if edit.operation == Operation.SET_AVAILABILITY:
        return AriPlan(_availability_changes(edit, dates))
    return AriPlan(_rate_changes(edit, dates))


@transaction.atomic
def ari_edit_apply(edit, *, change_set=None, expected=None):
    """Apply the edit as one change: every cell or none. Raises ValidationError naming the first bad
    cells when any cell cannot change, and AriStale when expected (the fingerprint of the plan a preview
    showed) no longer matches the cells. Records each changed cell in change_set (a change of its own
    when None) and marks what changed for the hub, in the same transaction."""
    if expected is not None:
        ari_edit_lock(edit, edit.dates())
    plan = ari_edit_plan(edit)
    if expected is not None and plan.fingerprint() != expected:
        raise AriStale(plan)
    if plan.errors:
        raise ValidationError([f"{change.date}: {change.error}" for change in plan.errors[:10]])
    if edit.operation == Operation.CLEAR_CHANNEL:
        _write_clear(edit, plan.changed)
    elif edit.operation == Operation.SET_AVAILABILITY:
        _write_availability(edit, plan.changed)
    else:
        _write_rates(edit, plan.changed)
    own = change_set is None
    if own:
        target = (edit.rate_plans or edit.room_types)[0]
        change_set = AriChangeSet.objects.create(property_id=target.property_id, source=AriChangeSource.PROGRAM)
    _record(change_set, edit.channel, plan.changed)
    if own:
        ari_change_set_finish(change_set)
    for target, dates in _dates_by_target(plan.changed).items():
        kind = ResourceKind.ARI_AVAILS if isinstance(target, RoomType) else ResourceKind.ARI_RATES
        ari_mark_dirty(target, kind=kind, dates=dates)
    return plan


@retried_on_conflict
@transaction.atomic
def ari_change_apply(*, prop, edit, source, user=None, expected=None):
    """Apply edit (see ari_edit_apply, expected included) as one change of prop that user made through
    source. Returns the plan and the change (None when no cell changed)."""
    change_set = ari_change_set_start(prop=prop, source=source, user=user)
    plan = ari_edit_apply(edit, change_set=change_set, expected=expected)
    return plan, ari_change_set_finish(change_set)


def ari_change_set_start(*, prop, source, user=None, description="", undo_of=None):
    """A new change of prop's rates and availability that the edits applied with it record their cells
    in. Call inside the transaction of the edits, then ari_change_set_finish."""
    return AriChangeSet.objects.create(
        property=prop,
        source=source,
        user=user if user is not None and user.is_authenticated else None,
        description=description[:300],
        undo_of=undo_of,
    )


def ari_change_set_finish(change_set):
    """Drop the change when its edits changed no cell (a value saved as it was); else return it."""
    if change_set.cell_count == 0:
        change_set.delete()
        return None
    return change_set


def _record(change_set, channel, changes):
    """One history row per changed cell: bounded, written in one statement per thousand cells."""
    channel_id = channel.pk if channel is not None else None
    rows = [
        AriCellChange(
            change_set_id=change_set.pk,
            channel_id=channel_id,
            date=change.date,
            field=change.field,
            old=None if change.old is None else int(change.old),
            new=None if change.new is None else int(change.new),
            **{"room_type_id" if isinstance(change.target, RoomType) else "rate_plan_id": change.target.pk},
        )
        for change in changes
    ]
    AriCellChange.objects.bulk_create(rows, batch_size=1000)
    change_set.cell_count += len(rows)
    AriChangeSet.objects.filter(pk=change_set.pk).update(cell_count=change_set.cell_count)


def ari_edit_lock(edit, dates):
    """Lock the stored cells an edit reads (with the standalone rates that package prices stand on) until
    its transaction ends, so that the check against the preview and the write see the same values.
    Each table's rows are locked in the order of their own key columns (room type days by room type, then
    date, as bookings take them), and only its own rows: a join of the default ordering would lock the
    room type and property rows too (bookings of the property would wait on them)."""
    room_types = {room_type.pk for room_type in edit.room_types} | {plan.room_type_id for plan in edit.rate_plans}
    span = {"date__in": dates}
    locks = [
        RatePlanDay.objects.filter(rate_plan__room_type__in=room_types, **span).order_by("rate_plan_id", "date"),
        RoomTypeDay.objects.filter(room_type__in=room_types, **span).order_by("room_type_id", "date"),
    ]
    if edit.channel is not None:
        locks.append(
            ChannelRateDay.objects.filter(channel=edit.channel, rate_plan__room_type__in=room_types, **span).order_by(
                "rate_plan_id", "date"
            )
        )
        locks.append(
            ChannelAvailDay.objects.filter(channel=edit.channel, room_type__in=room_types, **span).order_by(
                "room_type_id", "date"
            )
        )
    for queryset in locks:
        list(queryset.select_for_update(of=("self",)).values_list("pk", flat=True))


def ari_mark_dirty(target, *, kind, dates, along=None):
    """Record that the hub must get these days of target (a rate plan's rates or a room type's
    availability) again, and queue the push. Call inside the transaction of the change. along: a
    statement of the change itself (SQL, params) to run first, in the same round trip where the
    database allows it (every booking's hold: its nights' update)."""
    ranges = ranges_of(dates)
    if ranges and _dirty_ranges_add(kind, target.pk, ranges, along):
        return
    if along is not None and not ranges:
        with connection.cursor() as cursor:
            cursor.execute(*along)
    # The target's first change: its outbox row is created first.
    state = sync_state_ensure(target, kind=kind)
    AriDirtyRange.objects.bulk_create(AriDirtyRange(state=state, date_from=r.start, date_to=r.end) for r in ranges)
    sync_state_changed(state)


def ari_channel_opened(prop, channel):
    """Queue for the hub the property's own rates and caps for channel within the window: only an open
    channel's values are pushed (push), so those set or kept while it was not open waited for it. Call
    in the transaction that records the channel as open."""
    first, last = ari_window()
    for days, target, model, kind in (
        (ChannelRateDay, "rate_plan", RatePlan, ResourceKind.ARI_RATES),
        (ChannelAvailDay, "room_type", RoomType, ResourceKind.ARI_AVAILS),
    ):
        dates = defaultdict(list)
        rows = days.objects.filter(channel=channel, date__range=(first, last), **{f"{target}__property": prop})
        for target_id, day in rows.values_list(f"{target}_id", "date"):
            dates[target_id].append(day)
        for obj in model.objects.filter(pk__in=dates):
            ari_mark_dirty(obj, kind=kind, dates=dates[obj.pk])


def _dirty_ranges_add(kind, object_id, ranges, along=None):
    """Run along (a statement of the change, or None), add the ranges to the existing outbox row of (kind,
    object_id) and mark it changed, without reading the row first (every booking's hold runs this);
    False when there is no such row (along run all the same, nothing else done). On PostgreSQL one
    statement (along and the ranges' insert in a WITH of the row's update), elsewhere up to three."""
    ops = connection.ops
    bump, bump_params = sync_state_bump_statement("kind = %s AND object_id = %s", [kind, object_id])
    dates = []
    for r in ranges:
        dates += [ops.adapt_datefield_value(r.start), ops.adapt_datefield_value(r.end)]
    insert = f"INSERT INTO {AriDirtyRange._meta.db_table} (state_id, date_from, date_to)"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            change, change_params = (f"change AS ({along[0]}), ", along[1]) if along else ("", [])
            rows = " UNION ALL ".join("SELECT id, %s::date, %s::date FROM state" for _ in ranges)
            cursor.execute(
                f"WITH {change}state AS ({bump}), added AS ({insert} {rows}) SELECT id, claimed FROM state",  # noqa: S608
                [*change_params, *bump_params, *dates],
            )
            found = cursor.fetchone()
        else:
            if along:
                cursor.execute(*along)
            cursor.execute(bump, bump_params)
            found = cursor.fetchone()
            if found is not None:
                rows = " UNION ALL ".join(f"SELECT {found[0]:d}, %s, %s" for _ in ranges)
                cursor.execute(f"{insert} {rows}", dates)
    if found is None:
        return False
    sync_state_bumped(found[0], claimed=found[1])
    return True


def _dates_by_target(changes):
    dates = defaultdict(list)
    for change in changes:
        dates[change.target].append(change.date)
    return dates


def _rate_changes(edit, dates):
    # Standalone plans first: a package in the same edit is priced against its standalone's new rate.
    plans = sorted(edit.rate_plans, key=lambda plan: plan.model.type != RatePlanType.STANDALONE)
    base_before = standalone_rates({plan.room_type_id for plan in plans}, min(dates), max(dates)) if dates else {}
    base_after = dict(base_before)
    changes = []
    existing: dict[tuple[int, datetime.date], RatePlanDay | ChannelRateDay]
    if edit.channel is None:
        existing = {
            (day.rate_plan_id, day.date): day for day in RatePlanDay.objects.filter(rate_plan__in=plans, date__in=dates)
        }
    else:
        existing = {
            (day.rate_plan_id, day.date): day
            for day in ChannelRateDay.objects.filter(rate_plan__in=plans, date__in=dates, channel=edit.channel)
        }
    for plan in plans:
        package = plan.model.type == RatePlanType.PACKAGE
        field_name = "rate_modify" if package else "rate"
        for day in dates:
            row = existing.get((plan.pk, day))
            if edit.operation in (Operation.OPEN, Operation.CLOSE):
                # Only our own days open and close (validated: no channel), so row is a RatePlanDay or None.
                old = row.business_day if isinstance(row, RatePlanDay) else None
                changes.append(CellChange(plan, day, "business_day", old, edit.operation == Operation.OPEN))
                continue
            old = getattr(row, field_name) if row else None
            key = (plan.room_type_id, day)
            change = _rate_change(edit, plan, day, field_name, old, base_before.get(key), base_after.get(key))
            if not package and edit.channel is None and not change.error:
                base_after[key] = change.new
            changes.append(change)
    return changes


def _rate_change(edit, plan, day, field_name, old, base_before, base_after):
    """The new rate (standalone) or difference (package) of one cell. A package's price is what guests
    pay (the standalone rate plus its difference): "set" sets that price, and increases and decreases
    apply to it; the difference stored is the new price less the standalone's new rate."""
    package = field_name == "rate_modify"

    def refuse(message):
        return CellChange(plan, day, field_name, old, None, message)

    if package and (base_before is None or base_after is None):
        return refuse(_("The standalone plan has no rate on this day."))
    if edit.operation == Operation.SET:
        new_price = edit.value
    else:
        if old is None:
            return refuse(_("There is no rate on this day to change."))
        price = base_before + old if package else old
        if edit.operation in (Operation.INCREASE_PERCENT, Operation.DECREASE_PERCENT):
            delta = int((Decimal(price) * edit.value / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        else:
            delta = edit.value
        sign = 1 if edit.operation in (Operation.INCREASE_AMOUNT, Operation.INCREASE_PERCENT) else -1
        new_price = price + sign * delta
    if new_price < 0:
        return refuse(_("The price would fall below 0.") if package else _("The rate would fall below 0."))
    if new_price > MAX_RATE:
        return refuse(_("The price would exceed %(max)s.") % {"max": f"{MAX_RATE:,}"})
    return CellChange(plan, day, field_name, old, new_price - base_after if package else new_price)


def _availability_changes(edit, dates):
    room_types = list(edit.room_types)
    changes = []
    if edit.channel is None:
        existing = {
            (day.room_type_id, day.date): day
            for day in RoomTypeDay.objects.filter(room_type__in=room_types, date__in=dates)
        }
        for room_type in room_types:
            for day in dates:
                row = existing.get((room_type.pk, day))
                booked = (row.held + row.taken) if row else 0
                change = CellChange(room_type, day, "allotment", row.allotment if row else None, edit.value)
                if edit.value < booked:
                    change.error = ngettext(
                        "%(count)d room is already booked on this day.",
                        "%(count)d rooms are already booked on this day.",
                        booked,
                    ) % {"count": booked}
                changes.append(change)
        return changes
    caps = {
        (day.room_type_id, day.date): day.cap
        for day in ChannelAvailDay.objects.filter(room_type__in=room_types, date__in=dates, channel=edit.channel)
    }
    return [
        CellChange(room_type, day, "cap", caps.get((room_type.pk, day)), edit.value)
        for room_type in room_types
        for day in dates
    ]


def _clear_changes(edit, dates):
    """Each of the channel's own rate overrides (of rate_plans) and caps (of room_types) on dates -> None."""
    changes = []
    stored = {
        (row.rate_plan_id, row.date): row
        for row in ChannelRateDay.objects.filter(channel=edit.channel, rate_plan__in=edit.rate_plans, date__in=dates)
    }
    for plan in edit.rate_plans:
        field_name = "rate_modify" if plan.model.type == RatePlanType.PACKAGE else "rate"
        for day in dates:
            row = stored.get((plan.pk, day))
            changes.append(CellChange(plan, day, field_name, getattr(row, field_name) if row else None, None))
    caps = {
        (row.room_type_id, row.date): row.cap
        for row in ChannelAvailDay.objects.filter(channel=edit.channel, room_type__in=edit.room_types, date__in=dates)
    }
    changes.extend(
        CellChange(room_type, day, "cap", caps.get((room_type.pk, day)), None)
        for room_type in edit.room_types
        for day in dates
    )
    return changes


def _write_clear(edit, changes):
    for target, dates in _dates_by_target(changes).items():
        if isinstance(target, RoomType):
            ChannelAvailDay.objects.filter(channel=edit.channel, room_type=target, date__in=dates).update(cap=None)
        else:
            ChannelRateDay.objects.filter(channel=edit.channel, rate_plan=target, date__in=dates).update(
                rate=None, rate_modify=None
            )


def _write_rates(edit, changes):
    if edit.channel is None:
        rows = [
            RatePlanDay(rate_plan=change.target, date=change.date, **{change.field: change.new}) for change in changes
        ]
        fields = sorted({change.field for change in changes})
        RatePlanDay.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["rate_plan", "date"], update_fields=fields, batch_size=1000
        )
        return
    channel_rows = [
        ChannelRateDay(rate_plan=change.target, channel=edit.channel, date=change.date, **{change.field: change.new})
        for change in changes
        if change.field != "business_day"
    ]
    fields = sorted({change.field for change in changes if change.field != "business_day"})
    if channel_rows:
        ChannelRateDay.objects.bulk_create(
            channel_rows,
            update_conflicts=True,
            unique_fields=["rate_plan", "channel", "date"],
            update_fields=fields,
            batch_size=1000,
        )


def _write_availability(edit, changes):
    if edit.channel is not None:
        ChannelAvailDay.objects.bulk_create(
            [
                ChannelAvailDay(room_type=change.target, channel=edit.channel, date=change.date, cap=change.new)
                for change in changes
            ],
            update_conflicts=True,
            unique_fields=["room_type", "channel", "date"],
            update_fields=["cap"],
            batch_size=1000,
        )
        return
    existing = {
        (day.room_type_id, day.date): day
        for day in RoomTypeDay.objects.select_for_update(of=("self",))
        .filter(room_type__in={change.target for change in changes}, date__in={change.date for change in changes})
        .order_by("room_type_id", "date")
    }
    new_rows, updated = [], []
    for change in changes:
        row = existing.get((change.target.pk, change.date))
        if row is None:
            new_rows.append(
                RoomTypeDay(room_type=change.target, date=change.date, allotment=change.new, available=change.new)
            )
        else:
            # Held and taken rooms stay as bookings left them; what is left follows the allotment.
            row.allotment = change.new
            row.available = change.new - row.held - row.taken
            updated.append(row)
    RoomTypeDay.objects.bulk_create(new_rows, batch_size=1000)
    RoomTypeDay.objects.bulk_update(updated, ["allotment", "available"], batch_size=1000)
