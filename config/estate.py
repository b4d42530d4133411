"""The dashboard's properties: their cards a page at a time, those needing attention first (a failed hub
sync, pending holds), and for a superuser a summary of the whole estate (properties by status, failed hub
syncs, today's bookings), so that the dashboard costs the same queries and about the same time with five
properties or a thousand."""

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, Count, ExpressionWrapper, Q

from bookings.models import Booking
from bookings.reports.selectors import property_charts
from bookings.selectors import BookingCounts, booking_counts, booking_totals
from core.dates import korea_today
from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user
from integration.content.choices import ContentStatus
from integration.hub.selectors import hub_environment_active
from integration.models import Property, PropertyMembership, SyncState
from integration.sync.choices import SyncStatus

#: Cards on a page of the dashboard (its column holds one card a row): those needing attention come first.
CARDS_PER_PAGE = 24


@dataclass
class EstateSummary:
    """A superuser's estate at a glance: properties by status [(value, label, count)], how many have a
    resource whose hub sync failed, and today's bookings of every property together (None without the
    permission to see bookings)."""

    properties: int
    by_status: list
    sync_failed: int
    bookings: BookingCounts | None


def _flag(condition):
    return ExpressionWrapper(condition, output_field=BooleanField())


def dashboard_properties(user, page_number, *, with_bookings, with_reports=False):
    """The dashboard's context about properties: the page of cards (with_reports: each with its small
    charts of occupancy and pickup), and for a superuser the summary of the estate. A failed hub sync is
    one of the active hub's (an earlier hub's rows are history)."""
    failed = SyncState.objects.filter(environment=hub_environment_active(), status=SyncStatus.FAILED)
    cards = _cards(user, page_number, failed, with_bookings=with_bookings)
    if with_reports:
        # The reports are a manager's (bookings.reports.selectors.report_properties): a staff member's
        # cards have none.
        managed = [card for card in cards if user.is_superuser or card["role"] == MembershipRole.MANAGER]
        charts = property_charts([card["property"].pk for card in managed], today=korea_today())
        for card in managed:
            card["charts"] = charts[card["property"].pk]
    context = {"property_cards": cards}
    if user.is_superuser:
        context["estate"] = _summary(failed, with_bookings=with_bookings)
    return context


def _cards(user, page_number, failed, *, with_bookings):
    """The page of the user's properties as cards ({property, role, bookings, sync_failed}): those with a
    failed hub sync or pending holds first, then by name. Each flag is one hashed look-up of the failed sync
    states and of the pending bookings (both read by their status index), never a scan per property."""
    failed_ids = failed.values("property_id")
    holding = Booking.objects.filter(status=Booking.Status.PENDING).values("property_id")
    properties = (
        properties_for_user(user)
        .only("pk", "name", "vendor_id")
        .annotate(sync_failed=_flag(Q(pk__in=failed_ids)), attention=_flag(Q(pk__in=failed_ids) | Q(pk__in=holding)))
        .order_by("-attention", "name", "pk")
    )
    # Each card is a dict once read (below): the page holds properties, then cards.
    page: Page[Any] = Paginator(properties, CARDS_PER_PAGE).get_page(page_number)
    ids = [prop.pk for prop in page]
    roles = dict(PropertyMembership.objects.filter(user=user, property_id__in=ids).values_list("property_id", "role"))
    counts = booking_counts(ids) if with_bookings else {}
    page.object_list = [
        {
            "property": prop,
            "role": roles.get(prop.pk),
            "sync_failed": prop.sync_failed,
            **({"bookings": counts.get(prop.pk, BookingCounts(0, 0, 0))} if with_bookings else {}),
        }
        for prop in page
    ]
    return page


def _summary(failed, *, with_bookings):
    """The summary of every property: grouped counts, as many queries whatever the estate's size."""
    counts = dict(Property.objects.order_by().values_list("status").annotate(count=Count("pk")))
    return EstateSummary(
        properties=sum(counts.values()),
        by_status=[(status.value, status.label, counts.get(status.value, 0)) for status in ContentStatus],
        sync_failed=failed.order_by().values("property_id").distinct().count(),
        bookings=booking_totals() if with_bookings else None,
    )
