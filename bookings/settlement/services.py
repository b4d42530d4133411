"""Settlement reconciliation: ask for one, run it (page through the hub's list, match by vendor booking
number, store a row per booking and the totals), the nightly runs, and one booking beside the hub's view.

A run pages the hub's list one page at a time and writes each page's rows before reading the next, so its
memory does not grow with the number of records; bookings missing at the hub are found by the database
(NOT EXISTS against the rows already written), in batches. It runs in short transactions, one per page, so
that the screen can follow its progress; running it again starts over.
"""

import datetime
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Count, Exists, F, OuterRef, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from bookings.api.answers import booking_answer
from bookings.models import Booking
from core.background.jobs import job_queue
from core.background.periodic import for_each_row
from core.dates import KOREA, korea_today
from core.metrics import reconciliation_counted
from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user
from integration.hub.client import HubClient, HubError
from integration.hub.selectors import hub_paused_refusal
from integration.models import Property

from . import hub
from .choices import Basis, Category, RunStatus, hub_status_as_ours
from .commissions import commissions_measure
from .models import Reconciliation, ReconciliationRow
from .sql import RowWriter, Side

logger = logging.getLogger(__name__)

RUN_TASK = "bookings.settlement.tasks.reconciliation_run_task"
#: The longest period one reconciliation covers.
MAX_PERIOD_DAYS = 366
#: Bookings missing at the hub are read and written this many at a time.
BATCH_SIZE = 1000
#: Our statuses the hub settles: a booking still pending (or released) is not expected in its list.
SETTLED_STATUSES = (Booking.Status.CONFIRMED, Booking.Status.CANCELED)


# --- Asking -----------------------------------------------------------------------------------------


def reconciliation_request(
    *, user: User, properties: Iterable[Property], basis: str, date_from: datetime.date, date_to: datetime.date
) -> Reconciliation:
    """Ask for a reconciliation of these properties (the user's own, as a manager) and queue its run.
    Raises ValidationError for an empty or too long period, a property the user does not manage, or while
    distribution to the hub is paused."""
    properties = list(properties)
    if not properties:
        raise ValidationError(_("Choose at least one property."))
    if date_to < date_from:
        raise ValidationError(_("The period ends before it starts."))
    if (date_to - date_from).days >= MAX_PERIOD_DAYS:
        raise ValidationError(_("A reconciliation covers at most %(days)d days.") % {"days": MAX_PERIOD_DAYS})
    managed = set(properties_for_user(user, roles=(MembershipRole.MANAGER,)).values_list("pk", flat=True))
    if any(prop.pk not in managed for prop in properties):
        raise ValidationError(_("You can reconcile only the properties you manage."))
    if (refusal := hub_paused_refusal()) is not None:
        raise ValidationError(refusal)
    with transaction.atomic():
        reconciliation = Reconciliation.objects.create(
            basis=Basis(basis), date_from=date_from, date_to=date_to, requested_by=user
        )
        reconciliation.properties.set(properties)
        job_queue(RUN_TASK, reconciliation.pk)
    return reconciliation


def reconciliations_nightly(*, today: datetime.date | None = None) -> int:
    """Ask for the previous month's reconciliation of every property (check-in basis), one per property so
    that each property's managers see theirs. Returns how many were queued."""
    first_of_month = (today or korea_today()).replace(day=1)
    date_to = first_of_month - datetime.timedelta(days=1)
    date_from = date_to.replace(day=1)

    def ask(property_id: int) -> int:
        with transaction.atomic():
            reconciliation = Reconciliation.objects.create(basis=Basis.CHECKIN, date_from=date_from, date_to=date_to)
            reconciliation.properties.set([property_id])
            job_queue(RUN_TASK, reconciliation.pk)
        return 1

    return for_each_row(Property.objects.order_by("pk").values_list("pk", flat=True), ask, what="nightly settlement")


# --- Running ----------------------------------------------------------------------------------------


def _day_bounds(date_from: datetime.date, date_to: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    return (
        datetime.datetime.combine(date_from, datetime.time(0), tzinfo=KOREA),
        datetime.datetime.combine(date_to + datetime.timedelta(days=1), datetime.time(0), tzinfo=KOREA),
    )


def _korea_date(value: str | datetime.datetime) -> datetime.date:
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    return value.astimezone(KOREA).date()


def _amount(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


_OURS = ("pk", "vendor_booking_number", "status", "total_amount", "net_price", "checkin", "checkout", "desk_status")


def _category(hub: Side, ours: Side | None) -> str:
    """What comparing the hub's (status in its words, total, net) with ours finds (see Category for the
    order)."""
    if ours is None:
        return Category.HUB_ONLY
    if hub_status_as_ours(hub[0]) != ours[0]:
        return Category.STATUS_DIFFERS
    if hub[1] != ours[1] or hub[2] != ours[2]:
        return Category.AMOUNT_DIFFERS
    return Category.MATCHED


def _match_page(
    writer: RowWriter, reconciliation: Reconciliation, prop: Property, records: list[dict[str, Any]]
) -> None:
    """Compare one page of the hub's records with our bookings of the same numbers; write its rows."""
    numbers = [str(record.get("booking_number"))[:100] for record in records]
    ours = {
        booking["vendor_booking_number"]: booking
        for booking in Booking.objects.filter(vendor_booking_number__in=numbers).values(*_OURS)
    }
    rows = []
    for number, record in zip(numbers, records, strict=True):
        hub = (
            str(record.get("status") or "")[:20],
            _amount(record.get("total_amount")),
            _amount(record.get("net_price")),
        )
        booking = ours.get(number)
        mine = (booking["status"], booking["total_amount"], booking["net_price"]) if booking else None
        day = _korea_date(record[reconciliation.basis])
        booking_id = booking["pk"] if booking else None
        no_show = booking is not None and booking["desk_status"] == Booking.Desk.NO_SHOW
        category = _category(hub, mine)
        rows.append(writer.row(reconciliation, prop, category, number, booking_id, day, hub, mine, no_show=no_show))
    with transaction.atomic():
        writer.write(rows)
        Reconciliation.objects.filter(pk=reconciliation.pk).update(records_seen=F("records_seen") + len(rows))


def _missing_at_hub(writer: RowWriter, reconciliation: Reconciliation, prop: Property) -> None:
    """Rows for our settled bookings of the period that the hub's list did not name, in batches."""
    start, end = _day_bounds(reconciliation.date_from, reconciliation.date_to)
    basis = reconciliation.basis
    listed = ReconciliationRow.objects.filter(
        reconciliation=reconciliation, vendor_booking_number=OuterRef("vendor_booking_number")
    )
    missing = (
        Booking.objects.filter(
            property=prop, status__in=SETTLED_STATUSES, **{f"{basis}__gte": start, f"{basis}__lt": end}
        )
        .filter(~Exists(listed))
        .order_by("pk")
        .values(*_OURS)
    )
    last = 0
    while batch := list(missing.filter(pk__gt=last)[:BATCH_SIZE]):
        writer.write(
            [
                writer.row(
                    reconciliation,
                    prop,
                    Category.OURS_ONLY,
                    booking["vendor_booking_number"],
                    booking["pk"],
                    _korea_date(booking[basis]),
                    None,
                    (booking["status"], booking["total_amount"], booking["net_price"]),
                    no_show=booking["desk_status"] == Booking.Desk.NO_SHOW,
                )
                for booking in batch
            ]
        )
        last = batch[-1]["pk"]


def _number(value: Decimal | None) -> int | float:
    if value is None:
        return 0
    return int(value) if value == value.to_integral_value() else float(value)


def _totals(reconciliation: Reconciliation) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    rows = ReconciliationRow.objects.filter(reconciliation=reconciliation).order_by()
    totals = {
        row["category"]: {
            "count": row["count"],
            "hub_total": _number(row["hub_total"]),
            "our_total": _number(row["our_total"]),
        }
        for row in rows.values("category").annotate(
            count=Count("pk"), hub_total=Sum("hub_total_amount"), our_total=Sum("our_total_amount")
        )
    }
    months: dict[str, dict[str, int]] = {}
    for row in rows.values("month", "category").annotate(count=Count("pk")).order_by("month"):
        months.setdefault(row["month"].strftime("%Y-%m"), {})[row["category"]] = row["count"]
    return totals, [{"month": month, **counts} for month, counts in months.items()]


def _fail(reconciliation: Reconciliation, message: str) -> None:
    logger.warning("reconciliation %s failed: %s", reconciliation.pk, message)
    Reconciliation.objects.filter(pk=reconciliation.pk).update(
        status=RunStatus.FAILED, error=message, finished_at=timezone.now()
    )


def reconciliation_run(*, reconciliation_id: int, client: HubClient | None = None) -> Reconciliation:
    """Run one reconciliation from the start: count the hub's records, page through them property by
    property, match, find our bookings the hub did not list, store the totals. A hub that fails (after
    the client's retries), or answers a record that cannot be read, leaves the run failed saying why; so
    does distribution paused (a run queued before the pause reads nothing from a hub in incident)."""
    reconciliation = Reconciliation.objects.get(pk=reconciliation_id)
    if reconciliation.status == RunStatus.DONE:
        return reconciliation
    if (refusal := hub_paused_refusal()) is not None:
        _fail(reconciliation, refusal)
        return reconciliation
    reconciliation.rows.all().delete()
    properties = list(reconciliation.properties.order_by("pk"))
    Reconciliation.objects.filter(pk=reconciliation.pk).update(
        status=RunStatus.RUNNING, started_at=timezone.now(), records_seen=0, records_expected=None, error=""
    )
    filters: dict[str, Any] = {
        "option": reconciliation.basis,
        "date_from": reconciliation.date_from,
        "date_to": reconciliation.date_to,
    }
    try:
        expected = sum(
            hub.settlement_count(**filters, vendor_property_id=p.vendor_id, client=client) for p in properties
        )
        Reconciliation.objects.filter(pk=reconciliation.pk).update(records_expected=expected)
        writer = RowWriter()
        for prop in properties:
            for _count, records in hub.settlement_pages(**filters, vendor_property_id=prop.vendor_id, client=client):
                _match_page(writer, reconciliation, prop, records)
            _missing_at_hub(writer, reconciliation, prop)
    except HubError as error:
        _fail(reconciliation, error.message)
    except SoftTimeLimitExceeded:
        _fail(reconciliation, _("The run took longer than its time limit; run it again."))
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        # A record without a readable booking_number, status or date: say so rather than stay "running".
        _fail(
            reconciliation,
            _("The hub's settlement list holds a record that cannot be read (%(error)r).") % {"error": error},
        )
    else:
        totals, monthly = _totals(reconciliation)
        Reconciliation.objects.filter(pk=reconciliation.pk).update(
            status=RunStatus.DONE, totals=totals, monthly=monthly, finished_at=timezone.now()
        )
        # Net targets gross up by the commission these matched bookings show.
        commissions_measure(properties=properties)
    reconciliation.refresh_from_db()
    reconciliation_counted(reconciliation.status)
    return reconciliation


# --- One booking beside the hub's view ---------------------------------------------------------------


@dataclass(frozen=True)
class ComparedField:
    """One field of a booking: our value, the hub's, and whether they differ."""

    #: The Booking field it is (the label's source, and how its values read: bookings.admin_display).
    name: str
    label: str
    ours: object
    hub: object
    differs: bool


#: Fields compared, as (answer key, Booking field whose name labels it); nested keys are "guest.name".
COMPARED = (
    ("status", "status"),
    ("type", "type"),
    ("channel_id", "channel_id"),
    ("channel_name", "channel_name"),
    ("channel_booking_number", "channel_booking_number"),
    ("gds_booking_number", "gds_booking_number"),
    ("gds_sub_booking_number", "gds_sub_booking_number"),
    ("property_id", "property"),
    ("roomtype_id", "room_type"),
    ("rateplan_id", "rate_plan"),
    ("checkin", "checkin"),
    ("checkout", "checkout"),
    ("currency", "currency"),
    ("amount", "amount"),
    ("total_amount", "total_amount"),
    ("net_price", "net_price"),
    ("payment_type", "payment_type"),
    ("guest.name", "guest_name"),
    ("guest.adults", "adults"),
    ("guest.children", "children"),
    ("guest.infants", "infants"),
    ("guest.pets", "pets"),
    ("guest.cars", "cars"),
    ("booker.name", "booker_name"),
    ("booker.email", "booker_email"),
    ("booker.phone", "booker_phone"),
    ("reserved_at", "reserved_at"),
    ("confirmed_at", "confirmed_at"),
    ("canceled_at", "canceled_at"),
    ("special_comment", "special_comment"),
    ("visit_type", "visit_type"),
    ("secondary_channel", "secondary_channel"),
    ("updated_at", "updated_at"),
)


def _get(answer: dict[str, Any], key: str) -> Any:
    value: Any = answer
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _same(ours: object, theirs: object) -> bool:
    """Equal as the hub means them: an omitted optional key equals an empty value, numbers by value,
    date-times by instant."""
    if ours in (None, "") and theirs in (None, ""):
        return True
    if isinstance(ours, int | float) and not isinstance(ours, bool):
        return _amount(theirs) == _amount(ours)
    if isinstance(ours, str) and isinstance(theirs, str) and "T" in ours:
        try:
            return datetime.datetime.fromisoformat(ours) == datetime.datetime.fromisoformat(theirs)
        except ValueError:
            return ours == theirs
    return ours == theirs


@dataclass(frozen=True)
class Comparison:
    """A booking beside the hub's view of it: the fields, or why the hub's view is missing."""

    booking: Booking
    fields: tuple[ComparedField, ...] = ()
    #: "" when the hub answered; otherwise what went wrong (not found, or the hub's error).
    problem: str = ""

    @property
    def differences(self) -> int:
        return sum(field.differs for field in self.fields)


def booking_compare_with_hub(*, booking: Booking, client: HubClient | None = None) -> Comparison:
    """Read the hub's view of the booking (operation 19) and compare it with ours, field by field."""
    try:
        theirs = hub.booking_read(booking.vendor_booking_number, client=client)
    except HubError as error:
        return Comparison(booking, problem=_("The hub could not be read: %(message)s") % {"message": error.message})
    if theirs is None:
        return Comparison(booking, problem=_("The hub does not know this booking."))
    if theirs.get("error"):
        return Comparison(booking, problem=_("The hub answered an error: %(message)s") % {"message": theirs["error"]})
    ours = booking_answer(booking)
    theirs = {**theirs, "status": hub_status_as_ours(theirs.get("status")), "updated_at": theirs.get("update_at")}
    rows = []
    for key, model_field in COMPARED:
        mine, hub_value = _get(ours, key), _get(theirs, key)
        # Every compared field is a field of the booking's own (get_field may also return a relation).
        label = cast(models.Field, Booking._meta.get_field(model_field)).verbose_name
        rows.append(ComparedField(model_field, str(label), mine, hub_value, not _same(mine, hub_value)))
    return Comparison(booking, tuple(rows))
