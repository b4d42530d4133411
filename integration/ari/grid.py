"""The rates and availability grid: reading a month (or any span) of a property's room types and rate
plans in a fixed number of queries, whatever the number of rows or days; the months it can show; saving
one cell through the edits of integration.ari, refused when the cell changed since staff saw it."""

import datetime
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ..content.choices import RatePlanType
from ..sync.models import ResourceKind
from .dates import DateRange, ari_window, korea_today
from .models import AriChangeSource, ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomType, RoomTypeDay
from .selectors import HubStanding, ari_hub_standing, rate_plans_of
from .services import (
    AriEdit,
    Operation,
    ari_change_set_finish,
    ari_change_set_start,
    ari_edit_apply,
    ari_edit_lock,
    ari_edit_plan,
    ari_edit_validate,
)

SATURDAY, SUNDAY = 5, 6


# --- Months -----------------------------------------------------------------------------------


def month_start(day):
    """The first day of day's month."""
    return day.replace(day=1)


def month_end(first):
    """The last day of the month that starts on first."""
    return add_months(first, 1) - datetime.timedelta(days=1)


def add_months(first, count):
    """The first day of the month count months after (or before) the month starting on first."""
    index = first.year * 12 + first.month - 1 + count
    return datetime.date(index // 12, index % 12 + 1, 1)


def grid_months(today=None):
    """The months the grid offers: from this month (Korea time) to the month of the hub window's last day."""
    first, last = ari_window(today)
    months, month = [], month_start(first)
    while month <= last:
        months.append(month)
        month = add_months(month, 1)
    return months


def grid_month(value, today=None):
    """The month a ?month=YYYY-MM parameter asks for, kept within grid_months (this month when absent or
    unreadable)."""
    months = grid_months(today)
    try:
        year, month = (int(part) for part in (value or "").split("-"))
        wanted = datetime.date(year, month, 1)
    except ValueError:
        return months[0]
    return min(max(wanted, months[0]), months[-1])


# --- The grid ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridDay:
    """A column of the grid: one date, whether it is a weekend day or today, and whether the hub takes it."""

    date: datetime.date
    today: bool
    editable: bool

    @property
    def saturday(self):
        return self.date.weekday() == SATURDAY

    @property
    def sunday(self):
        return self.date.weekday() == SUNDAY

    @property
    def weekend(self):
        return self.date.weekday() in (SATURDAY, SUNDAY)


@dataclass
class AvailCell:
    """A room type's stock on one day (all None when nothing was ever set), and with a channel its cap."""

    room_type: RoomType
    day: GridDay
    allotment: int | None = None
    held: int = 0
    taken: int = 0
    available: int | None = None
    cap: int | None = None
    #: Changed since the hub last took this day (ari_grid_hub).
    unsent: bool = False

    @property
    def booked(self):
        return self.held + self.taken

    @property
    def channel_sells(self):
        """What the channel may sell: what is left, or less under a cap."""
        if self.available is None:
            return None
        return self.available if self.cap is None else min(self.cap, self.available)


@dataclass
class RateCell:
    """A rate plan's values on one day. stored is what the database holds (the rate of a standalone plan,
    the difference of a package plan); base is the standalone plan's rate that day; override is the
    channel's stored value (None: it sells at the common value)."""

    rate_plan: object
    day: GridDay
    package: bool
    stored: int | None = None
    business_day: bool | None = None
    base: int | None = None
    override: int | None = None
    #: Changed since the hub last took this day (ari_grid_hub).
    unsent: bool = False

    @property
    def price(self):
        """The price guests pay with the common values: a package adds its difference to the base."""
        return self._price(self.stored)

    @property
    def override_price(self):
        """The price on the channel, where it has a value of its own."""
        return self._price(self.override)

    @property
    def open(self):
        """Days without a row sell (the database default)."""
        return self.business_day is not False

    def _price(self, stored):
        if stored is None:
            return None
        if not self.package:
            return stored
        return None if self.base is None else self.base + stored


@dataclass
class GridRatePlan:
    """A rate plan's row."""

    rate_plan: object
    package: bool
    cells: list = field(default_factory=list)
    #: Where its rates stand with the hub (ari_grid_hub).
    hub: HubStanding = field(default_factory=HubStanding)


@dataclass
class GridRoomType:
    """A room type's rows: its availability, then its rate plans (standalone first)."""

    room_type: RoomType
    avail_cells: list = field(default_factory=list)
    rate_plans: list = field(default_factory=list)
    #: Where its availability stands with the hub (ari_grid_hub).
    hub: HubStanding = field(default_factory=HubStanding)


@dataclass
class AriGrid:
    """Days first..last of a property's room types and rate plans; with a channel, its overrides and caps."""

    property: object
    first: datetime.date
    last: datetime.date
    days: list
    room_types: list
    channel: object = None


def ari_grid_read(prop, *, first, last, channel=None, room_type_ids=None, today=None):
    """The grid of prop from first to last (both included), optionally only some room types.

    Reads the room types, the rate plans and each table of day values once for the whole span: six
    queries at most (four without a channel), however many room types, rate plans and days.
    """
    today = today or korea_today()
    window_first, window_last = ari_window(today)
    days = []
    day = first
    while day <= last:
        days.append(GridDay(day, today=day == today, editable=window_first <= day <= window_last))
        day += datetime.timedelta(days=1)

    room_types = RoomType.objects.filter(property=prop).prefetch_related("translations").order_by("name", "pk")
    if room_type_ids is not None:
        room_types = room_types.filter(pk__in=room_type_ids)
    blocks = {room_type.pk: GridRoomType(room_type) for room_type in room_types}
    for room_type in (block.room_type for block in blocks.values()):
        room_type.property = prop
    plans = [plan for plan in rate_plans_of(prop) if plan.room_type_id in blocks]

    span = {"date__gte": first, "date__lte": last}
    rate_days = {
        (plan_id, date): (rate, modify, business_day)
        for plan_id, date, rate, modify, business_day in RatePlanDay.objects.filter(
            rate_plan__property=prop, rate_plan__room_type__in=list(blocks), **span
        ).values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day")
    }
    stock = {
        (room_type_id, date): values
        for room_type_id, date, *values in RoomTypeDay.objects.filter(room_type__in=list(blocks), **span).values_list(
            "room_type_id", "date", "allotment", "held", "taken", "available"
        )
    }
    overrides, caps = {}, {}
    if channel is not None:
        overrides = {
            (plan_id, date): rate if rate is not None else modify
            for plan_id, date, rate, modify in ChannelRateDay.objects.filter(
                channel=channel, rate_plan__property=prop, rate_plan__room_type__in=list(blocks), **span
            ).values_list("rate_plan_id", "date", "rate", "rate_modify")
        }
        caps = {
            (room_type_id, date): cap
            for room_type_id, date, cap in ChannelAvailDay.objects.filter(
                channel=channel, room_type__in=list(blocks), **span
            ).values_list("room_type_id", "date", "cap")
        }

    standalone_of = {plan.room_type_id: plan.pk for plan in plans if plan.model.type == RatePlanType.STANDALONE}
    for block in blocks.values():
        room_type = block.room_type
        for grid_day in days:
            cell = AvailCell(room_type, grid_day, cap=caps.get((room_type.pk, grid_day.date)))
            values = stock.get((room_type.pk, grid_day.date))
            if values:
                cell.allotment, cell.held, cell.taken, cell.available = values
            block.avail_cells.append(cell)
    for plan in plans:
        package = plan.model.type == RatePlanType.PACKAGE
        row = GridRatePlan(plan, package)
        standalone = standalone_of.get(plan.room_type_id)
        for grid_day in days:
            rate, modify, business_day = rate_days.get((plan.pk, grid_day.date), (None, None, None))
            base = rate_days.get((standalone, grid_day.date), (None,))[0] if package else None
            row.cells.append(
                RateCell(
                    plan,
                    grid_day,
                    package,
                    stored=modify if package else rate,
                    business_day=business_day,
                    base=base,
                    override=overrides.get((plan.pk, grid_day.date)),
                )
            )
        blocks[plan.room_type_id].rate_plans.append(row)
    return AriGrid(prop, first, last, days, list(blocks.values()), channel)


def ari_grid_hub(grid):
    """Mark where each row of grid stands with the hub and which of its days the hub does not have yet
    (two queries, ari_hub_standing); returns the standing read, by (kind, object id)."""
    standing = ari_hub_standing(grid.property, first=grid.first, last=grid.last)
    for block in grid.room_types:
        block.hub = standing.get((ResourceKind.ARI_AVAILS, block.room_type.pk), HubStanding())
        for cell in block.avail_cells:
            cell.unsent = block.hub.unsent_on(cell.day.date)
        for row in block.rate_plans:
            row.hub = standing.get((ResourceKind.ARI_RATES, row.rate_plan.pk), HubStanding())
            for cell in row.cells:
                cell.unsent = row.hub.unsent_on(cell.day.date)
    return standing


# --- One cell of the grid ---------------------------------------------------------------------


@dataclass(frozen=True)
class CellSeen:
    """What a cell of the grid showed when staff opened it: its value (a package: the price guests pay; a
    channel: its own value) and, for a common rate, whether the day sold."""

    value: int | None
    open: bool | None = None


class AriCellStale(ValidationError):
    """The cell no longer holds what staff saw: now is what it holds."""

    def __init__(self, message, *, now):
        super().__init__(message, code="stale")
        self.now = now


def ari_cell_seen(target, day, *, channel=None):
    """What the grid shows in target's cell on day (CellSeen), read as the grid reads it."""
    room_type_id = target.pk if isinstance(target, RoomType) else target.room_type_id
    grid = ari_grid_read(target.property, first=day, last=day, channel=channel, room_type_ids=[room_type_id])
    (block,) = grid.room_types
    if isinstance(target, RoomType):
        cell = block.avail_cells[0]
        return CellSeen(cell.allotment if channel is None else cell.cap)
    (cell,) = [row.cells[0] for row in block.rate_plans if row.rate_plan.pk == target.pk]
    if channel is not None:
        return CellSeen(cell.override_price)
    return CellSeen(cell.price, cell.open)


@transaction.atomic
def ari_cell_save(*, target, day, value, business_day=None, channel=None, user=None, seen=None, confirmed=False):
    """Save one cell of the grid as one-day edits of integration.ari, together or not at all, recorded as
    one change (a grid cell edit by user).

    target is a RatePlan (value: the rate, for a package the price guests pay; business_day: True, False
    or None to leave it) or a RoomType (value: the rooms to sell). With a channel, value is the channel's
    own rate or cap, and None clears it. seen (CellSeen) is what the cell showed: when the cell holds
    something else now, nothing is saved and AriCellStale says what it holds. Rooms to sell far above the
    room type's rooms need confirmed. Raises ValidationError with the message to show on the cell (code
    "confirm" when confirming would save it).
    """
    ranges = (DateRange(day, day),)
    availability = isinstance(target, RoomType)
    if seen is not None:
        room_type = target if availability else target.room_type
        ari_edit_lock(AriEdit(ranges, Operation.SET, room_types=(room_type,), channel=channel), [day])
        now = ari_cell_seen(target, day, channel=channel)
        if now != seen:
            raise AriCellStale(_stale_message(now), now=now)
    if channel is not None and value is None:
        targets = {"room_types": (target,)} if availability else {"rate_plans": (target,)}
        edits = [AriEdit(ranges, Operation.CLEAR_CHANNEL, None, channel=channel, **targets)]
    elif availability:
        edits = [
            AriEdit(
                ranges, Operation.SET_AVAILABILITY, value, room_types=(target,), channel=channel, confirmed=confirmed
            )
        ]
    else:
        edits = []
        if value is not None:
            edits.append(AriEdit(ranges, Operation.SET, value, rate_plans=(target,), channel=channel))
        elif business_day is None or _has_rate(target, day):
            # A common rate is never removed (the hub has no "no rate"): closing the day stops the sale.
            raise ValidationError(_("Give a rate of 0 or more; to stop selling the day, close it."))
        if business_day is not None and channel is None:
            operation = Operation.OPEN if business_day else Operation.CLOSE
            edits.append(AriEdit(ranges, operation, None, rate_plans=(target,)))
    change_set = ari_change_set_start(prop=target.property, source=AriChangeSource.CELL, user=user)
    plans = []
    for edit in edits:
        errors = ari_edit_validate(edit)
        if "confirm" in errors:
            raise ValidationError(errors["confirm"], code="confirm")
        if errors:
            raise ValidationError(list(errors.values()))
        # The cell's own reason (ari_edit_apply would prefix it with the date the cell already shows).
        refused = ari_edit_plan(edit).errors
        if refused:
            raise ValidationError([change.error for change in refused])
        plans.append(ari_edit_apply(edit, change_set=change_set))
    ari_change_set_finish(change_set)
    return plans


def _stale_message(now):
    shown = "—" if now.value is None else f"{now.value:,}"
    if now.open is False:
        shown = _("%(value)s, closed for sale") % {"value": shown}
    return _("Someone changed this cell after you opened it: it now holds %(value)s. Check it, then save again.") % {
        "value": shown
    }


def _has_rate(rate_plan, day):
    return RatePlanDay.objects.filter(
        Q(rate__isnull=False) | Q(rate_modify__isnull=False), rate_plan=rate_plan, date=day
    ).exists()
