"""The periods a report groups its days by: days, weeks (Monday to Sunday) or months."""

import datetime
from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _


class Grouping(models.TextChoices):
    """How a report groups its days."""

    DAY = "day", _("By day")
    WEEK = "week", _("By week")
    MONTH = "month", _("By month")


@dataclass(frozen=True)
class Period:
    """One row of a report: its first day (its key) and its label."""

    start: datetime.date
    label: str


def period_start(day: datetime.date, grouping: str) -> datetime.date:
    """The first day of the period of grouping that holds day."""
    if grouping == Grouping.WEEK:
        return day - datetime.timedelta(days=day.weekday())
    if grouping == Grouping.MONTH:
        return day.replace(day=1)
    return day


def _label(start: datetime.date, grouping: str) -> str:
    if grouping == Grouping.MONTH:
        return start.strftime("%Y-%m")
    if grouping == Grouping.WEEK:
        return f"{start.isoformat()} ~"
    return start.isoformat()


def periods(start: datetime.date, end: datetime.date, grouping: str) -> list[Period]:
    """The periods of grouping from start's to end's, in order."""
    found: dict[datetime.date, Period] = {}
    day = start
    while day <= end:
        first = period_start(day, grouping)
        found.setdefault(first, Period(first, _label(first, grouping)))
        day += datetime.timedelta(days=1)
    return list(found.values())
