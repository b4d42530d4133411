"""The admin's date drill-down (date_hierarchy) for logs of millions of rows.

Django lists the years, months or days that hold rows with a SELECT DISTINCT of the truncated date over
every row of the list (the whole log at its top level), and finds the list's first and last date with a
MIN and a MAX that scan every row when the list joins or filters by a subquery (a staff member's). Here
the first and last are the first row of each end of the date's index, and each period between them is
probed: one query of an EXISTS per period (at most 31, as the columns of one SELECT), each a range of the
indexed date, so a level costs the same with a thousand rows or millions. What staff see is Django's
drill-down itself: the same links, titles and template. (Not a UNION ALL of LIMIT 1 queries: SQLite
refuses a LIMIT in a compound statement's parts, and the drill-down runs on both engines.)
"""

import datetime
from typing import cast

from django.contrib.admin.templatetags.admin_list import date_hierarchy
from django.contrib.admin.views.main import ChangeList
from django.db.models import Exists
from django.utils import timezone


def probed_date_hierarchy(cl):
    """Django's date_hierarchy(cl) (the context of admin/date_hierarchy.html), its periods probed."""
    return date_hierarchy(cast("ChangeList", _ProbedChangeList(cl)))


class _ProbedChangeList:
    """The change list as date_hierarchy reads it, its queryset's dates found by probing."""

    def __init__(self, cl):
        self._cl = cl
        self.queryset = _ProbedDates(cl.queryset)

    def __getattr__(self, name):
        return getattr(self._cl, name)


class _ProbedDates:
    """The two reads date_hierarchy makes of a queryset: its first and last date, and the periods that
    hold rows."""

    def __init__(self, queryset):
        self._queryset = queryset.order_by()
        self._bounds = None

    def aggregate(self, **aggregates):
        """{"first": .., "last": ..} of the date field: the only aggregate date_hierarchy asks for (its
        Min and Max), read as the first row of each end of the date's index, which a MIN over a join or
        a subquery would not."""
        (first_name, first), (last_name, _last) = aggregates.items()
        first_date, last_date = self._bounds_of(first.source_expressions[0].name)
        return {first_name: first_date, last_name: last_date}

    def _bounds_of(self, field_name):
        if self._bounds is None:
            ends = self._queryset.values_list(field_name, flat=True)
            self._bounds = (ends.order_by(field_name).first(), ends.order_by(f"-{field_name}").first())
        return self._bounds

    def datetimes(self, field_name, kind):
        """The starts of the periods of kind (year, month or day, in the current time zone) holding rows,
        oldest first, as QuerySet.datetimes gives them."""
        first, last = self._bounds_of(field_name)
        if first is None:
            return []
        periods = _periods(timezone.localtime(first), timezone.localtime(last), kind)
        probes = {
            f"held{n}": Exists(self._queryset.filter(**{f"{field_name}__gte": start, f"{field_name}__lt": end}))
            for n, (start, end) in enumerate(periods)
        }
        # The probes are the columns of one row: the first of the date's index, as for the first date.
        held = self._queryset.order_by(field_name).annotate(**probes).values_list(*probes).first()
        if held is None:  # the retention purge removed every row since the first date was read
            return []
        return [start for (start, _end), is_held in zip(periods, held, strict=True) if is_held]


def _periods(first, last, kind):
    """[(start, end)] of each year, month or day from first's to last's (aware, in their time zone)."""
    zone = first.tzinfo
    start = _truncate(first, kind)
    periods = []
    while start <= last:
        end = _next(start, kind)
        periods.append((start, datetime.datetime.combine(end, datetime.time(0), tzinfo=zone)))
        start = periods[-1][1]
    return periods


def _truncate(moment, kind):
    day = moment.date()
    if kind == "year":
        day = day.replace(month=1, day=1)
    elif kind == "month":
        day = day.replace(day=1)
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=moment.tzinfo)


def _next(start, kind):
    day = start.date()
    if kind == "year":
        return day.replace(year=day.year + 1)
    if kind == "month":
        return (day.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
    return day + datetime.timedelta(days=1)
