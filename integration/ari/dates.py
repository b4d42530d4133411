"""The dates of rates and availability: the window the hub accepts, ranges of days, and the months the
grid offers."""

import datetime
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q

from core.dates import korea_today

from ..hub.endpoints import WINDOW_DAYS


def ari_window(today=None):
    """The first and last date the hub accepts."""
    first = today or korea_today()
    return first, first + datetime.timedelta(days=WINDOW_DAYS)


@dataclass(frozen=True, order=True)
class DateRange:
    """Days from start to end, both included."""

    start: datetime.date
    end: datetime.date

    def days(self):
        day = self.start
        while day <= self.end:
            yield day
            day += datetime.timedelta(days=1)


def merge_ranges(ranges):
    """Ranges merged where they overlap or touch, in date order."""
    merged: list[DateRange] = []
    for current in sorted(ranges):
        if merged and current.start <= merged[-1].end + datetime.timedelta(days=1):
            merged[-1] = DateRange(merged[-1].start, max(merged[-1].end, current.end))
        else:
            merged.append(current)
    return merged


def clamp_ranges(ranges, window):
    """The parts of ranges inside window (first, last)."""
    first, last = window
    return [DateRange(max(r.start, first), min(r.end, last)) for r in ranges if r.end >= first and r.start <= last]


def dates_within(ranges):
    """The days of ranges as a filter: one BETWEEN per range, not a list of every day (731 for a year)."""
    return reduce(or_, (Q(date__range=(date_range.start, date_range.end)) for date_range in ranges))


def ranges_of(dates):
    """The fewest ranges covering exactly these dates: runs of consecutive days, in date order (a year of
    days per send: no DateRange per day)."""
    runs: list[list[datetime.date]] = []  # [first, last] of each run
    for day in sorted(set(dates)):
        if runs and day == runs[-1][1] + datetime.timedelta(days=1):
            runs[-1][1] = day
        else:
            runs.append([day, day])
    return [DateRange(first, last) for first, last in runs]


def month_start(day: datetime.date) -> datetime.date:
    """The first day of day's month."""
    return day.replace(day=1)


def month_end(first: datetime.date) -> datetime.date:
    """The last day of the month that starts on first."""
    return add_months(first, 1) - datetime.timedelta(days=1)


def add_months(first: datetime.date, count: int) -> datetime.date:
    """The first day of the month count months after (or before) the month starting on first."""
    index = first.year * 12 + first.month - 1 + count
    return datetime.date(index // 12, index % 12 + 1, 1)


def grid_months(today: datetime.date | None = None) -> list[datetime.date]:
    """The months the grid offers: from this month (Korea time) to the month of the hub window's last day."""
    first, last = ari_window(today)
    months, month = [], month_start(first)
    while month <= last:
        months.append(month)
        month = add_months(month, 1)
    return months


def grid_month(value: str | None, today: datetime.date | None = None) -> datetime.date:
    """The month a ?month=YYYY-MM parameter asks for, kept within grid_months (this month when absent or
    unreadable)."""
    months = grid_months(today)
    try:
        year, month = (int(part) for part in (value or "").split("-"))
        wanted = datetime.date(year, month, 1)
    except ValueError:
        return months[0]
    return min(max(wanted, months[0]), months[-1])


#: The spans of days the grid shows at once, staff's choice; the first view shows DEFAULT_GRID_DAYS from today.
GRID_DAYS = (14, 30, 60)
DEFAULT_GRID_DAYS = 30
#: The most days one page of the grid shows (a link may ask for any span up to it, e.g. a calendar month).
MAX_GRID_DAYS = 62


@dataclass(frozen=True)
class GridWindow:
    """The days the grid shows: from first to last, a span of days (a calendar month when asked by month),
    and where the previous and next spans start (None at the ends of what the grid offers)."""

    first: datetime.date
    last: datetime.date
    days: int
    previous: datetime.date | None
    next: datetime.date | None

    def query(self, first: datetime.date | None = None) -> dict[str, str]:
        """The URL parameters of this window, or of the span of as many days starting on first."""
        return {"start": (first or self.first).isoformat(), "days": str(self.days)}


def grid_window(
    start: str | None, days: str | None, month: str | None = None, today: datetime.date | None = None
) -> GridWindow:
    """The window that ?start=YYYY-MM-DD&days=N asks for (today and DEFAULT_GRID_DAYS when absent or
    unreadable, N at most MAX_GRID_DAYS), or ?month=YYYY-MM (that calendar month). The grid offers the days
    from the first of this month (Korea time) to the hub window's last day."""
    today = today or korea_today()
    earliest, latest = month_start(today), ari_window(today)[1]
    days = days or ""
    span = int(days) if days.isdigit() and 1 <= int(days) <= MAX_GRID_DAYS else DEFAULT_GRID_DAYS
    if month and not start:
        first = grid_month(month, today)
        span = (month_end(first) - first).days + 1
    else:
        try:
            first = datetime.date.fromisoformat(start or "")
        except ValueError:
            first = today
        first = min(max(first, earliest), latest)
    step = datetime.timedelta(days=span)
    return GridWindow(
        first=first,
        last=min(first + step - datetime.timedelta(days=1), latest),
        days=span,
        previous=max(first - step, earliest) if first > earliest else None,
        next=first + step if first + step <= latest else None,
    )
