"""Paging of admin lists that grow to millions of rows (bookings, the hub's calls, the sync log) without
counting them."""

from typing import cast

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.utils.functional import cached_property

#: Rows a list counts at most; beyond, it says "more than" this and pages through the first ones only
#: (filters and search narrow a list further down than anyone pages).
COUNT_LIMIT = 10_000


class BoundedCountPaginator(Paginator):
    """A paginator whose count reads at most COUNT_LIMIT + 1 rows (one COUNT over a LIMIT subquery), so
    that a page costs the same with a thousand rows or millions; `capped` tells when there are more."""

    @cached_property
    def count(self):
        counted = cast("QuerySet", self.object_list).order_by()[: COUNT_LIMIT + 1].count()
        self.capped = counted > COUNT_LIMIT
        return min(counted, COUNT_LIMIT)

    capped = False


class UncountedPage:
    """A page of a list that is never counted, for lists whose filters match rows scattered through all of
    it (counting those would read it whole): one row past the page tells whether an older page follows.
    Iterates like Django's Page and answers what a "newer / older" pager asks."""

    def __init__(self, object_list, per_page, number):
        try:
            self.number = max(1, int(number or 1))
        except (TypeError, ValueError):
            self.number = 1
        start = (self.number - 1) * per_page
        rows = list(object_list[start : start + per_page + 1])
        self.object_list = rows[:per_page]
        self._more = len(rows) > per_page

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self):
        return len(self.object_list)

    def has_next(self):
        return self._more

    def has_previous(self):
        return self.number > 1

    def has_other_pages(self):
        return self.has_next() or self.has_previous()

    def next_page_number(self):
        return self.number + 1

    def previous_page_number(self):
        return self.number - 1
