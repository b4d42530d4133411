"""Reads of settlement reconciliation for its screens: what a manager may see, rows, totals, CSV lines."""

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user
from integration.models import Property

from .choices import Category, RunStatus
from .models import Reconciliation, ReconciliationRow

MANAGERS = (MembershipRole.MANAGER,)


def reconciliations_for_user(user: User) -> QuerySet[Reconciliation]:
    """The reconciliations a user may read: those whose every property they manage (all for a superuser)."""
    queryset = Reconciliation.objects.all()
    if user.is_active and user.is_superuser:
        return queryset
    if not user.is_active:
        return queryset.none()
    managed = properties_for_user(user, roles=MANAGERS).values("pk")
    return (
        queryset.filter(properties__isnull=False)
        .exclude(properties__in=Property.objects.exclude(pk__in=managed))
        .distinct()
    )


def reconciliation_rows(
    reconciliation: Reconciliation, *, user: User, category: str = "", property_id: int | None = None, number: str = ""
) -> QuerySet[ReconciliationRow]:
    """The rows of a reconciliation the user may see (their managed properties), filtered, in the order of an
    index (settlement_row_date, settlement_row_category), so that a page reads its rows only."""
    rows = ReconciliationRow.objects.filter(reconciliation=reconciliation).select_related("property")
    if not (user.is_active and user.is_superuser):
        # A superuser sees every property: no semi-join over all of them.
        rows = rows.filter(property__in=properties_for_user(user, roles=MANAGERS))
    if category:
        rows = rows.filter(category=category)
    if property_id:
        rows = rows.filter(property_id=property_id)
    if number:
        rows = rows.filter(vendor_booking_number=number.strip())
    return rows.order_by("date", "pk")


def known_row_count(reconciliation: Reconciliation, *, category: str = "") -> int | None:
    """The number of rows of a finished run (of category, else all) as its totals hold it, so that the
    report's pages never count a hundred thousand rows; None while it runs (its rows still coming) and when
    it found none (nothing to count)."""
    totals = reconciliation.totals
    if reconciliation.status != RunStatus.DONE or not totals:
        return None
    if category:
        return totals.get(category, {}).get("count", 0)
    return sum(entry["count"] for entry in totals.values())


def category_totals(reconciliation: Reconciliation) -> list[dict[str, Any]]:
    """One entry per category, in the categories' order: label, count, share of all rows (percent) and
    the totals of the hub's and our total_amount."""
    totals = reconciliation.totals or {}
    rows = sum(entry["count"] for entry in totals.values()) or 1
    return [
        {
            "category": category.value,
            "label": category.label,
            "count": totals.get(category.value, {}).get("count", 0),
            "share": round(100 * totals.get(category.value, {}).get("count", 0) / rows, 1),
            "hub_total": totals.get(category.value, {}).get("hub_total", 0),
            "our_total": totals.get(category.value, {}).get("our_total", 0),
        }
        for category in Category
    ]


def monthly_totals(reconciliation: Reconciliation) -> list[dict[str, Any]]:
    """Per month (oldest first): its label and the count of each category, in the categories' order."""
    return [
        {"month": entry["month"], "counts": [entry.get(category.value, 0) for category in Category]}
        for entry in reconciliation.monthly or []
    ]


def _plain(amount: Decimal | None) -> Decimal | int | None:
    """An amount as a spreadsheet reads it, a number: 121000, 99.5; an empty cell for None."""
    if amount is None:
        return None
    return int(amount) if amount == amount.to_integral_value() else amount


def csv_header() -> list[str]:
    """The CSV export's header line, in the user's language."""
    return [
        _("Vendor booking number"),
        pgettext("settlement", "Property"),
        _("Date"),
        _("Result"),
        _("Status at the hub"),
        _("Our status"),
        _("Total amount at the hub"),
        _("Our total amount"),
        _("Net price at the hub"),
        _("Our net price"),
    ]


def csv_lines(rows: QuerySet[ReconciliationRow]) -> Iterator[list[Any]]:
    """One list of cells per row, read from the database in chunks (the export never holds every row)."""
    labels = dict(Category.choices)
    for row in rows.iterator(chunk_size=2000):
        yield [
            row.vendor_booking_number,
            str(row.property),
            row.date.isoformat(),
            str(labels[row.category]),
            # The statuses as the screen reads them, in the header's language (the hub's own word when it
            # is none of ours).
            str(row.hub_status_label()),
            str(row.our_status_label()),
            _plain(row.hub_total_amount),
            _plain(row.our_total_amount),
            _plain(row.hub_net_price),
            _plain(row.our_net_price),
        ]
