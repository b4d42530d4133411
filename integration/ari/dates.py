"""The dates of rates and availability: the window the hub accepts, and ranges of days."""

import datetime
from dataclasses import dataclass

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


def ranges_of(dates):
    """The fewest ranges covering exactly these dates."""
    return merge_ranges(DateRange(day, day) for day in set(dates))
