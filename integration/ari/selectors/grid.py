"""The rates and availability grid: reading a month (or any span) of a property's room types and rate
plans in a fixed number of queries, whatever the number of rows or days, and what one of its cells shows
(the check of a cell saved against what staff saw)."""

import datetime
from collections.abc import Collection
from dataclasses import dataclass, field

from ...channels.models import SalesChannel
from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan
from ...sync.models import ResourceKind
from ..dates import ari_window, korea_today
from ..models import ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomType, RoomTypeDay
from .prices import price_book
from .rates import HubStanding, ari_hub_standing, rate_plans_of

SATURDAY, SUNDAY = 5, 6


# --- The grid ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridDay:
    """A column of the grid: one date, whether it is a weekend day or today, and whether the hub takes it."""

    date: datetime.date
    today: bool
    editable: bool

    @property
    def saturday(self) -> bool:
        return self.date.weekday() == SATURDAY

    @property
    def sunday(self) -> bool:
        return self.date.weekday() == SUNDAY

    @property
    def weekend(self) -> bool:
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
    def booked(self) -> int:
        return self.held + self.taken

    @property
    def channel_sells(self) -> int | None:
        """What the channel may sell: what is left, or less under a cap."""
        if self.available is None:
            return None
        return self.available if self.cap is None else min(self.cap, self.available)


@dataclass
class RateCell:
    """A rate plan's values on one day. stored is what the database holds (the rate of a standalone plan,
    the difference of a package plan); base is the standalone plan's rate that day; override is the
    channel's stored value (None: it sells at the common value)."""

    rate_plan: RatePlan
    day: GridDay
    package: bool
    stored: int | None = None
    business_day: bool | None = None
    base: int | None = None
    override: int | None = None
    #: The channel's price by its price rule, where it has no value of its own (integration.ari.selectors.prices).
    ruled: int | None = None
    #: Changed since the hub last took this day (ari_grid_hub).
    unsent: bool = False

    @property
    def price(self) -> int | None:
        """The price guests pay with the common values: a package adds its difference to the base."""
        return self._price(self.stored)

    @property
    def override_price(self) -> int | None:
        """The price on the channel, where it has a value of its own."""
        return self._price(self.override)

    @property
    def open(self) -> bool:
        """Days without a row sell (the database default)."""
        return self.business_day is not False

    def _price(self, stored: int | None) -> int | None:
        if stored is None:
            return None
        if not self.package:
            return stored
        return None if self.base is None else self.base + stored


@dataclass
class GridRatePlan:
    """A rate plan's row."""

    rate_plan: RatePlan
    package: bool
    cells: list[RateCell] = field(default_factory=list)
    #: Where its rates stand with the hub (ari_grid_hub).
    hub: HubStanding = field(default_factory=HubStanding)


@dataclass
class GridRoomType:
    """A room type's rows: its availability, then its rate plans (standalone first)."""

    room_type: RoomType
    avail_cells: list[AvailCell] = field(default_factory=list)
    rate_plans: list[GridRatePlan] = field(default_factory=list)
    #: Where its availability stands with the hub (ari_grid_hub).
    hub: HubStanding = field(default_factory=HubStanding)


@dataclass
class AriGrid:
    """Days first..last of a property's room types and rate plans; with a channel, its overrides and caps."""

    property: Property
    first: datetime.date
    last: datetime.date
    days: list[GridDay]
    room_types: list[GridRoomType]
    channel: SalesChannel | None = None


def ari_grid_read(
    prop: Property,
    *,
    first: datetime.date,
    last: datetime.date,
    channel: SalesChannel | None = None,
    room_type_ids: Collection[int] | None = None,
    today: datetime.date | None = None,
) -> AriGrid:
    """The grid of prop from first to last (both included), optionally only some room types.

    Reads the room types, the rate plans and each table of day values once for the whole span: six
    queries at most (four without a channel; with one, three more for its price rules), however many room
    types, rate plans and days.
    """
    days = _grid_days(first, last, today or korea_today())
    blocks = _room_type_blocks(prop, room_type_ids)
    plans = [plan for plan in rate_plans_of(prop) if plan.room_type_id in blocks]
    span = _Span(prop, list(blocks), first, last)
    rate_days = span.rate_days()
    stock = span.stock()
    overrides, caps = span.channel_values(channel) if channel is not None else ({}, {})
    for block in blocks.values():
        block.avail_cells = [_avail_cell(block.room_type, grid_day, stock, caps) for grid_day in days]
    standalone_of = {plan.room_type_id: plan.pk for plan in plans if plan.model.type == RatePlanType.STANDALONE}
    for plan in plans:
        row = GridRatePlan(plan, plan.model.type == RatePlanType.PACKAGE)
        standalone = standalone_of.get(plan.room_type_id)
        row.cells = [_rate_cell(row, grid_day, rate_days, overrides, standalone) for grid_day in days]
        blocks[plan.room_type_id].rate_plans.append(row)
    grid = AriGrid(prop, first, last, days, list(blocks.values()), channel)
    if channel is not None:
        grid_rule_prices(grid, channel)
    return grid


def grid_rule_prices(grid: AriGrid, channel: SalesChannel) -> None:
    """Give each standalone cell without the channel's own rate the price the channel's rule makes of it."""
    book = price_book(grid.property)
    for block in grid.room_types:
        for row in block.rate_plans:
            rule = book.rule_for(channel.pk, row.rate_plan)
            if rule is None:
                continue
            for cell in row.cells:
                if cell.override is None and cell.stored is not None:
                    cell.ruled = book.price(channel.pk, rule, cell.stored)


def _grid_days(first: datetime.date, last: datetime.date, today: datetime.date) -> list[GridDay]:
    """The columns from first to last; the hub takes the days of its window."""
    window_first, window_last = ari_window(today)
    days = []
    day = first
    while day <= last:
        days.append(GridDay(day, today=day == today, editable=window_first <= day <= window_last))
        day += datetime.timedelta(days=1)
    return days


def _room_type_blocks(prop: Property, room_type_ids: Collection[int] | None) -> dict[int, GridRoomType]:
    """{room type id: its empty rows}, by name."""
    room_types = RoomType.objects.filter(property=prop).prefetch_related("translations").order_by("name", "pk")
    if room_type_ids is not None:
        room_types = room_types.filter(pk__in=room_type_ids)
    blocks = {room_type.pk: GridRoomType(room_type) for room_type in room_types}
    for block in blocks.values():
        block.room_type.property = prop
    return blocks


#: The stored values of a rate plan's day: (rate, difference, business day).
RateDay = tuple[int | None, int | None, bool | None]
#: The stock of a room type's day: (allotment, held, taken, available).
StockDay = tuple[int, int, int, int]


@dataclass(frozen=True)
class _Span:
    """The day values of a grid's room types from first to last: one query per table."""

    property: Property
    room_type_ids: list[int]
    first: datetime.date
    last: datetime.date

    def _dates(self) -> dict[str, datetime.date]:
        return {"date__gte": self.first, "date__lte": self.last}

    def rate_days(self) -> dict[tuple[int, datetime.date], RateDay]:
        rows = RatePlanDay.objects.filter(
            rate_plan__property=self.property, rate_plan__room_type__in=self.room_type_ids, **self._dates()
        ).values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day")
        return {(plan_id, date): (rate, modify, business_day) for plan_id, date, rate, modify, business_day in rows}

    def stock(self) -> dict[tuple[int, datetime.date], StockDay]:
        rows = RoomTypeDay.objects.filter(room_type__in=self.room_type_ids, **self._dates()).values_list(
            "room_type_id", "date", "allotment", "held", "taken", "available"
        )
        return {
            (room_type_id, date): (allotment, held, taken, available)
            for room_type_id, date, allotment, held, taken, available in rows
        }

    def channel_values(
        self, channel: SalesChannel
    ) -> tuple[dict[tuple[int, datetime.date], int | None], dict[tuple[int, datetime.date], int | None]]:
        """The channel's own values: {(rate plan id, date): rate or difference}, {(room type id, date): cap}."""
        rates = ChannelRateDay.objects.filter(
            channel=channel,
            rate_plan__property=self.property,
            rate_plan__room_type__in=self.room_type_ids,
            **self._dates(),
        ).values_list("rate_plan_id", "date", "rate", "rate_modify")
        caps = ChannelAvailDay.objects.filter(
            channel=channel, room_type__in=self.room_type_ids, **self._dates()
        ).values_list("room_type_id", "date", "cap")
        return (
            {(plan_id, date): rate if rate is not None else modify for plan_id, date, rate, modify in rates},
            {(room_type_id, date): cap for room_type_id, date, cap in caps},
        )


def _avail_cell(
    room_type: RoomType,
    grid_day: GridDay,
    stock: dict[tuple[int, datetime.date], StockDay],
    caps: dict[tuple[int, datetime.date], int | None],
) -> AvailCell:
    cell = AvailCell(room_type, grid_day, cap=caps.get((room_type.pk, grid_day.date)))
    values = stock.get((room_type.pk, grid_day.date))
    if values:
        cell.allotment, cell.held, cell.taken, cell.available = values
    return cell


def _rate_cell(
    row: GridRatePlan,
    grid_day: GridDay,
    rate_days: dict[tuple[int, datetime.date], RateDay],
    overrides: dict[tuple[int, datetime.date], int | None],
    standalone: int | None,
) -> RateCell:
    plan = row.rate_plan
    rate, modify, business_day = rate_days.get((plan.pk, grid_day.date), (None, None, None))
    base = None
    if row.package and standalone is not None:
        base = rate_days.get((standalone, grid_day.date), (None, None, None))[0]
    return RateCell(
        plan,
        grid_day,
        row.package,
        stored=modify if row.package else rate,
        business_day=business_day,
        base=base,
        override=overrides.get((plan.pk, grid_day.date)),
    )


def ari_grid_hub(grid: AriGrid) -> dict[tuple[str, int], HubStanding]:
    """Mark where each row of grid stands with the hub and which of its days the hub does not have yet
    (two queries, ari_hub_standing); returns the standing read, by (kind, object id)."""
    standing = ari_hub_standing(grid.property, first=grid.first, last=grid.last)
    for block in grid.room_types:
        block.hub = standing.get((ResourceKind.ARI_AVAILS, block.room_type.pk), HubStanding())
        for avail_cell in block.avail_cells:
            avail_cell.unsent = block.hub.unsent_on(avail_cell.day.date)
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


def ari_cell_seen(target: RatePlan | RoomType, day: datetime.date, *, channel: SalesChannel | None = None) -> CellSeen:
    """What the grid shows in target's cell on day (CellSeen), read as the grid reads it."""
    room_type_id = target.pk if isinstance(target, RoomType) else target.room_type_id
    grid = ari_grid_read(target.property, first=day, last=day, channel=channel, room_type_ids=[room_type_id])
    (block,) = grid.room_types
    if isinstance(target, RoomType):
        avail_cell = block.avail_cells[0]
        return CellSeen(avail_cell.allotment if channel is None else avail_cell.cap)
    (cell,) = [row.cells[0] for row in block.rate_plans if row.rate_plan.pk == target.pk]
    if channel is not None:
        return CellSeen(cell.override_price)
    return CellSeen(cell.price, cell.open)
