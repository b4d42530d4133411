"""The edits of rates, business days and availability that every screen applies (a cell, a bulk edit, a
CSV import, an undo): what they are, their checks, and the plan of the cells they change (old and new
value, or why a cell cannot change), with the package prices that move with them."""

import datetime
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...channels.models import SalesChannel
from ...content.choices import RatePlanType
from ...content.models import RatePlan, RoomType
from ..dates import DateRange, ari_window, merge_ranges
from ..models import ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay
from ..selectors.rates import standalone_rates
from .guard import NO_GUARD, Guard, guard_refusal, guard_warning, price_guards

#: A cell's value: a rate, difference or number of rooms; a business day (open or not); None: none.
CellValue = int | bool | None
#: Who made a change: the project's user model (accounts, which integration does not import); an anonymous
#: user is recorded as nobody.
User = Any

#: The highest rate, price or room count an edit may set (KRW or rooms); far above any real one.
MAX_RATE = 1_000_000_000


def availability_far_above(room_type: RoomType, rooms: int | None) -> bool:
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
    staff confirmed rooms to sell far above a room type's number of rooms (availability_far_above), and
    prices that move more than their rate plan's guard allows without a confirmation (guard_warning)."""

    ranges: tuple[DateRange, ...]
    operation: str
    value: int | None = None
    rate_plans: tuple[RatePlan, ...] = ()
    room_types: tuple[RoomType, ...] = ()
    weekdays: frozenset[int] | None = None
    channel: SalesChannel | None = None
    confirmed: bool = False

    def dates(self) -> list[datetime.date]:
        """Every selected day, in order."""
        return [
            day
            for date_range in merge_ranges(self.ranges)
            for day in date_range.days()
            if self.weekdays is None or day.weekday() in self.weekdays
        ]


@dataclass
class CellChange:
    """One cell before and after an edit; error says why the edit cannot apply to it, warning what staff
    must confirm for it to apply (a price moving more than its guard's share)."""

    target: RatePlan | RoomType
    date: datetime.date
    field: str
    old: CellValue
    new: CellValue
    error: str = ""
    warning: str = ""


@dataclass
class AriPlan:
    """What an edit would change, and the hub requests it would cause (one per rate plan or room type)."""

    changes: list[CellChange] = field(default_factory=list)

    @property
    def errors(self) -> list[CellChange]:
        return [change for change in self.changes if change.error]

    @property
    def changed(self) -> list[CellChange]:
        return [change for change in self.changes if not change.error and change.old != change.new]

    @property
    def warnings(self) -> list[CellChange]:
        return [change for change in self.changed if change.warning]

    @property
    def hub_requests(self) -> list[tuple[RatePlan | RoomType, int]]:
        """(target, number of days) for each rate plan or room type whose values change."""
        return list(Counter(change.target for change in self.changed).items())

    def fingerprint(self) -> str:
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


def ari_derived_prices(plan: AriPlan, *, channel: SalesChannel | None = None) -> list[DerivedPrice]:
    """The package prices that move with the standalone rates plan changes, in one query: the packages of
    the same room types and days that keep their difference (those the edit itself prices are its cells).
    A channel's own standalone rates move no package price (they stand on the common rate)."""
    if channel is not None:
        return []
    moves = {(cast(RatePlan, c.target).room_type_id, c.date): (c.old, c.new) for c in plan.changed if c.field == "rate"}
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

    def __init__(self, plan: object) -> None:
        super().__init__("The cells changed since the preview.")
        self.plan = plan


def ari_edit_validate(edit: AriEdit) -> dict[str, str]:
    """Field errors of the edit itself (not of its cells), as a dict for a form."""
    errors: dict[str, str] = {}
    for check in (_operation_errors, _range_errors, _value_errors, _target_errors, _weekday_errors, _confirm_errors):
        errors.update(check(edit))
    if errors:
        return errors
    if not edit.dates():
        errors["weekdays"] = _("No day of the ranges falls on the chosen weekdays.")
    return errors


def _operation_errors(edit: AriEdit) -> dict[str, str]:
    """A known operation."""
    if edit.operation not in Operation.ALL:
        return {"operation": _("Choose an operation.")}
    return {}


def _range_errors(edit: AriEdit) -> dict[str, str]:
    """At least one range of days, none ending before it starts, all within the hub's window (the last
    problem found is the one shown)."""
    errors = {}
    if not edit.ranges:
        errors["ranges"] = _("Choose at least one range of days.")
    if any(date_range.start > date_range.end for date_range in edit.ranges):
        errors["ranges"] = _("A range must not end before it starts.")
    first, last = ari_window()
    if any(r.start < first or r.end > last for r in edit.ranges):
        errors["ranges"] = _("The hub takes dates from today (Korea time) to %(last)s.") % {"last": last}
    return errors


def _value_errors(edit: AriEdit) -> dict[str, str]:
    """An amount from 0 to MAX_RATE, for the operations that take one."""
    if edit.operation not in (*Operation.RATE_OPERATIONS, Operation.SET_AVAILABILITY):
        return {}
    if edit.value is None or edit.value < 0:
        return {"value": _("Give an amount of 0 or more.")}
    if edit.value > MAX_RATE:
        return {"value": _("Give an amount of at most %(max)s.") % {"max": f"{MAX_RATE:,}"}}
    return {}


def _target_errors(edit: AriEdit) -> dict[str, str]:
    """The rows the operation changes (and, to clear a channel's own values, the channel); open and close
    take no channel."""
    errors = {}
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
    return errors


def _weekday_errors(edit: AriEdit) -> dict[str, str]:
    """Weekdays, when chosen at all, are at least one."""
    if edit.weekdays is not None and not edit.weekdays:
        return {"weekdays": _("Choose at least one weekday.")}
    return {}


def _confirm_errors(edit: AriEdit) -> dict[str, str]:
    """Common rooms to sell far above a room type's rooms (availability_far_above) need confirmed."""
    if edit.operation != Operation.SET_AVAILABILITY or edit.channel is not None or edit.confirmed:
        return {}
    high = [room_type for room_type in edit.room_types if availability_far_above(room_type, edit.value)]
    if not high:
        return {}
    return {
        "confirm": _(
            "%(value)s rooms to sell is more than %(room_type)s has (%(count)s rooms): confirm to sell that many."
        )
        % {"value": edit.value, "room_type": high[0].name, "count": high[0].room_count}
    }


def ari_edit_plan(edit: AriEdit) -> AriPlan:
    """The cells the edit changes, old and new value, with an error on each cell it cannot change."""
    dates = edit.dates()
    if edit.operation == Operation.CLEAR_CHANNEL:
        return AriPlan(_clear_changes(edit, dates))
    if edit.operation == Operation.SET_AVAILABILITY:
        return AriPlan(_availability_changes(edit, dates))
    return AriPlan(_rate_changes(edit, dates))


def _rate_changes(edit: AriEdit, dates: list[datetime.date]) -> list[CellChange]:
    # Standalone plans first: a package in the same edit is priced against its standalone's new rate.
    plans = sorted(edit.rate_plans, key=lambda plan: plan.model.type != RatePlanType.STANDALONE)
    base_before = standalone_rates({plan.room_type_id for plan in plans}, min(dates), max(dates)) if dates else {}
    base_after: dict[tuple[int, datetime.date], int | None] = dict(base_before)
    changes = []
    guards = price_guards(plans)
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
            _guard(change, guards.get(plan.pk, NO_GUARD), base_before.get(key), base_after.get(key))
            if not package and edit.channel is None and not change.error:
                base_after[key] = cast(int, change.new)
            changes.append(change)
    return changes


def _rate_change(
    edit: AriEdit,
    plan: RatePlan,
    day: datetime.date,
    field_name: str,
    old: int | None,
    base_before: int | None,
    base_after: int | None,
) -> CellChange:
    """The new rate (standalone) or difference (package) of one cell. A package's price is what guests
    pay (the standalone rate plus its difference): "set" sets that price, and increases and decreases
    apply to it; the difference stored is the new price less the standalone's new rate."""
    package = field_name == "rate_modify"

    def refuse(message: str) -> CellChange:
        return CellChange(plan, day, field_name, old, None, message)

    if package and (base_before is None or base_after is None):
        return refuse(_("The standalone plan has no rate on this day."))
    if edit.operation != Operation.SET and old is None:
        return refuse(_("There is no rate on this day to change."))
    price = base_before + old if package and base_before is not None and old is not None else old
    new_price = _price_after(edit, price)
    if new_price < 0:
        return refuse(_("The price would fall below 0.") if package else _("The rate would fall below 0."))
    if new_price > MAX_RATE:
        return refuse(_("The price would exceed %(max)s.") % {"max": f"{MAX_RATE:,}"})
    return CellChange(
        plan, day, field_name, old, new_price - base_after if package and base_after is not None else new_price
    )


def _guard(change: CellChange, guard: Guard, base_before: int | None, base_after: int | None) -> None:
    """Refuse a cell whose new price (what guests pay) passes its rate plan's floor or ceiling, and ask to
    confirm one that moves more than the guard's share."""
    if change.error or change.new is None:
        return
    package = change.field == "rate_modify"
    old: int | None = None if change.old is None else int(change.old)
    new = int(change.new)
    if package:
        old = None if old is None or base_before is None else base_before + old
        new += base_after or 0
    change.error = guard_refusal(guard, new)
    if not change.error:
        change.warning = guard_warning(guard, old, new)


def _price_after(edit: AriEdit, price: int | None) -> int:
    """The price edit's operation gives a cell whose price is price (None only for "set")."""
    assert edit.value is not None  # validated: the rate operations take an amount
    if edit.operation == Operation.SET:
        return edit.value
    assert price is not None  # the caller refuses a cell without a rate
    if edit.operation in (Operation.INCREASE_PERCENT, Operation.DECREASE_PERCENT):
        delta = int((Decimal(price) * edit.value / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    else:
        delta = edit.value
    sign = 1 if edit.operation in (Operation.INCREASE_AMOUNT, Operation.INCREASE_PERCENT) else -1
    return price + sign * delta


def _availability_changes(edit: AriEdit, dates: list[datetime.date]) -> list[CellChange]:
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
                assert edit.value is not None  # validated: setting availability takes an amount
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


def _clear_changes(edit: AriEdit, dates: list[datetime.date]) -> list[CellChange]:
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
