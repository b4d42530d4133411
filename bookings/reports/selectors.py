"""The reports, read from the daily figures (never from the bookings): each report is a few grouped
queries over a date range of some properties, whatever the number of bookings behind them. Definitions
follow USALI (the Uniform System of Accounts for the Lodging Industry): see docs/staff/reports.md."""

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user
from integration.models import Property, RoomTypeDay, SalesChannel

from .models import DailyFigure, PickupFigure
from .periods import Period, period_start, periods

#: Last year's same point: 52 weeks before, so that a Saturday compares with a Saturday.
LAST_YEAR = datetime.timedelta(days=364)

_HUNDRED = Decimal(100)


class Kind:
    """How a column's values read: a count, an amount, a percentage, a number of days, or text."""

    COUNT = "count"
    MONEY = "money"
    PERCENT = "percent"
    DAYS = "days"
    TEXT = "text"


@dataclass(frozen=True)
class Column:
    """One column of a report's table: its key in the rows, its heading and how its values read."""

    key: str
    label: str
    kind: str = Kind.COUNT


@dataclass
class Report:
    """A report's table (columns, rows as {key: value}, a total row or None) and its chart: labels and
    series [(column key, "bar" or "line", axis "y" or "y1")] drawn from the rows' values."""

    columns: list[Column]
    rows: list[dict[str, Any]]
    total: dict[str, Any] | None
    series: list[tuple[str, str, str]] = field(default_factory=list)
    chart_label: str = "label"

    def chart(self) -> dict[str, Any]:
        """The chart's data for the page's script: labels and one dataset per series."""
        labels = {column.key: str(column.label) for column in self.columns}
        return {
            "labels": [str(row[self.chart_label]) for row in self.rows],
            "datasets": [
                {
                    "label": labels[key],
                    "type": kind,
                    "yAxisID": axis,
                    "percent": self._kind(key) == Kind.PERCENT,
                    "data": [None if row[key] is None else float(row[key]) for row in self.rows],
                }
                for key, kind, axis in self.series
            ],
        }

    def table(self) -> list[list[tuple[Any, str]]]:
        """The rows as cells (value, kind) in the columns' order, for the page."""
        return [[(row[column.key], column.kind) for column in self.columns] for row in self.rows]

    def total_cells(self) -> list[tuple[Any, str]]:
        """The total row as cells (value, kind); empty without one."""
        total = self.total or {}
        return [(total[column.key], column.kind) for column in self.columns] if total else []

    def _kind(self, key: str) -> str:
        return next(column.kind for column in self.columns if column.key == key)


def ratio(part: Decimal | int, whole: Decimal | int, *, percent: bool = False) -> Decimal | None:
    """part / whole rounded to two decimals (as a percentage when percent), None when whole is 0."""
    if not whole:
        return None
    value = Decimal(part) / Decimal(whole) * (_HUNDRED if percent else 1)
    return value.quantize(Decimal("0.01"))


def _by_period(
    rows: Iterable[Mapping[str, Any]], grouping: str, *, day: str = "date", shift: datetime.timedelta | None = None
) -> dict[datetime.date, dict[str, Any]]:
    """Rows of a query grouped by day, added up by period (shift: added to each day first)."""
    found: dict[datetime.date, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        date = row[day] + shift if shift else row[day]
        totals = found[period_start(date, grouping)]
        for key, value in row.items():
            if key != day:
                totals[key] += value or 0
    return found


def _stay_figures(properties: QuerySet[Property], start: datetime.date, end: datetime.date) -> QuerySet[Any]:
    """The daily figures of properties from start to end, one row per date, every channel added up."""
    return (
        DailyFigure.objects.filter(property__in=properties, date__range=(start, end))
        .values("date")
        .annotate(
            rooms=Sum("rooms"),
            revenue=Sum("revenue"),
            net=Sum("net"),
            arrivals=Sum("arrivals"),
            canceled=Sum("canceled"),
            no_shows=Sum("no_shows"),
            stay_nights=Sum("stay_nights"),
            lead_days=Sum("lead_days"),
        )
        .order_by()
    )


def _available(properties: QuerySet[Property], start: datetime.date, end: datetime.date) -> QuerySet[Any]:
    """The room nights available of properties per date: every room type's rooms to sell that day."""
    return (
        RoomTypeDay.objects.filter(room_type__property__in=properties, date__range=(start, end))
        .values("date")
        .annotate(available=Sum("allotment"))
        .order_by()
    )


def _rows(
    spans: list[Period],
    found: dict[datetime.date, dict[str, Any]],
    build: Callable[[str, Mapping[str, Any]], dict[str, Any]],
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A row per period built from its sums, and the total row built from every period's sums added."""
    totals: dict[str, Any] = defaultdict(int)
    rows = []
    for span in spans:
        sums = found.get(span.start, {})
        for key, value in sums.items():
            totals[key] += value
        rows.append(build(span.label, sums))
    return rows, build(pgettext("report row", "Total"), totals)


def performance_report(
    properties: QuerySet[Property], start: datetime.date, end: datetime.date, grouping: str
) -> Report:
    """Occupancy, ADR, RevPAR, room and net revenue per period of the stay dates from start to end."""
    found = _by_period(_stay_figures(properties, start, end), grouping)
    for date, sums in _by_period(_available(properties, start, end), grouping).items():
        found.setdefault(date, defaultdict(int))["available"] = sums["available"]

    def build(label: str, sums: Mapping[str, Any]) -> dict[str, Any]:
        available, rooms = sums.get("available", 0), sums.get("rooms", 0)
        revenue, net = Decimal(sums.get("revenue", 0)), Decimal(sums.get("net", 0))
        return {
            "label": label,
            "available": available,
            "rooms": rooms,
            "occupancy": ratio(rooms, available, percent=True),
            "adr": ratio(revenue, rooms),
            "revpar": ratio(revenue, available),
            "revenue": revenue,
            "net": net,
        }

    rows, total = _rows(periods(start, end, grouping), found, build)
    columns = [
        Column("label", _("Stay dates"), Kind.TEXT),
        Column("available", _("Room nights available")),
        Column("rooms", _("Room nights sold")),
        Column("occupancy", _("Occupancy"), Kind.PERCENT),
        Column("adr", _("ADR"), Kind.MONEY),
        Column("revpar", _("RevPAR"), Kind.MONEY),
        Column("revenue", _("Room revenue"), Kind.MONEY),
        Column("net", _("Net revenue"), Kind.MONEY),
    ]
    return Report(columns, rows, total, series=[("occupancy", "bar", "y"), ("adr", "line", "y1")])


def bookings_report(properties: QuerySet[Property], start: datetime.date, end: datetime.date, grouping: str) -> Report:
    """Per period of arrival dates: bookings, cancellations and no-shows, the cancellation rate, the
    average length of stay and lead time (of the bookings that stay)."""
    found = _by_period(_stay_figures(properties, start, end), grouping)

    def build(label: str, sums: Mapping[str, Any]) -> dict[str, Any]:
        staying, canceled, no_shows = sums.get("arrivals", 0), sums.get("canceled", 0), sums.get("no_shows", 0)
        received = staying + canceled + no_shows
        return {
            "label": label,
            "received": received,
            "canceled": canceled,
            "cancellation": ratio(canceled, received, percent=True),
            "no_shows": no_shows,
            "staying": staying,
            "length": ratio(sums.get("stay_nights", 0), staying),
            "lead": ratio(sums.get("lead_days", 0), staying),
        }

    rows, total = _rows(periods(start, end, grouping), found, build)
    columns = [
        Column("label", _("Arrival dates"), Kind.TEXT),
        Column("received", _("Bookings")),
        Column("canceled", _("Canceled")),
        Column("cancellation", _("Cancellation rate"), Kind.PERCENT),
        Column("no_shows", _("No-shows")),
        Column("staying", _("Staying")),
        Column("length", _("Average length of stay (nights)"), Kind.DAYS),
        Column("lead", _("Average lead time (days)"), Kind.DAYS),
    ]
    return Report(columns, rows, total, series=[("staying", "bar", "y"), ("canceled", "bar", "y")])


def channel_report(properties: QuerySet[Property], start: datetime.date, end: datetime.date) -> Report:
    """The channel mix of the stay dates from start to end: per channel the bookings arriving, room nights,
    room revenue and its share, net revenue, and what the channel kept (revenue less net)."""
    per_channel = list(
        DailyFigure.objects.filter(property__in=properties, date__range=(start, end))
        .values("channel_id")
        .annotate(bookings=Sum("arrivals"), rooms=Sum("rooms"), revenue=Sum("revenue"), net=Sum("net"))
        .order_by("-revenue", "channel_id")
    )
    names = dict(
        SalesChannel.objects.filter(channel_id__in=[row["channel_id"] for row in per_channel]).values_list(
            "channel_id", "name"
        )
    )
    all_revenue = sum((Decimal(row["revenue"] or 0) for row in per_channel), Decimal(0))

    def build(label: str, sums: Mapping[str, Any]) -> dict[str, Any]:
        revenue, net = Decimal(sums.get("revenue") or 0), Decimal(sums.get("net") or 0)
        return {
            "label": label,
            "bookings": sums.get("bookings") or 0,
            "rooms": sums.get("rooms") or 0,
            "revenue": revenue,
            "mix": ratio(revenue, all_revenue, percent=True),
            "net": net,
            "kept": revenue - net,
            "kept_share": ratio(revenue - net, revenue, percent=True),
        }

    rows = [
        build(names.get(row["channel_id"]) or _("Channel %(id)s") % {"id": row["channel_id"]}, row)
        for row in per_channel
    ]
    totals: dict[str, Any] = defaultdict(int)
    for row in per_channel:
        for key in ("bookings", "rooms", "revenue", "net"):
            totals[key] += row[key] or 0
    columns = [
        Column("label", _("Channel"), Kind.TEXT),
        Column("bookings", _("Bookings arriving")),
        Column("rooms", _("Room nights sold")),
        Column("revenue", _("Room revenue"), Kind.MONEY),
        Column("mix", _("Share of room revenue"), Kind.PERCENT),
        Column("net", _("Net revenue"), Kind.MONEY),
        Column("kept", _("Kept by the channel"), Kind.MONEY),
        Column("kept_share", _("Share the channel kept"), Kind.PERCENT),
    ]
    return Report(
        columns,
        rows,
        build(pgettext("report row", "Total"), totals),
        series=[("revenue", "bar", "y"), ("net", "bar", "y")],
    )


def pickup_report(properties: QuerySet[Property], start: datetime.date, end: datetime.date, grouping: str) -> Report:
    """Pickup of the stay dates from start to end: per period of the days bookings were received (or
    canceled), the bookings and room nights booked, those canceled, the net pickup and the room nights on
    the books at the period's end."""
    found = _by_period(
        PickupFigure.objects.filter(property__in=properties, date__range=(start, end))
        .values("day")
        .annotate(
            bookings=Sum("bookings_booked"),
            booked=Sum("rooms_booked"),
            canceled=Sum("rooms_canceled"),
            revenue_booked=Sum("revenue_booked"),
            revenue_canceled=Sum("revenue_canceled"),
        )
        .order_by(),
        grouping,
        day="day",
    )
    spans = periods(min(found), max(found), grouping) if found else []
    on_books = 0

    def build(label: str, sums: Mapping[str, Any]) -> dict[str, Any]:
        nonlocal on_books
        booked, canceled = sums.get("booked", 0), sums.get("canceled", 0)
        on_books += booked - canceled
        return {
            "label": label,
            "bookings": sums.get("bookings", 0),
            "booked": booked,
            "canceled": canceled,
            "pickup": booked - canceled,
            "revenue": Decimal(sums.get("revenue_booked", 0)) - Decimal(sums.get("revenue_canceled", 0)),
            "on_books": on_books,
        }

    rows, total = _rows(spans, found, build)
    total["on_books"] = total["pickup"]
    columns = [
        Column("label", _("Received"), Kind.TEXT),
        Column("bookings", _("Bookings received")),
        Column("booked", _("Room nights booked")),
        Column("canceled", _("Room nights canceled")),
        Column("pickup", _("Pickup (room nights)")),
        Column("revenue", _("Pickup (room revenue)"), Kind.MONEY),
        Column("on_books", _("Room nights on the books")),
    ]
    return Report(columns, rows, total, series=[("pickup", "bar", "y"), ("on_books", "line", "y1")])


def pace_report(
    properties: QuerySet[Property], start: datetime.date, end: datetime.date, grouping: str, *, today: datetime.date
) -> Report:
    """Pace of the stay dates from start to end: per period, the room nights and revenue on the books today
    against those on the books at the same point last year (52 weeks before, for the stay dates 52 weeks
    before), and what last year's stay dates ended with."""
    figures = PickupFigure.objects.filter(property__in=properties)

    def on_books(before: datetime.date, prefix: str) -> dict[str, Any]:
        when = Q(day__lte=before)
        return {
            f"{prefix}rooms": Sum("rooms_booked", filter=when, default=0)
            - Sum("rooms_canceled", filter=when, default=0),
            f"{prefix}revenue": Sum("revenue_booked", filter=when, default=0)
            - Sum("revenue_canceled", filter=when, default=0),
        }

    this_year = figures.filter(date__range=(start, end)).values("date").annotate(**on_books(today, "")).order_by()
    last_year = (
        figures.filter(date__range=(start - LAST_YEAR, end - LAST_YEAR))
        .values("date")
        .annotate(
            **on_books(today - LAST_YEAR, "last_"),
            last_final=Sum("rooms_booked", default=0) - Sum("rooms_canceled", default=0),
        )
        .order_by()
    )
    found = _by_period(this_year, grouping)
    for date, sums in _by_period(last_year, grouping, shift=LAST_YEAR).items():
        found.setdefault(date, defaultdict(int)).update(sums)

    def build(label: str, sums: Mapping[str, Any]) -> dict[str, Any]:
        rooms, last_rooms = sums.get("rooms", 0), sums.get("last_rooms", 0)
        return {
            "label": label,
            "rooms": rooms,
            "revenue": Decimal(sums.get("revenue", 0)),
            "last_rooms": last_rooms,
            "last_revenue": Decimal(sums.get("last_revenue", 0)),
            "difference": rooms - last_rooms,
            "last_final": sums.get("last_final", 0),
        }

    rows, total = _rows(periods(start, end, grouping), found, build)
    columns = [
        Column("label", _("Stay dates"), Kind.TEXT),
        Column("rooms", _("On the books (room nights)")),
        Column("revenue", _("On the books (room revenue)"), Kind.MONEY),
        Column("last_rooms", _("Same point last year (room nights)")),
        Column("last_revenue", _("Same point last year (room revenue)"), Kind.MONEY),
        Column("difference", _("Difference (room nights)")),
        Column("last_final", _("Last year in the end (room nights)")),
    ]
    return Report(columns, rows, total, series=[("rooms", "bar", "y"), ("last_rooms", "bar", "y")])


def report_of(
    kind: str,
    properties: QuerySet[Property],
    start: datetime.date,
    end: datetime.date,
    grouping: str,
    *,
    today: datetime.date,
) -> Report:
    """The report of kind (bookings.reports.forms.ReportKind) for properties and the dates from start to end."""
    if kind == "pickup":
        return pickup_report(properties, start, end, grouping)
    if kind == "pace":
        return pace_report(properties, start, end, grouping, today=today)
    if kind == "channels":
        return channel_report(properties, start, end)
    if kind == "bookings":
        return bookings_report(properties, start, end, grouping)
    return performance_report(properties, start, end, grouping)


def report_properties(user: Any) -> QuerySet[Property]:
    """The properties whose reports a person may read: those they manage (every one for a superuser)."""
    return properties_for_user(user, roles=(MembershipRole.MANAGER,))


#: The dashboard's small charts: days of occupancy ahead, and the height of their drawing (SVG units).
CHART_DAYS = 30
CHART_HEIGHT = 40


@dataclass(frozen=True)
class Bar:
    """One bar of a small chart: where it is drawn (x, y, height in SVG units) and what it says."""

    x: int
    y: float
    height: float
    title: str


@dataclass
class CardCharts:
    """A property's small charts on the dashboard: occupancy of the next 30 days (and its average), and the
    room nights picked up on each day of this month so far (and their sum)."""

    occupancy: list[Bar]
    occupancy_average: Decimal | None
    pickup: list[Bar]
    pickup_total: int
    start: datetime.date
    end: datetime.date
    width: int = CHART_DAYS * 4


def _bars(values: list[tuple[datetime.date, Decimal | int, str]], top: Decimal | int) -> list[Bar]:
    """Bars 3 units wide, 4 apart, as high as their value against top (the tallest possible)."""
    bars = []
    for index, (_date, value, title) in enumerate(values):
        height = float(Decimal(max(value, 0)) / Decimal(top) * CHART_HEIGHT) if top else 0.0
        bars.append(Bar(x=index * 4, y=CHART_HEIGHT - height, height=height, title=title))
    return bars


_Sums = dict[tuple[int, datetime.date], int]


def _card_sums(property_ids: list[int], today: datetime.date, end: datetime.date) -> tuple[_Sums, _Sums, _Sums]:
    """{(property, date): count} of the nights sold and available from today to end, and of this month's
    net pickup by day: three grouped queries."""
    sold = DailyFigure.objects.filter(property_id__in=property_ids, date__range=(today, end))
    available = RoomTypeDay.objects.filter(room_type__property_id__in=property_ids, date__range=(today, end))
    picked = PickupFigure.objects.filter(property_id__in=property_ids, day__range=(today.replace(day=1), today))
    rooms: _Sums = defaultdict(int)
    for pk, date, count in sold.values_list("property_id", "date").annotate(Sum("rooms")).order_by():
        rooms[pk, date] = count
    stock: _Sums = defaultdict(int)
    for pk, date, count in (
        available.values_list("room_type__property_id", "date").annotate(Sum("allotment")).order_by()
    ):
        stock[pk, date] = count
    pickup: _Sums = defaultdict(int)
    for pk, date, booked, canceled in (
        picked.values_list("property_id", "day").annotate(Sum("rooms_booked"), Sum("rooms_canceled")).order_by()
    ):
        pickup[pk, date] = booked - canceled
    return rooms, stock, pickup


def property_charts(property_ids: list[int], *, today: datetime.date) -> dict[int, CardCharts]:
    """The small charts of these properties (a page of the dashboard's cards), in three queries whatever
    their number: the nights sold and available of the next 30 days, and this month's pickup."""
    end = today + datetime.timedelta(days=CHART_DAYS - 1)
    rooms, stock, pickup = _card_sums(property_ids, today, end)
    days = [today + datetime.timedelta(days=n) for n in range(CHART_DAYS)]
    month = [today.replace(day=n) for n in range(1, today.day + 1)]
    charts = {}
    for pk in property_ids:
        shares = [(date, ratio(rooms[pk, date], stock[pk, date], percent=True) or Decimal(0)) for date in days]
        picks = [(date, pickup[pk, date]) for date in month]
        top = max([count for _date, count in picks] + [1])
        charts[pk] = CardCharts(
            occupancy=_bars([(date, share, f"{date:%m-%d} {share:.0f}%") for date, share in shares], 100),
            occupancy_average=ratio(sum(rooms[pk, d] for d in days), sum(stock[pk, d] for d in days), percent=True),
            pickup=_bars([(date, count, f"{date:%m-%d} {count:+d}") for date, count in picks], top),
            pickup_total=sum(count for _date, count in picks),
            start=today,
            end=end,
        )
    return charts
