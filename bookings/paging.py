"""Paging of lists that grow to millions of rows (bookings, the hub's calls) without counting them."""

from django.core.paginator import Paginator
from django.utils.functional import cached_property

#: Rows a list counts at most; beyond, it says "more than" this and pages through the first ones only
#: (filters and search narrow a list further down than anyone pages).
COUNT_LIMIT = 10_000


class BoundedCountPaginator(Paginator):
    """A paginator whose count reads at most COUNT_LIMIT + 1 rows (one COUNT over a LIMIT subquery), so
    that a page costs the same with a thousand rows or millions; `capped` tells when there are more."""

    @cached_property
    def count(self):
        counted = self.object_list.order_by()[: COUNT_LIMIT + 1].count()
        self.capped = counted > COUNT_LIMIT
        return min(counted, COUNT_LIMIT)

    capped = False
