"""The commission each channel really takes, measured from reconciled settlement records: 1 - net price /
total amount over the channel's last bookings that the hub's list and ours agree on (matched rows), for the
channel prices of integration's net targets."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from bookings.models import Booking
from integration.ari.selectors.prices import pricing_settings
from integration.ari.services.price_rules import channel_commission_set
from integration.models import Property, SalesChannel

from .choices import Category
from .models import ReconciliationRow


@dataclass(frozen=True)
class Measured:
    """A channel's measured commission (percent, None without a booking) over sample_size bookings
    dated first to last."""

    percent: Decimal | None
    sample_size: int
    first: datetime.date | None
    last: datetime.date | None


def commission_measure(prop: Property, channel_id: int, *, sample: int) -> Measured:
    """The commission of the channel (hub id) from its last `sample` reconciled bookings of prop: matched
    rows with a total above 0 and a net price, each booking once (the latest reconciliation's row)."""
    rows = (
        ReconciliationRow.objects.filter(
            property=prop,
            category=Category.MATCHED,
            booking__channel_id=channel_id,
            booking__status=Booking.Status.CONFIRMED,
            hub_total_amount__gt=0,
            hub_net_price__isnull=False,
        )
        .order_by("-date", "-reconciliation_id", "-id")
        .values_list("vendor_booking_number", "date", "hub_total_amount", "hub_net_price")
    )
    seen: dict[str, tuple[datetime.date, Decimal, Decimal]] = {}
    for number, day, total, net in rows.iterator(chunk_size=max(sample * 2, 100)):
        if number not in seen and total is not None and net is not None:  # the filter keeps only these
            seen[number] = (day, total, net)
            if len(seen) == sample:
                break
    if not seen:
        return Measured(None, 0, None, None)
    totals = sum((total for _day, total, _net in seen.values()), Decimal(0))
    nets = sum((net for _day, _total, net in seen.values()), Decimal(0))
    percent = ((1 - nets / totals) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    days = [day for day, _total, _net in seen.values()]
    return Measured(percent, len(seen), min(days), max(days))


def commissions_measure(*, properties: Iterable[Property]) -> int:
    """Measure again the commission of every channel with reconciled bookings of the properties (after a
    reconciliation), and record it; the channel prices of net targets that move are marked for the hub.
    Returns how many channel prices moved."""
    moved = 0
    for prop in properties:
        sample = pricing_settings(prop).commission_sample
        channel_ids = (
            ReconciliationRow.objects.filter(property=prop, category=Category.MATCHED, booking__isnull=False)
            .values_list("booking__channel_id", flat=True)
            .distinct()
        )
        for channel in SalesChannel.objects.filter(channel_id__in=list(channel_ids)):
            measured = commission_measure(prop, channel.channel_id, sample=sample)
            moved += channel_commission_set(
                prop=prop,
                channel=channel,
                measured=(measured.percent, measured.sample_size, measured.first, measured.last),
            )
    return moved
